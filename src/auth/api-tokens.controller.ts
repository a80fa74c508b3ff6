import { Body, Controller, Delete, Get, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';

import { Created } from '../common/http/created.decorator.js';
import { ResourceId } from '../common/http/resource-id.decorator.js';
import { ApiTag, TagOrder } from '../common/openapi/api-tag.decorator.js';
import type { ApiToken } from './api-token.entity.js';
import { type IssuedToken, ApiTokensService } from './api-tokens.service.js';
import { RequireAuth } from './auth.guard.js';
import { CreateTokenDto } from './dto/create-token.dto.js';
import { IssuedTokenResponse, TokenResponse } from './dto/token.response.js';

/** Token management, for holders of the admin key only (reads included). */
@ApiTag('tokens', 'API tokens for writers, issued and revoked with the admin key.', TagOrder.administration)
@Controller('auth/tokens')
@RequireAuth('admin')
export class ApiTokensController {
  constructor(private readonly tokens: ApiTokensService) {}

  @Post()
  @Created('/auth/tokens')
  @ApiOperation({
    operationId: 'issueToken',
    summary: 'Issue a token',
    description: 'Admin key only. The token itself is in this answer only; the service keeps its hash.',
  })
  @ApiCreatedResponse({ type: IssuedTokenResponse })
  issue(@Body() dto: CreateTokenDto): Promise<IssuedToken> {
    return this.tokens.issue(dto);
  }

  @Get()
  @ApiOperation({
    operationId: 'listTokens',
    summary: 'List issued tokens',
    description: 'Admin key only. The metadata of every issued token, never the tokens themselves.',
  })
  @ApiOkResponse({ type: [TokenResponse] })
  list(): Promise<ApiToken[]> {
    return this.tokens.list();
  }

  @Delete(':id')
  @ApiOperation({
    operationId: 'revokeToken',
    summary: 'Revoke a token',
    description: 'Admin key only. Later writes with the token get 403; answers with its metadata.',
  })
  @ApiOkResponse({ type: TokenResponse })
  revoke(@ResourceId('token') id: string): Promise<ApiToken> {
    return this.tokens.revoke(id);
  }
}
