import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

import { errorBody } from '../errors/error-body.js';
import { Messages } from '../errors/messages.js';
import { REQUEST_ID_HEADER } from './request-id.js';

/**
 * Requests Node's HTTP parser cannot read (an unknown method such as `FOO`, a broken
 * header) never reach the application; answer them in the contract's error shape too.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || (error.code === 'ECONNRESET' && socket.destroyed)) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const requestId = randomUUID();
  const body = JSON.stringify(errorBody(status, Messages.malformedRequest(), requestId));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `${REQUEST_ID_HEADER}: ${requestId}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
