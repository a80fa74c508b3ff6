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

interface WindowState {
  limit: number;
  remaining: number;
  /** Unix time in seconds at which the window resets (or the block ends). */
  reset: number;
}

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
      const counts = this.windowsOf(principal, view.address()).map((window) => ({
        ...window,
        record: local.incrementNow(window.key, window.ttl, window.limit, window.ttl, window.name)!,
      }));
      this.counts.set(req, report(counts, res));
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
    const counts: Counted[] = [];
    for (const window of this.windowsOf(principal, address)) {
      const record = await this.storage.increment(window.key, window.ttl, window.limit, window.ttl, window.name);
      counts.push({ ...window, record });
    }
    return report(counts, res);
  }

  /** Each window the caller is counted in: its counter's key, length and the caller's limit in it. */
  private windowsOf(principal: Principal, address: string | undefined): CountedWindow[] {
    const tracker = trackerOf(principal, address);
    return WINDOW_LIST.map(([name, ttl]) => ({
      name,
      ttl,
      key: `${name}:${tracker}`,
      limit: this.policy.limitOf(principal.tier, name) ?? UNLIMITED,
    }));
  }
}

interface CountedWindow {
  name: WindowName;
  ttl: number;
  key: string;
  limit: number;
}

type Counted = CountedWindow & { record: ThrottlerStorageRecord };

/** Sets the headers of the counted windows on `res` and returns the exhausted ones. */
function report(counts: Counted[], res: ServerResponse | undefined): readonly Block[] {
  const now = Math.floor(Date.now() / 1000);
  let reported: WindowState | undefined;
  let blocking: WindowState | undefined;
  let blocks = NO_BLOCKS;
  let longest = 0;
  for (const { name, limit, record } of counts) {
    if (record.isBlocked) {
      const retryAfter = Math.max(1, record.timeToBlockExpire);
      blocks = [...blocks, { window: name, retryAfter }];
      if (retryAfter > longest) {
        longest = retryAfter;
        blocking = { limit, remaining: 0, reset: now + retryAfter };
      }
      continue;
    }
    const state = { limit, remaining: Math.max(0, limit - record.totalHits), reset: now + record.timeToExpire };
    // Windows come shortest first, so on a tie the per-minute window is the one reported.
    if (reported === undefined || state.remaining < reported.remaining) {
      reported = state;
    }
  }
  const shown = blocking ?? reported;
  if (res !== undefined && shown !== undefined) {
    res.setHeader('X-RateLimit-Limit', String(shown.limit));
    res.setHeader('X-RateLimit-Remaining', String(shown.remaining));
    res.setHeader('X-RateLimit-Reset', String(shown.reset));
  }
  return blocks;
}
