import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';

import { type AppConfig, appConfig } from '../../config/app.config.js';
import { AuthModule } from '../../auth/auth.module.js';
import { RateLimitPolicy, WINDOWS } from './rate-limit.policy.js';
import { RateLimiter } from './rate-limiter.js';
import { RateLimitStorage } from './rate-limit.storage.js';

/**
 * Per-minute and per-day windows, counted in Redis when `REDIS_URL` is set. The `limit`
 * here is a placeholder: RateLimiter asks RateLimitPolicy for each caller's tier limit.
 */
@Module({
  imports: [
    AuthModule,
    ThrottlerModule.forRootAsync({
      inject: [appConfig.KEY],
      useFactory: (config: AppConfig) => ({
        throttlers: Object.entries(WINDOWS).map(([name, ttl]) => ({ name, ttl, limit: 1 })),
        setHeaders: false,
        storage: new RateLimitStorage(config.redisUrl, config.redisKeyPrefix),
      }),
    }),
  ],
  providers: [RateLimitPolicy, RateLimiter],
  exports: [RateLimitPolicy, RateLimiter, ThrottlerModule],
})
export class RateLimitModule {}
