/**
 * @nestjs/throttler's guard, with the contract's counting and reporting: counters keyed by
 * token hash or client address across all routes, each caller's tier limits, one set of
 * `X-RateLimit-*` headers for the window closest to running out (the per-minute one on a
 * tie), and the contract's 429. What a route's throttler metadata says is read once per route,
 * not on every request.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';

import { AuthService } from '../../auth/auth.service.js';
import { RateLimitExceededException } from '../errors/api.exception.js';
import { RateLimitPolicy } from './rate-limit.policy.js';

/** @nestjs/throttler's metadata key prefix of `@SkipThrottle()`. */
const THROTTLER_SKIP = 'THROTTLER:SKIP';

type HttpRequest = IncomingMessage & { raw?: IncomingMessage; ip?: string };
type HttpResponse = ServerResponse & { raw?: ServerResponse };

/** A window that applies to a route: its name and length, resolved from the module's throttlers. */
interface RouteWindow {
  name: string;
  ttl: number;
  blockDuration: number;
}

interface WindowState {
  limit: number;
  remaining: number;
  /** Unix time in seconds at which the window resets (or the block ends). */
  reset: number;
  /** Seconds until a blocked caller may try again; 0 when not blocked. */
  retryAfter: number;
}

@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  private readonly routes = new WeakMap<object, RouteWindow[]>();

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly auth: AuthService,
    private readonly policy: RateLimitPolicy,
  ) {
    super(options, storage, reflector);
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const windows = this.windowsOf(context);
    if (windows.length === 0) {
      return true;
    }
    const http = context.switchToHttp();
    // Express hands Node's objects; Fastify wraps them and keeps them as `raw`.
    const wrapped = http.getRequest<HttpRequest>();
    const req = wrapped.raw ?? wrapped;
    const res = http.getResponse<HttpResponse>().raw ?? http.getResponse<HttpResponse>();
    const principal = await this.auth.principalOf(req);
    const tracker =
      principal.status === 'accepted' || principal.status === 'admin'
        ? `token:${principal.tokenHash}`
        : `ip:${wrapped.ip ?? req.socket.remoteAddress}`;
    const now = Math.floor(Date.now() / 1000);
    let reported: WindowState | undefined;
    let blocking: WindowState | undefined;
    for (const window of windows) {
      const limit = this.policy.limitOf(principal.tier, window.name);
      if (limit === undefined) {
        continue; // unlimited for this tier and window
      }
      const record = await this.storageService.increment(
        `${window.name}:${tracker}`,
        window.ttl,
        limit,
        window.blockDuration,
        window.name,
      );
      const state: WindowState = record.isBlocked
        ? {
            limit,
            remaining: 0,
            reset: now + record.timeToBlockExpire,
            retryAfter: Math.max(1, record.timeToBlockExpire),
          }
        : { limit, remaining: Math.max(0, limit - record.totalHits), reset: now + record.timeToExpire, retryAfter: 0 };
      // Windows come shortest first, so on a tie the per-minute window is the one reported.
      if (reported === undefined || state.remaining < reported.remaining) {
        reported = state;
      }
      if (state.retryAfter > (blocking?.retryAfter ?? 0)) {
        blocking = state;
      }
    }
    // A blocked caller is told about the exhausted window that blocks longest, so that
    // `X-RateLimit-Reset` and `Retry-After` agree.
    const shown = blocking ?? reported;
    if (shown !== undefined) {
      res.setHeader('X-RateLimit-Limit', String(shown.limit));
      res.setHeader('X-RateLimit-Remaining', String(shown.remaining));
      res.setHeader('X-RateLimit-Reset', String(shown.reset));
    }
    if (blocking !== undefined) {
      throw new RateLimitExceededException(blocking.retryAfter);
    }
    return true;
  }

  /** The windows that count a route's requests (those its `@SkipThrottle()` does not skip), read once. */
  private windowsOf(context: ExecutionContext): RouteWindow[] {
    const handler = context.getHandler();
    let windows = this.routes.get(handler);
    if (windows === undefined) {
      const targets = [handler, context.getClass()];
      windows = this.throttlers
        .filter(({ name }) => !this.reflector.getAllAndOverride<boolean>(`${THROTTLER_SKIP}${name}`, targets))
        .map(({ name = 'default', ttl, blockDuration }) => ({
          name,
          ttl: Number(ttl),
          blockDuration: Number(blockDuration ?? ttl),
        }));
      this.routes.set(handler, windows);
    }
    return windows;
  }
}
