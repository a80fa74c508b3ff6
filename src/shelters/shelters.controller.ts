import { Body, Controller, Delete, Get, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

import { Created } from '../common/http/created.decorator.js';
import { IfMatch } from '../common/http/etag.js';
import { ResourceId } from '../common/http/resource-id.decorator.js';
import { type ListPage, PAGE_HEADERS } from '../common/resources/paging.js';
import { Idempotent, REPLAY_HEADERS } from '../idempotency/idempotent.decorator.js';
import { ApiError } from '../common/openapi/api-error.decorator.js';
import { Messages } from '../common/errors/messages.js';
import { CreateShelterDto } from './dto/create-shelter.dto.js';
import { ShelterResponse } from './dto/shelter.response.js';
import { ShelterQueryDto } from './dto/shelter-query.dto.js';
import { UpdateShelterDto } from './dto/update-shelter.dto.js';
import type { Shelter } from './shelter.entity.js';
import { SheltersService } from './shelters.service.js';

@ApiTags('shelters')
@Controller()
export class SheltersController {
  constructor(private readonly shelters: SheltersService) {}

  @Get('shelters')
  @ApiOperation({ summary: 'List shelters, ordered by id' })
  @ApiOkResponse({ type: [ShelterResponse], headers: PAGE_HEADERS })
  findAll(@Query() query: ShelterQueryDto): Promise<ListPage> {
    return this.shelters.findAll(query);
  }

  /** `/shelter/{id}` is the spec's singular spelling, kept as an alias. */
  @Get(['shelters/:id', 'shelter/:id'])
  @ApiOperation({ summary: 'Get a shelter (`/shelter/{id}` is an alias of `/shelters/{id}`)' })
  @ApiOkResponse({ type: ShelterResponse })
  findOne(@ResourceId('shelter') id: string): Promise<Shelter> {
    return this.shelters.findOrFail(id);
  }

  @Post('shelters')
  @Created('/shelters')
  @Idempotent()
  @ApiOperation({ summary: 'Create a shelter' })
  @ApiCreatedResponse({ type: ShelterResponse, headers: REPLAY_HEADERS })
  create(@Body() dto: CreateShelterDto): Promise<Shelter> {
    return this.shelters.create(dto);
  }

  @Put('shelters/:id')
  @ApiOperation({ summary: 'Replace a shelter: every field is required' })
  @ApiOkResponse({ type: ShelterResponse })
  replace(
    @ResourceId('shelter') id: string,
    @Body() dto: CreateShelterDto,
    @IfMatch() ifMatch?: string,
  ): Promise<Shelter> {
    return this.shelters.replace(id, dto, ifMatch);
  }

  @Patch('shelters/:id')
  @ApiOperation({ summary: 'Update the given fields of a shelter' })
  @ApiOkResponse({ type: ShelterResponse })
  update(
    @ResourceId('shelter') id: string,
    @Body() dto: UpdateShelterDto,
    @IfMatch() ifMatch?: string,
  ): Promise<Shelter> {
    return this.shelters.update(id, dto, ifMatch);
  }

  @Delete('shelters/:id')
  @ApiOperation({ summary: 'Delete a shelter that has no pets; answers with the shelter as it was' })
  @ApiOkResponse({ type: ShelterResponse })
  @ApiError(409, Messages.stillReferenced('shelter', '1', [{ count: 3, names: { one: 'pet', many: 'pets' } }]))
  remove(@ResourceId('shelter') id: string, @IfMatch() ifMatch?: string): Promise<Shelter> {
    return this.shelters.remove(id, ifMatch);
  }
}
