import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { ApiToken } from './api-token.entity.js';
import { AuthGuard } from './auth.guard.js';
import { ApiTokensController } from './api-tokens.controller.js';
import { ApiTokensService } from './api-tokens.service.js';
import { AuthService } from './auth.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([ApiToken])],
  controllers: [ApiTokensController],
  providers: [AuthService, AuthGuard, ApiTokensService],
  exports: [AuthService, AuthGuard, ApiTokensService],
})
export class AuthModule {}
