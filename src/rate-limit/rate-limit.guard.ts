/**
 * Refuses a routed request whose caller has exhausted a window (429 with `Retry-After`), from
 * the count RateLimiter made before routing. A route may leave windows unenforced with
 * @nestjs/throttler's `@SkipThrottle()` (the health probes): its requests are still counted,
 * and never refused. What a route's metadata says is read once per route.
 */
import type { IncomingMessage } from 'node:http';

import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

import { RateLimitExceededException } from '../common/errors/api.exception.js';
import { WINDOWS, type WindowName } from './rate-limit.policy.js';
import { type Block, RateLimiter } from './rate-limiter.js';

/** @nestjs/throttler's metadata key prefix of `@SkipThrottle()`. */
const THROTTLER_SKIP = 'THROTTLER:SKIP';
const WINDOW_NAMES = Object.keys(WINDOWS) as WindowName[];

@Injectable()
export class RateLimitGuard implements CanActivate {
  /** The windows each route enforces, by handler. */
  private readonly routes = new WeakMap<object, ReadonlySet<WindowName>>();

  constructor(
    private readonly limiter: RateLimiter,
    private readonly reflector: Reflector,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const enforced = this.enforcedBy(context);
    if (enforced.size === 0) {
      return true;
    }
    // Express hands Node's request; Fastify wraps it and keeps it as `raw`.
    const wrapped = context.switchToHttp().getRequest<IncomingMessage & { raw?: IncomingMessage }>();
    const blocks = this.limiter.blocksOf(wrapped.raw ?? wrapped);
    // Counted at once before routing (mostly): decided at once too.
    return Array.isArray(blocks)
      ? refuse(blocks, enforced)
      : (blocks as Promise<readonly Block[]>).then((found) => refuse(found, enforced));
  }

  private enforcedBy(context: ExecutionContext): ReadonlySet<WindowName> {
    const handler = context.getHandler();
    let windows = this.routes.get(handler);
    if (windows === undefined) {
      const targets = [handler, context.getClass()];
      windows = new Set(
        WINDOW_NAMES.filter((name) => !this.reflector.getAllAndOverride<boolean>(`${THROTTLER_SKIP}${name}`, targets)),
      );
      this.routes.set(handler, windows);
    }
    return windows;
  }
}

/** True, or the 429 of the enforced window that blocks longest. */
function refuse(blocks: readonly Block[], enforced: ReadonlySet<WindowName>): boolean {
  let retryAfter = 0;
  for (const block of blocks) {
    if (enforced.has(block.window) && block.retryAfter > retryAfter) {
      retryAfter = block.retryAfter;
    }
  }
  if (retryAfter > 0) {
    throw new RateLimitExceededException(retryAfter);
  }
  return true;
}
