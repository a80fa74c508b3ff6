import { Body, Controller, Get, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';

import { RequireAuth } from '../auth/auth.guard.js';
import { Messages } from '../common/errors/messages.js';
import { Created } from '../common/http/created.decorator.js';
import { IfMatch } from '../common/http/etag.js';
import { ResourceId } from '../common/http/resource-id.decorator.js';
import { ApiError } from '../common/openapi/api-error.decorator.js';
import { ApiTag, TagOrder } from '../common/openapi/api-tag.decorator.js';
import { type ListPage, PAGE_HEADERS } from '../common/resources/paging.js';
import { Idempotent, REPLAY_HEADERS } from '../idempotency/idempotent.decorator.js';
import { CreateInterestDto, InterestResponse, UpdateInterestDto } from './dto/create-interest.dto.js';
import { InterestQueryDto } from './dto/interest-query.dto.js';
import type { Interest } from './interest.entity.js';
import { InterestsService } from './interests.service.js';

const LIST_DESCRIPTION =
  'Interests matching every filter given (AND), ordered by id unless `sort` says otherwise; paged as the other lists. ' +
  'They hold personal data: a token is needed, for reads too.';

@ApiTag(
  'interests',
  "Adopters' interest in pets: registered by token holders, read and handled by token holders.",
  TagOrder.module,
)
@RequireAuth('token')
@Controller('interests')
export class InterestsController {
  constructor(private readonly interests: InterestsService) {}

  @Get()
  @ApiOperation({ operationId: 'listInterests', summary: 'List interests', description: LIST_DESCRIPTION })
  @ApiOkResponse({ type: [InterestResponse], headers: PAGE_HEADERS })
  @ApiError(404, Messages.notFound('pet', '42'))
  findAll(@Query() query: InterestQueryDto): Promise<ListPage> {
    return this.interests.findAll(query);
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getInterest',
    summary: 'Get an interest',
    description: 'The interest with its `ETag`.',
  })
  @ApiOkResponse({ type: InterestResponse })
  findOne(@ResourceId('interest') id: string): Promise<Interest> {
    return this.interests.findOrFail(id);
  }

  @Patch(':id')
  @ApiOperation({
    operationId: 'updateInterest',
    summary: "Change an interest's status",
    description:
      'Only `status` may change. With `If-Match`, only while the interest still has that ETag (412 otherwise).',
  })
  @ApiOkResponse({ type: InterestResponse })
  update(
    @ResourceId('interest') id: string,
    @Body() dto: UpdateInterestDto,
    @IfMatch() ifMatch?: string,
  ): Promise<Interest> {
    return this.interests.update(id, dto, ifMatch);
  }
}

@ApiTag(
  'interests',
  "Adopters' interest in pets: registered by token holders, read and handled by token holders.",
  TagOrder.module,
)
@RequireAuth('token')
@Controller('pets')
export class PetInterestsController {
  constructor(private readonly interests: InterestsService) {}

  @Post(':id/interest')
  @Created('/interests')
  @Idempotent()
  @ApiOperation({
    operationId: 'createInterest',
    summary: 'Register interest in a pet',
    description:
      '`name` and `email` are required, `phone` and `message` optional. Answers 201 with the interest (status `new`) ' +
      'and its `Location`. An adopted pet, or an open interest (`new` or `contacted`) from the same email, is 409.',
  })
  @ApiCreatedResponse({ type: InterestResponse, headers: REPLAY_HEADERS })
  @ApiError(409, Messages.petAdopted('7'))
  @ApiError(409, Messages.openInterestExists('7', 12))
  create(@ResourceId('pet') id: string, @Body() dto: CreateInterestDto): Promise<Interest> {
    return this.interests.create(id, dto);
  }

  @Get(':id/interests')
  @ApiOperation({ operationId: 'listPetInterests', summary: "A pet's interests", description: LIST_DESCRIPTION })
  @ApiOkResponse({ type: [InterestResponse], headers: PAGE_HEADERS })
  findAll(@ResourceId('pet') id: string, @Query() query: InterestQueryDto): Promise<ListPage> {
    return this.interests.findAll(query, id);
  }
}
