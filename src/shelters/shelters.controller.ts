import { Body, Controller, Delete, Get, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';

import { Created } from '../common/http/created.decorator.js';
import { IfMatch } from '../common/http/etag.js';
import { DirectRead } from '../common/http/direct-read.decorator.js';
import { ResourceId } from '../common/http/resource-id.decorator.js';
import { type ListPage, PAGE_HEADERS } from '../common/resources/paging.js';
import { Idempotent, REPLAY_HEADERS } from '../idempotency/idempotent.decorator.js';
import { ApiError } from '../common/openapi/api-error.decorator.js';
import { ApiTag, TagOrder } from '../common/openapi/api-tag.decorator.js';
import { Messages } from '../common/errors/messages.js';
import { CreateShelterDto } from './dto/create-shelter.dto.js';
import { ShelterResponse, ShelterListItem } from './dto/shelter.response.js';
import { ShelterQueryDto } from './dto/shelter-query.dto.js';
import { UpdateShelterDto } from './dto/update-shelter.dto.js';
import type { Shelter } from './shelter.entity.js';
import { SheltersService } from './shelters.service.js';

@ApiTag('shelters', 'Shelter profiles: the places pets are adopted from.', TagOrder.resource)
@Controller()
export class SheltersController {
  constructor(private readonly shelters: SheltersService) {}

  @Get('shelters')
  @ApiOperation({
    operationId: 'listShelters',
    summary: 'List shelters',
    description:
      'Shelters ordered by id unless `sort` says otherwise. With `limit`, one page and its `X-Total-Count` ' +
      'and `Link` headers; without, the whole list.',
  })
  @ApiOkResponse({ type: [ShelterListItem], headers: PAGE_HEADERS })
  @DirectRead()
  findAll(@Query() query: ShelterQueryDto): Promise<ListPage> {
    return this.shelters.findAll(query);
  }

  @Get('shelters/:id')
  @ApiOperation({
    operationId: 'getShelter',
    summary: 'Get a shelter',
    description: 'The shelter with its strong `ETag`; `If-None-Match` with that tag answers 304 while it is unchanged.',
  })
  @ApiOkResponse({ type: ShelterResponse })
  @DirectRead()
  findOne(@ResourceId('shelter') id: string): Promise<Shelter> {
    return this.shelters.findOrFail(id);
  }

  /** `/shelter/{id}` is the spec's singular spelling, kept as an alias with an operation of its own. */
  @Get('shelter/:id')
  @ApiOperation({
    operationId: 'getShelterSingular',
    summary: 'Get a shelter (singular path)',
    description: 'The same answer as `GET /shelters/{id}`, under the singular spelling of the original spec.',
  })
  @ApiOkResponse({ type: ShelterResponse })
  @DirectRead()
  findOneSingular(@ResourceId('shelter') id: string): Promise<Shelter> {
    return this.shelters.findOrFail(id);
  }

  @Post('shelters')
  @Created('/shelters')
  @Idempotent()
  @ApiOperation({
    operationId: 'createShelter',
    summary: 'Create a shelter',
    description: 'Every field is required. Answers 201 with the shelter, its `Location` and `ETag`.',
  })
  @ApiCreatedResponse({ type: ShelterResponse, headers: REPLAY_HEADERS })
  create(@Body() dto: CreateShelterDto): Promise<Shelter> {
    return this.shelters.create(dto);
  }

  @Put('shelters/:id')
  @ApiOperation({
    operationId: 'replaceShelter',
    summary: 'Replace a shelter',
    description:
      'Every field is required. With `If-Match`, only while the shelter still has that ETag (412 otherwise).',
  })
  @ApiOkResponse({ type: ShelterResponse })
  replace(
    @ResourceId('shelter') id: string,
    @Body() dto: CreateShelterDto,
    @IfMatch() ifMatch?: string,
  ): Promise<Shelter> {
    return this.shelters.replace(id, dto, ifMatch);
  }

  @Patch('shelters/:id')
  @ApiOperation({
    operationId: 'updateShelter',
    summary: 'Update some fields of a shelter',
    description: 'The fields given replace the stored ones. `If-Match` as for PUT.',
  })
  @ApiOkResponse({ type: ShelterResponse })
  update(
    @ResourceId('shelter') id: string,
    @Body() dto: UpdateShelterDto,
    @IfMatch() ifMatch?: string,
  ): Promise<Shelter> {
    return this.shelters.update(id, dto, ifMatch);
  }

  @Delete('shelters/:id')
  @ApiOperation({
    operationId: 'deleteShelter',
    summary: 'Delete a shelter',
    description:
      'Only a shelter no pet refers to (409 otherwise); answers with the shelter as it was. `If-Match` as for PUT.',
  })
  @ApiOkResponse({ type: ShelterResponse })
  @ApiError(409, Messages.stillReferenced('shelter', '1', [{ count: 3, names: { one: 'pet', many: 'pets' } }]))
  remove(@ResourceId('shelter') id: string, @IfMatch() ifMatch?: string): Promise<Shelter> {
    return this.shelters.remove(id, ifMatch);
  }
}
