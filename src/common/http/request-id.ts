/** Every response carries `X-Request-Id`: the client's own value when it is well formed, else a new one. */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'X-Request-Id';
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The request's id, assigning one on first use (so errors raised before middleware still get one). */
export function requestIdOf(req: IncomingMessage): string {
  const holder = req as { id?: unknown };
  if (typeof holder.id !== 'string') {
    const sent = req.headers['x-request-id'];
    holder.id = typeof sent === 'string' && CLIENT_REQUEST_ID.test(sent) ? sent : randomUUID();
  }
  return holder.id as string;
}
