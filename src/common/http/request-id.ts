/** Every response carries `X-Request-Id`: the client's own value when it is well formed, else a new one. */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import { Injectable, type NestMiddleware } from '@nestjs/common';

export const REQUEST_ID_HEADER = 'X-Request-Id';
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

type RequestWithId = IncomingMessage & { id?: string };

/** The request's id, assigning one on first use (so errors raised before middleware still get one). */
export function requestIdOf(req: RequestWithId): string {
  if (req.id === undefined) {
    const sent = req.headers['x-request-id'];
    req.id = typeof sent === 'string' && CLIENT_REQUEST_ID.test(sent) ? sent : randomUUID();
  }
  return req.id;
}

@Injectable()
export class RequestIdMiddleware implements NestMiddleware {
  use(req: RequestWithId, res: ServerResponse, next: () => void): void {
    res.setHeader(REQUEST_ID_HEADER, requestIdOf(req));
    next();
  }
}
