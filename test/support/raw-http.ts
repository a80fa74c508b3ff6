/**
 * HTTP written by hand on a socket, for what HTTP clients will not send: a request without
 * `Host`, an odd `Expect`, a body held back until `100 Continue` arrives.
 */
import type { Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';

import type { INestApplication } from '@nestjs/common';

/** One answer read off the socket: its status line, headers (lower-case names) and body. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The port an in-process app listens on (it starts listening when it does not yet). */
export async function portOf(app: INestApplication): Promise<number> {
  const server = app.getHttpServer() as Server;
  if (!server.listening) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  }
  return (server.address() as AddressInfo).port;
}

/**
 * Sends `head` (request line and headers, `\r\n` separated, ending with an empty line) and
 * returns everything that came back until the server closed the connection or `quietMs`
 * passed without data. With `body`, the body is sent once `100 Continue` has arrived.
 */
export function rawExchange(port: number, head: string, { body, quietMs = 500 } = {} as RawOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    let received = '';
    let bodySent = false;
    let quiet = setTimeout(() => socket.destroy(), quietMs);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      clearTimeout(quiet);
      quiet = setTimeout(() => socket.destroy(), quietMs);
      if (body !== undefined && !bodySent && received.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
        bodySent = true;
        socket.write(body);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(quiet);
      resolve(received);
    });
  });
}

interface RawOptions {
  body?: string;
  quietMs?: number;
}

/** Splits what `rawExchange` returned into answers (interim ones, such as 100, included). */
export function answersIn(text: string): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/')) {
    const end = rest.indexOf('\r\n\r\n');
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length'] ?? 0);
    answers.push({ status: Number(statusLine.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return answers;
}
