/**
 * Where the rate-limit counters live. Without `REDIS_URL` they are in this process's memory;
 * with it they are in Redis (through @nest-lab/throttler-storage-redis), shared by every
 * instance. When Redis cannot be reached the service keeps serving with this process's
 * in-memory counters, logs the outage once, and goes back to Redis when it answers again.
 */
import { once } from 'node:events';

import { Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Redis } from 'ioredis';

import { FixedWindowCounters } from './fixed-window-counters.js';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** A Redis command that has not answered within this many milliseconds counts as an outage. */
const REDIS_COMMAND_TIMEOUT_MS = 500;
/** How long start-up waits for the first connection before counting in memory. */
const REDIS_STARTUP_WAIT_MS = 5_000;
/** Reconnection attempts back off up to this many milliseconds apart. */
const REDIS_MAX_RECONNECT_DELAY_MS = 2_000;

export class RateLimitStorage implements ThrottlerStorage, OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly local = new FixedWindowCounters();
  private redis: Redis | undefined;
  private shared: ThrottlerStorageRedisService | undefined;
  private usingLocal = false;

  constructor(
    private readonly redisUrl: string | undefined,
    private readonly keyPrefix: string,
  ) {}

  /**
   * Connects to Redis (its client is loaded only then) and lets the first requests be
   * counted there: waits (briefly) for the connection.
   */
  async onModuleInit(): Promise<void> {
    if (this.redisUrl === undefined) {
      return;
    }
    const [{ Redis }, { ThrottlerStorageRedisService }] = await Promise.all([
      import('ioredis'),
      import('@nest-lab/throttler-storage-redis'),
    ]);
    this.redis = new Redis(this.redisUrl, {
      keyPrefix: this.keyPrefix,
      // Fail fast while disconnected instead of queueing requests behind a dead link.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      retryStrategy: (attempt) => Math.min(attempt * 100, REDIS_MAX_RECONNECT_DELAY_MS),
    });
    // ioredis reports connection errors as events; the outage itself is logged by increment().
    this.redis.on('error', () => undefined);
    this.shared = new ThrottlerStorageRedisService(this.redis);
    if (this.redis.status === 'ready') {
      return;
    }
    const ready = once(this.redis, 'ready', { signal: AbortSignal.timeout(REDIS_STARTUP_WAIT_MS) });
    await ready.catch(() => {
      this.usingLocal = true;
      this.logger.warn('Redis is not reachable yet; counting rate limits in this process until it is.');
    });
  }

  get usesRedis(): boolean {
    return this.redisUrl !== undefined;
  }

  /** True when Redis answers a PING within the command timeout. */
  async ping(): Promise<boolean> {
    try {
      return (await this.redis?.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  /** `shared` while Redis is configured and answering, `local` otherwise. */
  get mode(): 'shared' | 'local' {
    return this.shared === undefined || this.usingLocal ? 'local' : 'shared';
  }

  /** The same count as `increment`, at once, when the counters are in this process (no Redis); otherwise undefined. */
  incrementNow(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): ThrottlerStorageRecord | undefined {
    return this.shared === undefined ? this.local.increment(key, ttl, limit, blockDuration, throttlerName) : undefined;
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    if (this.shared !== undefined) {
      try {
        const record = await this.shared.increment(key, ttl, limit, blockDuration, throttlerName);
        if (this.usingLocal) {
          this.usingLocal = false;
          this.logger.log('Redis is reachable again; rate-limit counters are shared again.');
        }
        return record;
      } catch (error) {
        if (!this.usingLocal) {
          this.usingLocal = true;
          this.logger.warn(
            `Redis is unreachable (${(error as Error).message}); counting rate limits in this process until it is back.`,
          );
        }
      }
    }
    return this.local.increment(key, ttl, limit, blockDuration, throttlerName);
  }

  onApplicationShutdown(): void {
    this.local.close();
    this.redis?.disconnect(false);
  }
}
