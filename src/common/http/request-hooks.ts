/**
 * Work every request needs, whatever route serves it (unknown ones included): run on the HTTP
 * server itself, before the adapter (Express or Fastify) sees the request, as one plain
 * function per concern, called in order. Nest's middleware would run the same functions
 * through a per-middleware path match (and, on Fastify, a middleware engine), after the
 * adapter's own request handling; these run as direct calls, only a hook that has to wait
 * (for the rate-limit counters) makes the others wait, and a hook that answers the request
 * spares it the adapter altogether.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

import type { AbstractHttpAdapter } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import proxyAddr from 'proxy-addr';

import type { AppConfig } from '../../config/app.config.js';

/** What is known of a request beyond Node's objects, read when asked. */
export interface RequestView {
  /** The route pattern that served the request (`/pets/:id`), once known; undefined for an unknown endpoint. */
  route(): string | undefined;
  /**
   * The client's address: the peer's, or, behind proxies trusted by `TRUST_PROXY`, the one
   * their `X-Forwarded-For` names (as Express and Fastify read it with the same setting).
   */
  address(): string | undefined;
}

/**
 * Sees the request before the adapter. Returns true when the hook has answered the request
 * itself (the later hooks and the adapter do not see it), false to go on; or a promise of either.
 */
export type RequestHook = (req: IncomingMessage, res: ServerResponse, view: RequestView) => boolean | Promise<boolean>;

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** The route patterns of requests the adapter's router did not record on Node's request (Fastify), or a hook answered. */
const routes = new WeakMap<IncomingMessage, string>();

/** Records that `req` was answered, or routed, as the route `pattern`. */
export function answeredBy(req: IncomingMessage, pattern: string): void {
  routes.set(req, pattern);
}

/**
 * Runs `hooks` on every request the adapter's HTTP server receives, before the adapter's own
 * handler, which gets the requests no hook answered.
 */
export function onEveryRequest(adapter: AbstractHttpAdapter, config: AppConfig, ...hooks: RequestHook[]): void {
  const server = adapter.getHttpServer() as Server;
  const handlers = server.listeners('request') as Listener[];
  server.removeAllListeners('request');
  const trust = compileTrust(config.trustProxy);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    runHooks(hooks, 0, req, res, new HookView(req, trust), (answered) => {
      if (!answered) {
        for (const handler of handlers) {
          handler.call(server, req, res);
        }
      }
    });
  });
  if (adapter.getType() === 'fastify') {
    // Fastify keeps the route on its own request object; the request line reads it from Node's.
    adapter.getInstance<FastifyInstance>().addHook('onRequest', (request, _reply, done) => {
      const pattern = request.routeOptions.url;
      if (pattern !== undefined) {
        routes.set(request.raw, pattern);
      }
      done();
    });
  }
}

/**
 * Runs the hooks from `from` on; `finish` learns whether one answered. A hook that fails
 * leaves the request to the adapter, whose pipeline reports what failed (the rate-limit
 * count's token lookup, for instance, is awaited again by the guard).
 */
function runHooks(
  hooks: RequestHook[],
  from: number,
  req: IncomingMessage,
  res: ServerResponse,
  view: RequestView,
  finish: (answered: boolean) => void,
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
        () => finish(res.headersSent),
      );
      return;
    }
  }
  finish(false);
}

type Trust = (address: string, hop: number) => boolean;

/** `TRUST_PROXY` as Express compiles it (Fastify is given the same function, see app.fastify.ts). */
export function compileTrust(trust: AppConfig['trustProxy']): Trust {
  if (trust === false) {
    return () => false;
  }
  if (typeof trust === 'number') {
    return (_address, hop) => hop < trust;
  }
  return proxyAddr.compile(trust);
}

type RoutedRequest = IncomingMessage & { route?: { path?: string } };

class HookView implements RequestView {
  private clientAddress?: string;

  constructor(
    private readonly req: RoutedRequest,
    private readonly trust: Trust,
  ) {}

  /** Express records the matched route on Node's request (its not-found wildcard is no route); the others are recorded here. */
  route(): string | undefined {
    const path = this.req.route?.path ?? routes.get(this.req);
    return path?.includes('*') ? undefined : path;
  }

  address(): string | undefined {
    this.clientAddress ??= this.req.socket.remoteAddress === undefined ? undefined : proxyAddr(this.req, this.trust);
    return this.clientAddress;
  }
}
