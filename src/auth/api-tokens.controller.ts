import { Body, Controller, Delete, Get, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

import { Created } from '../common/http/created.decorator.js';
import { ResourceId } from '../common/http/resource-id.decorator.js';
import type { ApiToken } from './api-token.entity.js';
import { type IssuedToken, ApiTokensService } from './api-tokens.service.js';
import { RequireAuth } from './auth.guard.js';
import { CreateTokenDto } from './dto/create-token.dto.js';
import { IssuedTokenResponse, TokenResponse } from './dto/token.response.js';

/** Token management, for holders of the admin key only (reads included). */
@ApiTags('tokens')
@Controller('auth/tokens')
@RequireAuth('admin')
export class ApiTokensController {
  constructor(private readonly tokens: ApiTokensService) {}

  @Post()
  @Created('/auth/tokens')
  @ApiOperation({ summary: 'Issue a token (admin key); the token is shown in this answer only' })
  @ApiCreatedResponse({ type: IssuedTokenResponse })
  issue(@Body() dto: CreateTokenDto): Promise<IssuedToken> {
    return this.tokens.issue(dto);
  }

  @Get()
  @ApiOperation({ summary: 'List issued tokens, without the tokens themselves (admin key)' })
  @ApiOkResponse({ type: [TokenResponse] })
  list(): Promise<ApiToken[]> {
    return this.tokens.list();
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Revoke a token (admin key); later requests with it get 403' })
  @ApiOkResponse({ type: TokenResponse })
  revoke(@ResourceId('token') id: string): Promise<ApiToken> {
    return this.tokens.revoke(id);
  }
}
