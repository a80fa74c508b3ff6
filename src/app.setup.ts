/**
 * Adapter-level settings that cannot live in a module. `main.ts` and the e2e tests both
 * create the application through here, so tests run the same HTTP layer as production.
 */
import { ExpressAdapter } from '@nestjs/platform-express';
import express from 'express';

export function createHttpAdapter(): ExpressAdapter {
  const app = express();
  // Paths are case-sensitive (/PETS is unknown); one trailing slash is ignored (non-strict routing).
  app.set('case sensitive routing', true);
  app.set('strict routing', false);
  app.disable('x-powered-by');
  // ETags are the service's own (strong, from the row version), not Express's weak body hashes.
  app.set('etag', false);
  app.set('query parser', 'simple');
  return new ExpressAdapter(app);
}

/** Bodies are parsed after authentication by JsonBodyInterceptor, so the adapter's parser is off. */
export const APP_OPTIONS = { bodyParser: false } as const;
