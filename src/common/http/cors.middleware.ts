/**
 * Cross-origin access for browser clients, off unless `CORS_ORIGINS` names who may call.
 * Preflights continue to OptionsMiddleware, so they still answer 204 with `Allow`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import cors from 'cors';

import { type AppConfig, appConfig } from '../../config/app.config.js';

const EXPOSED_HEADERS = [
  'ETag',
  'Location',
  'Retry-After',
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
];
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'If-Match', 'If-None-Match', 'X-Request-Id'];
/** Allowed too, and named in a preflight's answer when the preflight asks for them. */
const OPTIONAL_HEADERS = ['Idempotency-Key'];
const PREFLIGHT_MAX_AGE_SECONDS = 600;

@Injectable()
export class CorsMiddleware implements NestMiddleware {
  private readonly handler: ReturnType<typeof cors> | undefined;

  constructor(@Inject(appConfig.KEY) config: AppConfig) {
    this.handler =
      config.corsOrigins === undefined
        ? undefined
        : cors((req, callback) =>
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

  use(req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void {
    if (this.handler === undefined) {
      return next();
    }
    this.handler(req, res, next);
  }
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
