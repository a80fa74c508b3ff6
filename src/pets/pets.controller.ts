import { Body, Controller, Delete, Get, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

import { Created } from '../common/http/created.decorator.js';
import { IfMatch } from '../common/http/etag.js';
import { ResourceId } from '../common/http/resource-id.decorator.js';
import { type ListPage, PAGE_HEADERS } from '../common/resources/paging.js';
import { Idempotent, REPLAY_HEADERS } from '../idempotency/idempotent.decorator.js';
import { CreatePetDto } from './dto/create-pet.dto.js';
import { PetResponse, PetStatusChangeResponse } from './dto/pet.response.js';
import { PetQueryDto } from './dto/pet-query.dto.js';
import { UpdatePetDto } from './dto/update-pet.dto.js';
import type { Pet } from './pet.entity.js';
import type { PetStatusChange } from './pet-status-change.entity.js';
import { PetsService } from './pets.service.js';

@ApiTags('pets')
@Controller('pets')
export class PetsController {
  constructor(private readonly pets: PetsService) {}

  @Get()
  @ApiOperation({ summary: 'List pets, filtered by any of the query parameters (combined with AND), ordered by id' })
  @ApiOkResponse({ type: [PetResponse], headers: PAGE_HEADERS })
  findAll(@Query() query: PetQueryDto): Promise<ListPage> {
    return this.pets.findAll(query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Get a pet' })
  @ApiOkResponse({ type: PetResponse })
  findOne(@ResourceId('pet') id: string): Promise<Pet> {
    return this.pets.findOrFail(id);
  }

  @Get(':id/history')
  @ApiOperation({ summary: "A pet's statuses, oldest first, each with the time it was set (creation included)" })
  @ApiOkResponse({ type: [PetStatusChangeResponse] })
  history(@ResourceId('pet') id: string): Promise<PetStatusChange[]> {
    return this.pets.history(id);
  }

  @Post()
  @Created('/pets')
  @Idempotent()
  @ApiOperation({ summary: 'Create a pet in an existing shelter' })
  @ApiCreatedResponse({ type: PetResponse, headers: REPLAY_HEADERS })
  create(@Body() dto: CreatePetDto): Promise<Pet> {
    return this.pets.create(dto);
  }

  @Put(':id')
  @ApiOperation({ summary: 'Replace a pet: every field is required' })
  @ApiOkResponse({ type: PetResponse })
  replace(@ResourceId('pet') id: string, @Body() dto: CreatePetDto, @IfMatch() ifMatch?: string): Promise<Pet> {
    return this.pets.replace(id, dto, ifMatch);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Update the given fields of a pet (`medical` is merged field by field)' })
  @ApiOkResponse({ type: PetResponse })
  update(@ResourceId('pet') id: string, @Body() dto: UpdatePetDto, @IfMatch() ifMatch?: string): Promise<Pet> {
    return this.pets.update(id, dto, ifMatch);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a pet; answers with the pet as it was' })
  @ApiOkResponse({ type: PetResponse })
  remove(@ResourceId('pet') id: string, @IfMatch() ifMatch?: string): Promise<Pet> {
    return this.pets.remove(id, ifMatch);
  }
}
