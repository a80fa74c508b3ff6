/**
 * Security headers on every response (helmet's defaults), with a content security policy
 * that suits a JSON API: nothing may be loaded or framed from its answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { Injectable, type NestMiddleware } from '@nestjs/common';
import helmet from 'helmet';

@Injectable()
export class SecurityHeadersMiddleware implements NestMiddleware {
  private readonly helmet = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  });

  use(req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void {
    this.helmet(req, res, next);
  }
}
