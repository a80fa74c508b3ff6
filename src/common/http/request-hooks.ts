/**
 * Work every request needs, whatever route serves it (unknown ones included): installed on
 * the HTTP adapter itself, ahead of routing, as one plain function per concern. Nest's
 * middleware would run the same functions through a per-middleware path match (and, on
 * Fastify, a middleware engine); these run as a direct call.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import type { AbstractHttpAdapter } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';

type RoutedRequest = IncomingMessage & { route?: { path?: string } };

/**
 * Sees the request before routing. `route()` names the route pattern that served it, once
 * known (`/pets/:id`), or undefined for an unknown endpoint. Returns true when the hook has
 * answered the request itself.
 */
export type RequestHook = (req: IncomingMessage, res: ServerResponse, route: () => string | undefined) => boolean;

export function onEveryRequest(adapter: AbstractHttpAdapter, hook: RequestHook): void {
  if (adapter.getType() === 'fastify') {
    const fastify = adapter.getInstance<FastifyInstance>();
    fastify.addHook('onRequest', (request, reply, done) => {
      if (hook(request.raw, reply.raw, () => request.routeOptions.url)) {
        reply.hijack();
        return;
      }
      done();
    });
    return;
  }
  const express = adapter.getInstance<{ use: (fn: (...args: never[]) => void) => void }>();
  express.use((req: RoutedRequest, res: ServerResponse, next: () => void) => {
    if (!hook(req, res, () => expressRoute(req))) {
      next();
    }
  });
}

/** Express records the matched route on the request; its not-found wildcard is no route. */
function expressRoute(req: RoutedRequest): string | undefined {
  const path = req.route?.path;
  return path?.includes('*') ? undefined : path;
}
