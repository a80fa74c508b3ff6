import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';

import { WINDOWS } from './rate-limit.policy.js';
import { RateLimitPolicy } from './rate-limit.policy.js';

/** Per-minute and per-day windows; the limits themselves come from `RateLimitPolicy`. */
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
