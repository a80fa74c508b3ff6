import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { AuthModule } from '../auth/auth.module.js';
import { IdempotencyKey } from './idempotency-key.entity.js';
import { IdempotencyService } from './idempotency.service.js';
import { IdempotencyInterceptor } from './idempotent.decorator.js';

/** Idempotent creates: import it, then put `@Idempotent()` on a create route. */
@Module({
  imports: [AuthModule, TypeOrmModule.forFeature([IdempotencyKey])],
  providers: [IdempotencyService, IdempotencyInterceptor],
  // The interceptor is made in the module of each controller that uses it, which needs AuthService too.
  exports: [IdempotencyService, IdempotencyInterceptor, AuthModule],
})
export class IdempotencyModule {}
