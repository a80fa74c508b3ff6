import { Body, Controller, Delete, Get, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';

import { Created } from '../common/http/created.decorator.js';
import { DirectRead } from '../common/http/direct-read.decorator.js';
import { IfMatch } from '../common/http/etag.js';
import { ResourceId } from '../common/http/resource-id.decorator.js';
import { ApiError } from '../common/openapi/api-error.decorator.js';
import { ApiTag, TagOrder } from '../common/openapi/api-tag.decorator.js';
import { Messages } from '../common/errors/messages.js';
import { type ListPage, PAGE_HEADERS } from '../common/resources/paging.js';
import { Idempotent, REPLAY_HEADERS } from '../idempotency/idempotent.decorator.js';
import { CreatePetDto } from './dto/create-pet.dto.js';
import { PetResponse, PetListItem, PetStatusChangeResponse } from './dto/pet.response.js';
import { PetQueryDto } from './dto/pet-query.dto.js';
import { UpdatePetDto } from './dto/update-pet.dto.js';
import type { Pet } from './pet.entity.js';
import type { PetStatusChange } from './pet-status-change.entity.js';
import { PetsService } from './pets.service.js';

@ApiTag(
  'pets',
  'Pet profiles: list and filter, create, read, replace, update, delete, and status history.',
  TagOrder.resource,
)
@Controller('pets')
export class PetsController {
  constructor(private readonly pets: PetsService) {}

  @Get()
  @ApiOperation({
    operationId: 'listPets',
    summary: 'List pets',
    description:
      'Pets matching every filter given (AND), ordered by id unless `sort` says otherwise. ' +
      'With `limit`, one page and its `X-Total-Count` and `Link` headers; without, the whole list.',
  })
  @ApiOkResponse({ type: [PetListItem], headers: PAGE_HEADERS })
  @ApiError(404, Messages.notFound('shelter', '42'))
  @DirectRead()
  findAll(@Query() query: PetQueryDto): Promise<ListPage> {
    return this.pets.findAll(query);
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getPet',
    summary: 'Get a pet',
    description: 'The pet with its strong `ETag`; `If-None-Match` with that tag answers 304 while it is unchanged.',
  })
  @ApiOkResponse({ type: PetResponse })
  @DirectRead()
  findOne(@ResourceId('pet') id: string): Promise<Pet> {
    return this.pets.findOrFail(id);
  }

  @Get(':id/history')
  @ApiOperation({
    operationId: 'getPetHistory',
    summary: "A pet's status history",
    description: 'Every status the pet has had, oldest first, each with the time it was set (its creation included).',
  })
  @ApiOkResponse({ type: [PetStatusChangeResponse] })
  history(@ResourceId('pet') id: string): Promise<PetStatusChange[]> {
    return this.pets.history(id);
  }

  @Post()
  @Created('/pets')
  @Idempotent()
  @ApiOperation({
    operationId: 'createPet',
    summary: 'Create a pet',
    description:
      'Every field is required; `shelter_id` must name an existing shelter. Answers 201 with the pet, ' +
      'its `Location` and `ETag`.',
  })
  @ApiCreatedResponse({ type: PetResponse, headers: REPLAY_HEADERS })
  create(@Body() dto: CreatePetDto): Promise<Pet> {
    return this.pets.create(dto);
  }

  @Put(':id')
  @ApiOperation({
    operationId: 'replacePet',
    summary: 'Replace a pet',
    description: 'Every field is required. With `If-Match`, only while the pet still has that ETag (412 otherwise).',
  })
  @ApiOkResponse({ type: PetResponse })
  replace(@ResourceId('pet') id: string, @Body() dto: CreatePetDto, @IfMatch() ifMatch?: string): Promise<Pet> {
    return this.pets.replace(id, dto, ifMatch);
  }

  @Patch(':id')
  @ApiOperation({
    operationId: 'updatePet',
    summary: 'Update some fields of a pet',
    description:
      'The fields given replace the stored ones; `medical` is merged field by field, so ' +
      '`{"medical":{"vaccinations":["rabies"]}}` keeps `spayed_neutered`. `If-Match` as for PUT.',
  })
  @ApiOkResponse({ type: PetResponse })
  update(@ResourceId('pet') id: string, @Body() dto: UpdatePetDto, @IfMatch() ifMatch?: string): Promise<Pet> {
    return this.pets.update(id, dto, ifMatch);
  }

  @Delete(':id')
  @ApiOperation({
    operationId: 'deletePet',
    summary: 'Delete a pet',
    description: 'Deletes the pet and its history, and answers with the pet as it was. `If-Match` as for PUT.',
  })
  @ApiOkResponse({ type: PetResponse })
  remove(@ResourceId('pet') id: string, @IfMatch() ifMatch?: string): Promise<Pet> {
    return this.pets.remove(id, ifMatch);
  }
}
