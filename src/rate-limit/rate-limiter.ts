/**
 * Counts every request against its caller, whatever answers it (unknown endpoints, OPTIONS,
 * health probes and the docs included), and sets the `X-RateLimit-*` headers: a request hook,
 * run before routing. Counters are keyed by token hash or client address across all routes,
 * with each caller's tier limits; the headers report the window closest to running out (the
 * per-minute one on a tie), or, once a window is exhausted, the one that blocks longest, so
 * that `X-RateLimit-Reset` and `Retry-After` agree. Whether an exhausted window refuses the
 * request (429) is RateLimitGuard's call, made only for routed requests: an unknown endpoint
 * stays a 404.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';

import { AuthService } from '../auth/auth.service.js';
import type { Principal } from '../auth/principal.js';
import type { RequestHook } from '../common/http/request-hooks.js';
import { RateLimitPolicy, WINDOWS, type WindowName } from './rate-limit.policy.js';
import { RateLimitStorage } from './rate-limit.storage.js';

/** An exhausted window and the seconds until it lets requests through again. */
export interface Block {
  window: WindowName;
  retryAfter: number;
}

const NO_BLOCKS: readonly Block[] = Object.freeze([]);

/**
 * The limit of a window a caller has no limit in (the admin key, enterprise tokens by
 * default): counted like any other, never reached, so that its answers carry the headers too.
 */
export const UNLIMITED = Number.MAX_SAFE_INTEGER;

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** Whose counter a request counts on: its token's, or (without an accepted token) its address's. */
function trackerOf(principal: Principal, address: string | undefined): string {
  return principal.status === 'accepted' || principal.status === 'admin'
    ? `token:${principal.tokenHash}`
    : `ip:${address}`;
}
const WINDOW_LIST = Object.entries(WINDOWS) as [WindowName, number][];

@Injectable()
export class RateLimiter {
  /** Each request's count, made once by the hook and read by the guard. */
  private readonly counts = new WeakMap<IncomingMessage, readonly Block[] | Promise<readonly Block[]>>();

  /** The counters, when they are in this process and can be counted at once (no Redis). */
  private readonly inProcess: RateLimitStorage | undefined;

  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    private readonly auth: AuthService,
    private readonly policy: RateLimitPolicy,
  ) {
    this.inProcess = storage instanceof RateLimitStorage && !storage.usesRedis ? storage : undefined;
  }

  /** Counts the request and sets its headers before it goes on; never answers it. */
  readonly hook: RequestHook = (req, res, view) => {
    // Without a token to look up and with the counters in this process, the count is made at once.
    const principal = this.auth.principalNow(req);
    const local = this.inProcess;
    if (principal !== undefined && local !== undefined) {
      const tracker = trackerOf(principal, view.address());
      const tally = new Tally();
      for (const [name, ttl] of WINDOW_LIST) {
        const limit = this.limitOf(principal, name);
        tally.add(name, limit, local.incrementNow(`${name}:${tracker}`, ttl, limit, ttl, name)!);
      }
      this.counts.set(req, tally.report(res));
      return false;
    }
    const counted = this.count(req, res, view.address());
    this.counts.set(req, counted);
    // A count that failed (the token could not be looked up) is the guard's to report.
    return counted.then(
      () => false,
      () => false,
    );
  };

  /** The windows this request found exhausted (none, mostly). */
  blocksOf(req: IncomingMessage & { ip?: string }): readonly Block[] | Promise<readonly Block[]> {
    return this.counts.get(req) ?? this.count(req, undefined, req.ip ?? req.socket.remoteAddress);
  }

  private async count(
    req: IncomingMessage,
    res: ServerResponse | undefined,
    address: string | undefined,
  ): Promise<readonly Block[]> {
    const principal = await this.auth.principalOf(req);
    const tracker = trackerOf(principal, address);
    const tally = new Tally();
    for (const [name, ttl] of WINDOW_LIST) {
      const limit = this.limitOf(principal, name);
      tally.add(name, limit, await this.storage.increment(`${name}:${tracker}`, ttl, limit, ttl, name));
    }
    return tally.report(res);
  }

  /** The caller's limit in a window. */
  private limitOf(principal: Principal, window: WindowName): number {
    return this.policy.limitOf(principal.tier, window) ?? UNLIMITED;
  }
}

/**
 * A request's count, window by window (shortest first): the window its headers report (the
 * one closest to running out, the per-minute one on a tie; once a window is exhausted, the
 * one that blocks longest) and the exhausted windows.
 */
class Tally {
  private readonly now = Math.floor(Date.now() / 1000);
  private blocks: readonly Block[] = NO_BLOCKS;
  private longestBlock = 0;
  /** The reported window: its limit, what is left of it (infinite until a window is counted), and the Unix time in seconds at which it resets (or the block ends). */
  private limit = 0;
  private remaining = Number.POSITIVE_INFINITY;
  private reset = 0;

  add(window: WindowName, limit: number, record: ThrottlerStorageRecord): void {
    if (record.isBlocked) {
      const retryAfter = Math.max(1, record.timeToBlockExpire);
      this.blocks = [...this.blocks, { window, retryAfter }];
      if (retryAfter > this.longestBlock) {
        this.longestBlock = retryAfter;
        this.show(limit, 0, this.now + retryAfter);
      }
    } else if (this.longestBlock === 0) {
      const remaining = Math.max(0, limit - record.totalHits);
      if (remaining < this.remaining) {
        this.show(limit, remaining, this.now + record.timeToExpire);
      }
    }
  }

  /** Sets the headers on `res` and returns the exhausted windows. */
  report(res: ServerResponse | undefined): readonly Block[] {
    if (res !== undefined && this.remaining !== Number.POSITIVE_INFINITY) {
      res.setHeader('X-RateLimit-Limit', String(this.limit));
      res.setHeader('X-RateLimit-Remaining', String(this.remaining));
      res.setHeader('X-RateLimit-Reset', String(this.reset));
    }
    return this.blocks;
  }

  private show(limit: number, remaining: number, reset: number): void {
    this.limit = limit;
    this.remaining = remaining;
    this.reset = reset;
  }
}
