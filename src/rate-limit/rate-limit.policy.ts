/** How many requests each tier may make in each window. */
import { Inject, Injectable } from '@nestjs/common';

import type { Tier } from '../auth/api-token.entity.js';
import { type AppConfig, appConfig } from '../config/app.config.js';

export const WINDOWS = { minute: 60_000, day: 86_400_000 } as const;
export type WindowName = keyof typeof WINDOWS;

@Injectable()
export class RateLimitPolicy {
  constructor(@Inject(appConfig.KEY) private readonly config: AppConfig) {}

  /** The limit of a tier in a window; undefined means unlimited. */
  limitOf(tier: Tier | 'anonymous', window: string): number | undefined {
    const limits = tier === 'anonymous' ? this.config.rateLimit : this.config.tiers[tier];
    return window === 'minute' ? limits.perMinute : limits.perDay;
  }
}
