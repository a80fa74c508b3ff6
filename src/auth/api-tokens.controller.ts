import { Body, Controller, Delete, Get, Post } from '@nestjs/common';

import { Created } from '../common/http/created.decorator.js';
import { ResourceId } from '../common/http/resource-id.decorator.js';
import type { ApiToken } from './api-token.entity.js';
import { type IssuedToken, ApiTokensService } from './api-tokens.service.js';
import { RequireAuth } from './auth.guard.js';
import { CreateTokenDto } from './dto/create-token.dto.js';

/** Token management, for holders of the admin key only (reads included). */
@Controller('auth/tokens')
@RequireAuth('admin')
export class ApiTokensController {
  constructor(private readonly tokens: ApiTokensService) {}

  @Post()
  @Created('/auth/tokens')
  issue(@Body() dto: CreateTokenDto): Promise<IssuedToken> {
    return this.tokens.issue(dto);
  }

  @Get()
  list(): Promise<ApiToken[]> {
    return this.tokens.list();
  }

  @Delete(':id')
  revoke(@ResourceId('token') id: string): Promise<ApiToken> {
    return this.tokens.revoke(id);
  }
}
