/**
 * Adapter-level settings that cannot live in a module. `main.ts` and the e2e tests both
 * create the application through here, so tests run the same HTTP layer as production.
 * Express is the default adapter; `HTTP_ADAPTER=fastify` selects Fastify, configured to
 * answer exactly as Express does.
 */
import { type IncomingMessage, type Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

import { type INestApplication, StreamableFile } from '@nestjs/common';
import type { AbstractHttpAdapter } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import express from 'express';

import { JSON_TYPE, type Payload, payloadOf } from './common/http/answers.js';
import { answerClientError } from './common/http/client-errors.js';
import { setupOpenApi } from './common/openapi/openapi.js';
import { type AppConfig, appConfig, loadAppConfig } from './config/app.config.js';

/** Node's limits on reading a request: its headers, and the whole of it with its body. */
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;

/** Express, writing handlers' results through `payloadOf` (ETags, kept list bytes, JSON). */
class ApiExpressAdapter extends ExpressAdapter {
  override reply(response: ServerResponse, body: unknown, statusCode?: number): unknown {
    if (body === null || body === undefined || body instanceof StreamableFile) {
      return super.reply(response, body, statusCode);
    }
    const payload = payloadOf(response.req, response, body, statusCode ?? response.statusCode);
    return payload === undefined ? super.reply(response, body, statusCode) : this.send(response, payload);
  }

  private send(response: ServerResponse, payload: Payload): unknown {
    if (payload.kind === 'stream') {
      return super.reply(
        response,
        new StreamableFile(payload.stream, { type: JSON_TYPE, length: payload.length }),
        payload.status,
      );
    }
    response.statusCode = payload.status;
    if (payload.kind === 'empty') {
      return response.end();
    }
    response.setHeader('Content-Type', payload.type);
    response.setHeader('Content-Length', Buffer.byteLength(payload.body));
    return response.end(payload.body);
  }
}

/** The adapter `HTTP_ADAPTER` names; Fastify's packages are loaded only when it is the one. */
export async function createHttpAdapter(config: AppConfig = loadAppConfig(process.env)): Promise<AbstractHttpAdapter> {
  if (config.httpAdapter === 'fastify') {
    const { createFastifyAdapter } = await import('./app.fastify.js');
    return createFastifyAdapter(config);
  }
  return createExpressAdapter(config);
}

function createExpressAdapter(config: AppConfig): ExpressAdapter {
  const app = express();
  // The client address (req.ip) as TRUST_PROXY says: hop count and address lists as Express reads them.
  app.set('trust proxy', config.trustProxy);
  // Paths are case-sensitive (/PETS is unknown); one trailing slash is ignored (non-strict routing).
  app.set('case sensitive routing', true);
  app.set('strict routing', false);
  app.disable('x-powered-by');
  // ETags are the service's own (strong, from the row version), not Express's weak body hashes.
  app.set('etag', false);
  app.set('query parser', 'simple');
  return new ApiExpressAdapter(app);
}

/** Bodies are parsed after authentication by JsonBodyGuard, so the adapter's parser is off. */
export const APP_OPTIONS = { bodyParser: false } as const;

/** What the application needs beyond its modules, before it starts: shared by main.ts and the tests. */
export function configureApp(app: INestApplication): void {
  const server = app.getHttpServer() as Server;
  if (app.getHttpAdapter().getType() === 'express') {
    server.on('clientError', answerClientError);
  }
  answerExpectationsInTheApi(server);
  limitSlowClients(server, app.get<AppConfig>(appConfig.KEY).sendTimeoutMs);
  setupOpenApi(app);
}

/**
 * A client that sends its request too slowly, or stops reading the answer, does not hold a
 * connection (and the answer's memory) for long: headers must arrive within 10 s, the whole
 * request within 30 s, and a connection whose answer has bytes waiting to go out but has
 * handed none to the operating system for `SEND_TIMEOUT_MS` (a client that does not read,
 * once the socket buffers are full) is closed; its request line then says aborted. A slow
 * handler does not count: nothing is waiting to be sent meanwhile. One sweep checks every
 * open connection a few times per timeout, so requests themselves pay nothing for it.
 */
function limitSlowClients(server: Server, sendTimeoutMs: number): void {
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  const sockets = new Set<Socket>();
  const progress = new WeakMap<Socket, { sent: number; since: number }>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const sweep = setInterval(
    () => {
      const now = Date.now();
      for (const socket of sockets) {
        if (socket.writableLength === 0) {
          progress.delete(socket);
          continue;
        }
        // Bytes handed to the operating system: those written minus those still waiting.
        const sent = socket.bytesWritten - socket.writableLength;
        const seen = progress.get(socket);
        if (seen === undefined || seen.sent !== sent) {
          progress.set(socket, { sent, since: now });
        } else if (now - seen.since >= sendTimeoutMs) {
          socket.destroy();
        }
      }
    },
    Math.max(25, Math.min(1_000, sendTimeoutMs / 4)),
  ).unref();
  server.once('close', () => clearInterval(sweep));
}

/**
 * Node answers some requests itself, with an empty body and none of the API's headers: an
 * HTTP/1.1 request without `Host` (400) and an `Expect` other than `100-continue` (417); and it
 * sends `100 Continue` to every `Expect: 100-continue` before the application has seen the
 * request. All of them go to the application instead: HttpFront answers the first two in the
 * contract's shape, and JsonBodyGuard sends `100 Continue` only when it is about to read the
 * body, i.e. after the rate limit, the token, `Content-Type` and the declared size have
 * passed. A request refused before that gets its answer without `100 Continue`, and Node
 * closes the connection after it, as the body was never asked for.
 */
function answerExpectationsInTheApi(server: Server): void {
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
  const handOn = (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res);
  server.on('checkContinue', handOn);
  server.on('checkExpectation', handOn);
}

/** Readies the adapter (Fastify registers its plugins asynchronously) after `app.init()`. */
export async function adapterReady(app: INestApplication): Promise<void> {
  const instance = app.getHttpAdapter().getInstance() as { ready?: () => PromiseLike<unknown> };
  await instance.ready?.();
}
