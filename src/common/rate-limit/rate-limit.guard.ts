/**
 * @nestjs/throttler's guard with the contract's reporting: one set of `X-RateLimit-*`
 * headers for the window closest to running out (the per-minute one on a tie), counters
 * keyed by token hash or client address across all routes, and the contract's 429.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerRequest,
  type ThrottlerStorage,
} from '@nestjs/throttler';

import { AuthService } from '../../auth/auth.service.js';
import { RateLimitExceededException } from '../errors/api.exception.js';
import { RateLimitPolicy } from './rate-limit.policy.js';

type HttpRequest = IncomingMessage & { raw?: IncomingMessage; ip?: string };
type HttpResponse = ServerResponse & { raw?: ServerResponse };

interface WindowState {
  limit: number;
  remaining: number;
  /** Unix time in seconds at which the window resets. */
  reset: number;
}

@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  private readonly windows = new WeakMap<IncomingMessage, WindowState[]>();

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
    const { req, res } = this.getRequestResponse(context) as unknown as { req: HttpRequest; res: HttpResponse };
    try {
      return await super.canActivate(context);
    } finally {
      // Express hands Node's objects; Fastify wraps them and keeps them as `raw`.
      this.report(req.raw ?? req, res.raw ?? res);
    }
  }

  protected override async handleRequest({
    context,
    ttl,
    throttler,
    blockDuration,
  }: ThrottlerRequest): Promise<boolean> {
    const { req: wrapped } = this.getRequestResponse(context) as unknown as { req: HttpRequest };
    const req = (wrapped.raw ?? wrapped) as IncomingMessage & { ip?: string };
    const ip = wrapped.ip ?? req.ip ?? req.socket.remoteAddress;
    const principal = await this.auth.principalOf(req);
    const limit = this.policy.limitOf(principal.tier, throttler.name ?? 'default');
    if (limit === undefined) {
      return true; // unlimited for this tier and window
    }
    const tracker =
      principal.status === 'accepted' || principal.status === 'admin' ? `token:${principal.tokenHash}` : `ip:${ip}`;
    const key = `${throttler.name}:${tracker}`;
    const record = await this.storageService.increment(key, ttl, limit, blockDuration, throttler.name ?? 'default');
    const now = Math.floor(Date.now() / 1000);
    const state = { limit, remaining: Math.max(0, limit - record.totalHits), reset: now + record.timeToExpire };
    if (record.isBlocked) {
      state.remaining = 0;
      state.reset = Math.max(state.reset, now + record.timeToBlockExpire);
    }
    const windows = this.windows.get(req) ?? [];
    windows.push(state);
    this.windows.set(req, windows);
    if (record.isBlocked) {
      throw new RateLimitExceededException(Math.max(1, record.timeToBlockExpire));
    }
    return true;
  }

  private report(req: IncomingMessage, res: ServerResponse): void {
    const windows = this.windows.get(req);
    if (!windows?.length) {
      return;
    }
    // Windows are evaluated shortest first, so on a tie the per-minute window wins.
    const tightest = windows.reduce((best, window) => (window.remaining < best.remaining ? window : best));
    res.setHeader('X-RateLimit-Limit', String(tightest.limit));
    res.setHeader('X-RateLimit-Remaining', String(tightest.remaining));
    res.setHeader('X-RateLimit-Reset', String(tightest.reset));
  }
}
