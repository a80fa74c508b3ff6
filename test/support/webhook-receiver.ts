/**
 * A webhook receiver on loopback for the specs: it verifies every delivery with the
 * `standardwebhooks` package and the secret registered for its path (401 otherwise), keeps
 * what it received, and answers 200 unless told to fail first.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

import { Webhook as Verifier } from 'standardwebhooks';

export interface Received {
  path: string;
  id: string;
  type: string;
  data: Record<string, unknown>;
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
}

/** Receives webhooks, verifies each with the secret of its path, and answers what it is told to. */
export class Receiver {
  readonly received: Received[] = [];
  readonly secrets = new Map<string, string>();
  /** Paths whose requests are never answered (a receiver that hangs). */
  readonly hanging = new Set<string>();
  /** Statuses to answer, per path, before answering 200. */
  readonly failures = new Map<string, number[]>();
  private server!: Server;
  port = 0;

  /** Listens on `port` (any free one by default). */
  async start(port = 0): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        const path = req.url ?? '/';
        if (this.hanging.has(path)) {
          return;
        }
        const secret = this.secrets.get(path);
        let payload: Received['payload'];
        try {
          // Throws unless the signature, the id and a recent timestamp hold together.
          payload = new Verifier(secret!).verify(body, headersOf(req.headers)) as Received['payload'];
        } catch {
          res.writeHead(401).end();
          return;
        }
        this.received.push({
          path,
          id: String(req.headers['webhook-id']),
          type: payload.type,
          data: payload.data,
          payload,
        });
        const status = this.failures.get(path)?.shift() ?? 200;
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', () => resolve()));
    this.port = (this.server.address() as { port: number }).port;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  at(path: string): Received[] {
    return this.received.filter((entry) => entry.path === path);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

function headersOf(headers: IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, String(value)]));
}

export async function eventually<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value) {
      return value;
    }
    if (Date.now() - started > timeoutMs) {
      throw new Error('not within the time allowed');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
