/**
 * Cross-origin access for browser clients, off unless `CORS_ORIGINS` names who may call.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import cors from 'cors';

import type { AppConfig } from '../../config/app.config.js';

const EXPOSED_HEADERS = [
  'ETag',
  'Location',
  'Retry-After',
  'WWW-Authenticate',
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'If-Match', 'If-None-Match', 'X-Request-Id'];
/** Allowed too, and named in a preflight's answer when the preflight asks for them. */
const OPTIONAL_HEADERS = ['Idempotency-Key'];
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * The `cors` middleware for the configured origins, or undefined when CORS is off. Preflights
 * continue (it calls `next`), so that they still answer 204 with `Allow`.
 */
export function corsHandler(config: AppConfig): ReturnType<typeof cors> | undefined {
  if (config.corsOrigins === undefined) {
    return undefined;
  }
  return cors((req, callback) =>
    callback(null, {
      origin: config.corsOrigins,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: [...ALLOWED_HEADERS, ...requestedOf(req.headers, OPTIONAL_HEADERS)],
      exposedHeaders: EXPOSED_HEADERS,
      maxAge: PREFLIGHT_MAX_AGE_SECONDS,
      preflightContinue: true,
    }),
  );
}

/** Those of `headers` that a preflight asks to send. */
function requestedOf(requestHeaders: IncomingMessage['headers'], headers: string[]): string[] {
  const requested = (requestHeaders['access-control-request-headers'] ?? '').toLowerCase().split(/\s*,\s*/);
  return headers.filter((header) => requested.includes(header.toLowerCase()));
}

/**
 * Lets a browser read these headers of this answer too, where CORS is on for the request's
 * origin (headers only some answers carry, such as a page's `Link`).
 */
export function exposeToCors(res: ServerResponse, headers: string[]): void {
  const exposed = res.getHeader('Access-Control-Expose-Headers');
  if (typeof exposed === 'string') {
    res.setHeader('Access-Control-Expose-Headers', [exposed, ...headers].join(','));
  }
}
