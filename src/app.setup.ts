/**
 * Adapter-level settings that cannot live in a module. `main.ts` and the e2e tests both
 * create the application through here, so tests run the same HTTP layer as production.
 * Express is the default adapter; `HTTP_ADAPTER=fastify` selects Fastify, configured to
 * answer exactly as Express does.
 */
import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

import type { INestApplication } from '@nestjs/common';
import type { AbstractHttpAdapter } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import express from 'express';

import { Messages } from './common/errors/messages.js';
import { REQUEST_ID_HEADER, requestIdOf } from './common/http/request-id.js';
import { setupOpenApi } from './common/openapi/openapi.js';
import { type HttpAdapterName, loadAppConfig } from './config/app.config.js';

export function createHttpAdapter(name: HttpAdapterName = loadAppConfig(process.env).httpAdapter): AbstractHttpAdapter {
  return name === 'fastify' ? createFastifyAdapter() : createExpressAdapter();
}

function createExpressAdapter(): ExpressAdapter {
  const app = express();
  // Paths are case-sensitive (/PETS is unknown); one trailing slash is ignored (non-strict routing).
  app.set('case sensitive routing', true);
  app.set('strict routing', false);
  app.disable('x-powered-by');
  // ETags are the service's own (strong, from the row version), not Express's weak body hashes.
  app.set('etag', false);
  app.set('query parser', 'simple');
  return new ExpressAdapter(app);
}

function createFastifyAdapter(): FastifyAdapter {
  const adapter = new FastifyAdapter({
    routerOptions: { caseSensitive: true, ignoreTrailingSlash: true, ignoreDuplicateSlashes: false },
    // One request id for Fastify, the logs and the X-Request-Id header.
    genReqId: (req: IncomingMessage) => requestIdOf(req),
    // Requests Node's parser refuses, and URLs the router cannot decode, answer in the contract's shape.
    clientErrorHandler: (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket),
    frameworkErrors: (_error: Error, request: FastifyRequest, reply: FastifyReply) => {
      const requestId = requestIdOf(request.raw);
      void reply
        .code(400)
        .header(REQUEST_ID_HEADER, requestId)
        .header('Content-Type', 'application/json; charset=utf-8')
        .send(JSON.stringify(malformedBody(400, requestId)));
    },
  });
  const fastify = adapter.getInstance();
  // The route pattern, where the request logs look for it on Express (`req.route.path`).
  fastify.addHook('onRequest', (request, _reply, done) => {
    (request.raw as IncomingMessage & { route?: { path?: string } }).route = { path: request.routeOptions.url };
    done();
  });
  // Bodies are read by JsonBodyInterceptor after the guards, as on Express: Fastify leaves them unread.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  return adapter;
}

/** Bodies are parsed after authentication by JsonBodyInterceptor, so the adapter's parser is off. */
export const APP_OPTIONS = { bodyParser: false } as const;

/** What the application needs beyond its modules, before it starts: shared by main.ts and the tests. */
export function configureApp(app: INestApplication): void {
  if (app.getHttpAdapter().getType() === 'express') {
    (app.getHttpServer() as Server).on('clientError', answerClientError);
  }
  setupOpenApi(app);
}

/** Readies the adapter (Fastify registers its plugins asynchronously) after `app.init()`. */
export async function adapterReady(app: INestApplication): Promise<void> {
  const instance = app.getHttpAdapter().getInstance() as { ready?: () => PromiseLike<unknown> };
  await instance.ready?.();
}

function malformedBody(status: number, requestId: string) {
  return { error: STATUS_CODES[status], message: Messages.malformedRequest(), status, request_id: requestId };
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
  const body = JSON.stringify(malformedBody(status, requestId));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `${REQUEST_ID_HEADER}: ${requestId}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
