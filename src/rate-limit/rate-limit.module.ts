import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';

import { type AppConfig, appConfig } from '../config/app.config.js';
import { RateLimitPolicy, WINDOWS } from './rate-limit.policy.js';
import { RateLimitStorage } from './rate-limit.storage.js';

/**
 * Per-minute and per-day windows, counted in Redis when `REDIS_URL` is set. The `limit`
 * here is a placeholder: RateLimiter asks RateLimitPolicy for each caller's tier limit.
 * RateLimiter and RateLimitGuard, which need to know the caller (AuthService), are
 * provided where the pipeline is assembled, in AppModule.
 */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [appConfig.KEY],
      useFactory: (config: AppConfig) => ({
        throttlers: Object.entries(WINDOWS).map(([name, ttl]) => ({ name, ttl, limit: 1 })),
        setHeaders: false,
        storage: new RateLimitStorage(config.redisUrl, config.redisKeyPrefix),
      }),
    }),
  ],
  providers: [RateLimitPolicy],
  exports: [RateLimitPolicy, ThrottlerModule],
})
export class RateLimitModule {}
