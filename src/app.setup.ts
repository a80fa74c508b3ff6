/**
 * Adapter-level settings that cannot live in a module. `main.ts` and the e2e tests both
 * create the application through here, so tests run the same HTTP layer as production.
 * Express is the default adapter; `HTTP_ADAPTER=fastify` selects Fastify, configured to
 * answer exactly as Express does.
 */
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, ServerResponse, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

import { type INestApplication, StreamableFile } from '@nestjs/common';
import type { AbstractHttpAdapter } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import express from 'express';

import { Messages } from './common/errors/messages.js';
import { errorBody } from './common/errors/error-body.js';
import { JSON_TYPE, type Payload, payloadOf, sendError } from './common/http/answers.js';
import { REQUEST_ID_HEADER, requestIdOf } from './common/http/request-id.js';
import { beforeFastifyAnswers, reserveExpressHooks } from './common/http/request-hooks.js';
import { setupOpenApi } from './common/openapi/openapi.js';
import { type AppConfig, appConfig, loadAppConfig } from './config/app.config.js';

/** Node's limits on reading a request: its headers, and the whole of it with its body. */
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;
/** Fastify's longest path parameter (its default is 100 characters). */
const MAX_PARAM_LENGTH = 65_536;

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

/** Fastify, writing handlers' results through `payloadOf`, as Express does. */
class ApiFastifyAdapter extends FastifyAdapter {
  override reply(response: FastifyReply | ServerResponse, body: unknown, statusCode?: number): FastifyReply {
    if (body === null || body === undefined || body instanceof StreamableFile || response instanceof ServerResponse) {
      return super.reply(response, body, statusCode);
    }
    const payload = payloadOf(response.request.raw, response.raw, body, statusCode ?? response.statusCode);
    if (payload === undefined) {
      return super.reply(response, body, statusCode);
    }
    if (payload.kind === 'stream') {
      return super.reply(
        response,
        new StreamableFile(payload.stream, { type: JSON_TYPE, length: payload.length }),
        payload.status,
      );
    }
    response.code(payload.status);
    return payload.kind === 'empty' ? response.send() : response.type(payload.type).send(payload.body);
  }
}

export function createHttpAdapter(config: AppConfig = loadAppConfig(process.env)): AbstractHttpAdapter {
  return config.httpAdapter === 'fastify' ? createFastifyAdapter(config) : createExpressAdapter(config);
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
  reserveExpressHooks(app);
  return new ApiExpressAdapter(app);
}

function createFastifyAdapter(config: AppConfig): FastifyAdapter {
  const adapter = new ApiFastifyAdapter({
    trustProxy: fastifyTrustProxy(config.trustProxy),
    routerOptions: {
      caseSensitive: true,
      ignoreTrailingSlash: true,
      ignoreDuplicateSlashes: false,
      // A path parameter of any length reaches the route (whose id rule answers it), as on
      // Express: longer than any URL Node's parser lets through.
      maxParamLength: MAX_PARAM_LENGTH,
    },
    // No Nest middleware runs here (see common/http/request-hooks.ts), so no middleware engine either.
    skipMiddie: true,
    // One request id for Fastify, the logs and the X-Request-Id header.
    genReqId: (req: IncomingMessage) => requestIdOf(req),
    // Requests Node's parser refuses, and URLs the router cannot decode, answer in the contract's shape.
    clientErrorHandler: (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket),
    // They are answered before Fastify's onRequest hooks, so the hooks run here first.
    frameworkErrors: (_error: Error, request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      beforeFastifyAnswers(request, reply, () => sendError(request.raw, reply.raw, 400, Messages.malformedRequest()));
    },
  });
  const fastify = adapter.getInstance();
  // Bodies are read by JsonBodyGuard after the other guards, as on Express. Fastify leaves them
  // unread, and does not look at Content-Type either (it would refuse a malformed one with its
  // own 415 before the token is checked): to Fastify, no method has a body.
  const withoutBodies = () => {
    for (const method of fastify.supportedMethods) {
      fastify.addHttpMethod(method, { hasBody: false, overrideExisting: true });
    }
  };
  withoutBodies();
  // Methods Nest adds while registering routes, too.
  fastify.addHook('onReady', (done) => {
    withoutBodies();
    done();
  });
  return adapter;
}

/**
 * Fastify's `trustProxy`. A hop count becomes a function, as Express reads one (trust the
 * nearest `n` hops): Fastify 5 ignores a bare number, since whoever reaches the service
 * directly can then name any address; TRUST_PROXY's documentation says so.
 */
function fastifyTrustProxy(trust: AppConfig['trustProxy']) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
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

/**
 * Requests Node's HTTP parser cannot read (an unknown method such as `FOO`, a broken
 * header) never reach the application; answer them in the contract's error shape too.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
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
