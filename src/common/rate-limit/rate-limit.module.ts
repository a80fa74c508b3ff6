import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';

import { RateLimitPolicy, WINDOWS } from './rate-limit.policy.js';

/**
 * Per-minute and per-day windows. The `limit` here is a placeholder: RateLimitGuard asks
 * RateLimitPolicy for each caller's tier limit.
 */
@Module({
  imports: [
    ThrottlerModule.forRoot({
      throttlers: Object.entries(WINDOWS).map(([name, ttl]) => ({ name, ttl, limit: 1 })),
      setHeaders: false,
    }),
  ],
  providers: [RateLimitPolicy],
  exports: [RateLimitPolicy, ThrottlerModule],
})
export class RateLimitModule {}
