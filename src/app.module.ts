/**
 * The application: its modules and the request pipeline every route shares, registered here
 * as APP_* providers so that a test booting AppModule runs exactly what production runs.
 * Before the adapter, on every request: the request line, then request id, security headers and
 * CORS, the rate-limit count and its headers, and the answers given before routing (OPTIONS,
 * a missing Host, an unmet Expect), and the reads of one resource by id answered directly
 * (src/direct-reads.ts). Then, on routed requests: the rate limit, authentication
 * and the JSON body (guards run in this order), validation (the pipe), and one filter for
 * every error.
 */
import { Inject, type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, DiscoveryModule, HttpAdapterHost } from '@nestjs/core';

import { AUTH_REQUIREMENT, AuthGuard } from './auth/auth.guard.js';
import { AuthModule } from './auth/auth.module.js';
import { CommonModule } from './common/common.module.js';
import { AllExceptionsFilter } from './common/http/all-exceptions.filter.js';
import { HttpFront } from './common/http/http-front.js';
import { JsonBodyGuard } from './common/http/json-body.guard.js';
import { onEveryRequest } from './common/http/request-hooks.js';
import { ResourcesModule } from './common/resources/resources.module.js';
import { RateLimitGuard } from './rate-limit/rate-limit.guard.js';
import { RateLimitModule } from './rate-limit/rate-limit.module.js';
import { RateLimiter } from './rate-limit/rate-limiter.js';
import { ValidationPipe } from './common/validation/validation.pipe.js';
import { type AppConfig, appConfig } from './config/app.config.js';
import { AppConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { DirectReads } from './direct-reads.js';
import { ReadAnswerCache } from './common/http/read-answer-cache.js';
import { HealthModule } from './health/health.module.js';
import { LoggingModule } from './logging/logging.module.js';
import { RequestLog } from './logging/request-log.js';
import { EventsModule } from './events/events.module.js';
import { InterestsModule } from './interests/interests.module.js';
import { PetsModule } from './pets/pets.module.js';
import { SheltersModule } from './shelters/shelters.module.js';

@Module({
  imports: [
    DiscoveryModule,
    AppConfigModule,
    LoggingModule,
    DatabaseModule,
    CommonModule,
    ResourcesModule,
    RateLimitModule,
    AuthModule,
    HealthModule,
    SheltersModule,
    PetsModule,
    InterestsModule,
    EventsModule,
  ],
  providers: [
    RateLimiter,
    DirectReads,
    ReadAnswerCache,
    { provide: APP_GUARD, useClass: RateLimitGuard },
    { provide: APP_GUARD, useExisting: AuthGuard },
    { provide: APP_GUARD, useClass: JsonBodyGuard },
    { provide: APP_PIPE, useClass: ValidationPipe },
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
  ],
})
export class AppModule implements NestModule {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly requestLog: RequestLog,
    private readonly front: HttpFront,
    private readonly rateLimiter: RateLimiter,
    private readonly directReads: DirectReads,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
  ) {}

  /**
   * Runs before the routes are registered: the hooks every request passes go straight onto
   * the HTTP server, ahead of the adapter, so that unknown endpoints get them too.
   */
  configure(_consumer: MiddlewareConsumer): void {
    const adapter = this.adapterHost.httpAdapter;
    const directReads = this.directReads.hookFor({
      guards: [RateLimitGuard, AuthGuard, JsonBodyGuard],
      pipes: [ValidationPipe],
      filters: [AllExceptionsFilter],
      hookModule: AppModule,
      routeRules: [AUTH_REQUIREMENT],
    });
    onEveryRequest(
      adapter,
      this.config,
      this.requestLog.hook,
      this.front.hook,
      this.rateLimiter.hook,
      this.front.answers,
      directReads,
    );
  }
}
