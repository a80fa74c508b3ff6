/**
 * In-process rate-limit counters: one fixed window per key, O(1) per request, with the same
 * semantics as the Redis storage's script (count, block past the limit for the block
 * duration, start over when the block ends). @nestjs/throttler's own in-memory storage keeps
 * one timestamp per request and filters them on every hit, which grows with the per-day
 * window until each request costs milliseconds; these counters do not.
 *
 * They keep at most MAX_WINDOWS windows: callers are made up freely (any token is a caller in
 * development, any address of a block of IPv6 addresses in production), and one window more for
 * every new one would let a client fill memory. Past the bound the window counted longest ago
 * is forgotten first; its caller starts a new window, which lets it through no sooner than a
 * new caller would be let through anyway.
 */
import type { ThrottlerStorage } from '@nestjs/throttler';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

interface Window {
  hits: number;
  expiresAt: number;
  blockedUntil: number;
}

const SWEEP_INTERVAL_MS = 60_000;
/** About 55 MB of windows (230 bytes each, measured): a minute and a day for each of 125,000 callers. */
export const MAX_WINDOWS = 250_000;
const seconds = (ms: number) => Math.ceil(ms / 1000);

export class FixedWindowCounters {
  private readonly windows = new Map<string, Window>();
  private readonly sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS).unref();

  constructor(private readonly maxWindows = MAX_WINDOWS) {}

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): ThrottlerStorageRecord {
    const id = `${key}:${throttlerName}`;
    const now = Date.now();
    let window = this.windows.get(id);
    if (window === undefined || (window.expiresAt <= now && window.blockedUntil <= now)) {
      if (window === undefined && this.windows.size >= this.maxWindows) {
        // Maps keep their insertion order: the first key is the window started longest ago.
        this.windows.delete(this.windows.keys().next().value!);
      }
      window = { hits: 0, expiresAt: now + ttl, blockedUntil: 0 };
      this.windows.set(id, window);
    } else if (window.expiresAt <= now) {
      window.expiresAt = now + ttl;
    }
    window.hits++;
    if (window.blockedUntil === 0 && window.hits > limit) {
      window.blockedUntil = now + blockDuration;
    }
    if (window.blockedUntil !== 0 && window.blockedUntil <= now) {
      // The block is over: this request is the first of a new window.
      window.hits = 1;
      window.expiresAt = now + ttl;
      window.blockedUntil = 0;
    }
    const isBlocked = window.blockedUntil > now;
    return {
      totalHits: window.hits,
      timeToExpire: seconds(window.expiresAt - now),
      isBlocked,
      timeToBlockExpire: isBlocked ? seconds(window.blockedUntil - now) : 0,
    };
  }

  close(): void {
    clearInterval(this.sweeper);
    this.windows.clear();
  }

  private sweep(): void {
    const now = Date.now();
    for (const [id, window] of this.windows) {
      if (window.expiresAt <= now && window.blockedUntil <= now) {
        this.windows.delete(id);
      }
    }
  }
}
