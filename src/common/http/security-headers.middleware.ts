/**
 * Security headers on every response (helmet's defaults), with a content security policy
 * that suits a JSON API: nothing may be loaded or framed from its answers. The docs page
 * gets its own, looser policy from `setupOpenApi`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { Injectable, type NestMiddleware } from '@nestjs/common';
import helmet from 'helmet';

import { DOCS_PATH } from '../openapi/openapi.js';

@Injectable()
export class SecurityHeadersMiddleware implements NestMiddleware {
  private readonly helmet = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  });

  use(req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, next: (error?: unknown) => void): void {
    if ((req.originalUrl ?? req.url ?? '').startsWith(`/${DOCS_PATH}`)) {
      return next();
    }
    this.helmet(req, res, next);
  }
}
