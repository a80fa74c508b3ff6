/**
 * The request pipeline every route shares, registered as APP_* providers so that a test
 * booting AppModule runs exactly what production runs: rate limit, then auth (guards run
 * in this order), then the JSON body, then validation; one filter writes every error.
 */
import { type MiddlewareConsumer, Module, type NestModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE, DiscoveryModule } from '@nestjs/core';

import { AuthGuard } from '../auth/auth.guard.js';
import { AuthModule } from '../auth/auth.module.js';
import { AllExceptionsFilter } from './errors/all-exceptions.filter.js';
import { CorsMiddleware } from './http/cors.middleware.js';
import { ETagInterceptor } from './http/etag.js';
import { JsonBodyInterceptor } from './http/json-body.interceptor.js';
import { OptionsMiddleware } from './http/options.middleware.js';
import { RequestIdMiddleware } from './http/request-id.js';
import { RouteTable } from './http/route-table.js';
import { SecurityHeadersMiddleware } from './http/security-headers.middleware.js';
import { RateLimitGuard } from './rate-limit/rate-limit.guard.js';
import { RateLimitModule } from './rate-limit/rate-limit.module.js';
import { ValidationPipe } from './validation/validation.pipe.js';

@Module({
  imports: [DiscoveryModule, AuthModule, RateLimitModule],
  providers: [
    RouteTable,
    { provide: APP_GUARD, useClass: RateLimitGuard },
    { provide: APP_GUARD, useExisting: AuthGuard },
    { provide: APP_INTERCEPTOR, useClass: JsonBodyInterceptor },
    { provide: APP_INTERCEPTOR, useClass: ETagInterceptor },
    { provide: APP_PIPE, useClass: ValidationPipe },
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
  ],
  exports: [RouteTable],
})
export class CommonModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RequestIdMiddleware, SecurityHeadersMiddleware, CorsMiddleware, OptionsMiddleware).forRoutes('*');
  }
}
