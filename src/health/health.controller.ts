/**
 * Probes for an orchestrator: `live` answers while the process runs; `ready` checks the
 * database (down: 503) and, when configured, Redis (down: `degraded`, still 200, because
 * the service keeps serving with in-memory rate-limit counters). Neither needs a token;
 * both are counted against the caller's rate limit, with its headers, but never refused
 * (`@SkipThrottle`: a probe must see the service as it is).
 */
import { applyDecorators, Controller, Get, UseFilters } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse } from '@nestjs/swagger';
import { HealthCheck, HealthCheckService, HealthIndicatorService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { InjectThrottlerStorage, SkipThrottle } from '@nestjs/throttler';

import { RequireAuth } from '../auth/auth.guard.js';
import { ApiTag, TagOrder } from '../common/openapi/api-tag.decorator.js';
import type { RateLimitStorage } from '../rate-limit/rate-limit.storage.js';
import { HealthCheckFilter } from './health-check.filter.js';
import { healthReport } from './health-report.schema.js';

const CHECK_TIMEOUT_MS = 1_500;

/** `@HealthCheck()`, with the report documented by this module (see health-report.schema.ts). */
const Probe = () =>
  applyDecorators(
    HealthCheck({ noCache: true, swaggerDocumentation: false }),
    ApiOkResponse({ description: 'The checks passed.', schema: healthReport(['ok', 'degraded']) }),
    ApiServiceUnavailableResponse({
      description: 'A check failed, or the service is shutting down.',
      schema: healthReport(['error', 'shutting_down']),
    }),
  );

@ApiTag('health', 'Probes for an orchestrator: liveness and readiness.', TagOrder.probe)
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
  @Probe()
  @ApiOperation({
    operationId: 'getLiveness',
    summary: 'Liveness',
    description: 'Answers 200 while the process runs. No token, no rate limit.',
  })
  live() {
    return this.health.check([]);
  }

  @Get('ready')
  @Probe()
  @ApiOperation({
    operationId: 'getReadiness',
    summary: 'Readiness',
    description:
      'Checks the database (503 when it is down) and, when configured, Redis (`degraded` but still 200 when ' +
      'it is down, as rate limits are then counted per instance). No token, no rate limit.',
  })
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
