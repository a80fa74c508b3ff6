/**
 * Adapter-level settings that cannot live in a module. `main.ts` and the e2e tests both
 * create the application through here, so tests run the same HTTP layer as production.
 */
import { randomUUID } from 'node:crypto';
import { type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

import type { INestApplication } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import express from 'express';

import { Messages } from './common/errors/messages.js';
import { setupOpenApi } from './common/openapi/openapi.js';

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

/** What the application needs beyond its modules, before it starts: shared by main.ts and the tests. */
export function configureApp(app: INestApplication): void {
  answerUnparsableRequests(app.getHttpServer() as Server);
  setupOpenApi(app);
}

/**
 * Requests Node's HTTP parser cannot read (an unknown method such as `FOO`, a broken
 * header) never reach the application; answer them in the contract's error shape too.
 */
export function answerUnparsableRequests(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || (error.code === 'ECONNRESET' && socket.destroyed)) {
      socket.destroy();
      return;
    }
    const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const requestId = randomUUID();
    const body = JSON.stringify({
      error: STATUS_CODES[status],
      message: Messages.malformedRequest(),
      status,
      request_id: requestId,
    });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
