/**
 * Work every request needs, whatever route serves it (unknown ones included): installed on
 * the HTTP adapter itself, ahead of routing, as one plain function per concern, run in order
 * by a single Express middleware or Fastify hook. Nest's middleware would run the same
 * functions through a per-middleware path match (and, on Fastify, a middleware engine);
 * these run as direct calls, and only a hook that has to wait (for the rate-limit counters)
 * makes the others wait.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { AbstractHttpAdapter } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** What the adapter knows of a request beyond Node's objects, read when asked. */
export interface RequestView {
  /** The route pattern that served the request (`/pets/:id`), once known; undefined for an unknown endpoint. */
  route(): string | undefined;
  /**
   * The client's address: the peer's, or, behind proxies trusted by `TRUST_PROXY`, the one
   * their `X-Forwarded-For` names (worked out by the adapter's own trust-proxy support).
   */
  address(): string | undefined;
}

/**
 * Sees the request before routing. Returns true when the hook has answered the request itself
 * (the later hooks and the router do not see it), false to go on; or a promise of either.
 */
export type RequestHook = (req: IncomingMessage, res: ServerResponse, view: RequestView) => boolean | Promise<boolean>;

/** Requests a hook answered for a route (src/direct-reads.ts): the route's pattern, for the request line. */
const answeredRoutes = new WeakMap<IncomingMessage, string>();

/** Records that a hook answered `req` as the route `pattern` would have. */
export function answeredBy(req: IncomingMessage, pattern: string): void {
  answeredRoutes.set(req, pattern);
}

/** Where the run of the hooks ends: answered, passed on, or failed (to the adapter's error handling). */
type Finish = (answered: boolean, error?: unknown) => void;

const fastifyHooks = new WeakMap<FastifyInstance, RequestHook[]>();

export function onEveryRequest(adapter: AbstractHttpAdapter, ...hooks: RequestHook[]): void {
  if (adapter.getType() === 'fastify') {
    const fastify = adapter.getInstance<FastifyInstance>();
    fastifyHooks.set(fastify, [...(fastifyHooks.get(fastify) ?? []), ...hooks]);
    fastify.addHook('onRequest', (request, reply, done) => {
      runHooks(hooks, 0, request.raw, reply.raw, new FastifyView(request), (answered, error) => {
        if (error !== undefined) {
          done(error as Error);
        } else if (answered) {
          reply.hijack();
        } else {
          done();
        }
      });
    });
    return;
  }
  const express = adapter.getInstance<ExpressApp>();
  const early = expressHooks.get(express);
  if (early !== undefined) {
    early.push(...hooks);
    return;
  }
  express.use(expressMiddleware(hooks));
}

type ExpressApp = { use: (fn: (...args: never[]) => void) => void };
type ExpressMiddleware = (req: ExpressRequest, res: ServerResponse, next: (error?: unknown) => void) => void;

const expressHooks = new WeakMap<ExpressApp, RequestHook[]>();

function expressMiddleware(hooks: RequestHook[]): ExpressMiddleware {
  return (req, res, next) => {
    runHooks(hooks, 0, req, res, new ExpressView(req), (answered, error) => {
      if (error !== undefined) {
        next(error);
      } else if (!answered) {
        next();
      }
    });
  };
}

/**
 * Reserves the first place in an Express app for the hooks `onEveryRequest` will add, so that
 * they run before anything registered on the app meanwhile (the docs page and the OpenAPI
 * document are set up before the modules' routes).
 */
export function reserveExpressHooks(express: ExpressApp): void {
  const hooks: RequestHook[] = [];
  expressHooks.set(express, hooks);
  express.use(expressMiddleware(hooks));
}

/**
 * Runs the hooks of a request that Fastify answers before its `onRequest` hooks (a URL its
 * router cannot decode), so that this answer gets what every answer gets; then `answer`,
 * unless a hook has answered.
 */
export function beforeFastifyAnswers(request: FastifyRequest, reply: FastifyReply, answer: () => void): void {
  const hooks = fastifyHooks.get(request.server) ?? [];
  runHooks(hooks, 0, request.raw, reply.raw, new FastifyView(request), (answered) => {
    if (!answered) {
      answer();
    }
  });
}

function runHooks(
  hooks: RequestHook[],
  from: number,
  req: IncomingMessage,
  res: ServerResponse,
  view: RequestView,
  finish: Finish,
): void {
  for (let index = from; index < hooks.length; index++) {
    const outcome = hooks[index](req, res, view);
    if (outcome === true) {
      finish(true);
      return;
    }
    if (outcome !== false) {
      outcome.then(
        (answered) => (answered ? finish(true) : runHooks(hooks, index + 1, req, res, view, finish)),
        (error: unknown) => finish(false, error ?? new Error('request hook failed')),
      );
      return;
    }
  }
  finish(false);
}

type ExpressRequest = IncomingMessage & { route?: { path?: string }; ip?: string };

class ExpressView implements RequestView {
  constructor(private readonly req: ExpressRequest) {}

  /** Express records the matched route on the request; its not-found wildcard is no route. */
  route(): string | undefined {
    const path = this.req.route?.path ?? answeredRoutes.get(this.req);
    return path?.includes('*') ? undefined : path;
  }

  address(): string | undefined {
    return this.req.ip;
  }
}

class FastifyView implements RequestView {
  constructor(private readonly request: FastifyRequest) {}

  route(): string | undefined {
    return this.request.routeOptions.url;
  }

  address(): string | undefined {
    return this.request.ip;
  }
}
