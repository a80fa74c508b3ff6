/**
 * Probes for an orchestrator: `live` answers while the process runs; `ready` checks the
 * database (down: 503) and, when configured, Redis (down: `degraded`, still 200, because
 * the service keeps serving with in-memory rate-limit counters). Neither needs a token;
 * both are counted against the caller's rate limit, with its headers, but never refused
 * (`@SkipThrottle`: a probe must see the service as it is).
 */
import { Controller, Get, UseFilters } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { InjectThrottlerStorage, SkipThrottle } from '@nestjs/throttler';

import { RequireAuth } from '../auth/auth.guard.js';
import type { RateLimitStorage } from '../common/rate-limit/rate-limit.storage.js';
import { HealthCheckFilter } from './health-check.filter.js';

const CHECK_TIMEOUT_MS = 1_500;

@ApiTags('health')
@Controller('health')
@RequireAuth('none')
@SkipThrottle({ minute: true, day: true })
@UseFilters(HealthCheckFilter)
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly database: TypeOrmHealthIndicator,
    private readonly indicators: HealthIndicatorService,
    @InjectThrottlerStorage() private readonly rateLimits: RateLimitStorage,
  ) {}

  @Get('live')
  @HealthCheck()
  @ApiOperation({ summary: 'Liveness: 200 while the process runs' })
  live() {
    return this.health.check([]);
  }

  @Get('ready')
  @HealthCheck()
  @ApiOperation({ summary: 'Readiness: the database (503 when down) and Redis when configured (degraded when down)' })
  ready() {
    return this.health.check([
      () => this.database.pingCheck('database', { timeout: CHECK_TIMEOUT_MS }),
      ...(this.rateLimits.usesRedis ? [() => this.redis()] : []),
    ]);
  }

  private async redis() {
    const session = this.indicators.check('redis');
    return (await this.rateLimits.ping())
      ? session.up()
      : session.degraded({ message: 'unreachable; rate limits are counted per instance until it is back' });
  }
}
