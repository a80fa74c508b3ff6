/**
 * The Fastify adapter (`HTTP_ADAPTER=fastify`), configured to answer exactly as Express does.
 * Loaded by `createHttpAdapter` only when selected, so an Express service never loads Fastify.
 */
import type { IncomingMessage } from 'node:http';
import { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

import { StreamableFile } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { Messages } from './common/errors/messages.js';
import { JSON_TYPE, payloadOf, sendError } from './common/http/answers.js';
import { answerClientError } from './common/http/client-errors.js';
import { requestIdOf } from './common/http/request-id.js';
import { compileTrust } from './common/http/request-hooks.js';
import type { AppConfig } from './config/app.config.js';

/** Fastify's longest path parameter (its default is 100 characters). */
const MAX_PARAM_LENGTH = 65_536;

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

export function createFastifyAdapter(config: AppConfig): FastifyAdapter {
  const adapter = new ApiFastifyAdapter({
    // The client address as Express and the request hooks read it (a hop count trusts the nearest hops).
    trustProxy: compileTrust(config.trustProxy),
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
    // The request hooks have run on the server before Fastify saw the request.
    frameworkErrors: (_error: Error, request: FastifyRequest, reply: FastifyReply) => {
      reply.hijack();
      sendError(request.raw, reply.raw, 400, Messages.malformedRequest());
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
