/** `OPTIONS` on any path the API serves answers 204 with `Allow`, without auth (API.md §10). */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { Injectable, type NestMiddleware } from '@nestjs/common';

import { RouteTable } from './route-table.js';

@Injectable()
export class OptionsMiddleware implements NestMiddleware {
  constructor(private readonly routes: RouteTable) {}

  use(req: IncomingMessage & { originalUrl?: string }, res: ServerResponse, next: () => void): void {
    if (req.method !== 'OPTIONS') {
      return next();
    }
    // Mounted middleware sees a shortened req.url; the original one holds the whole path.
    const path = (req.originalUrl ?? req.url ?? '/').split('?', 1)[0];
    const allowed = this.routes.allowedMethods(path);
    if (!allowed) {
      return next();
    }
    res.statusCode = 204;
    res.setHeader('Allow', allowed.join(', '));
    res.end();
  }
}
