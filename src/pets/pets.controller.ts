import { Body, Controller, Delete, Get, Patch, Post, Put, Query } from '@nestjs/common';

import { Created } from '../common/http/created.decorator.js';
import { IfMatch } from '../common/http/etag.js';
import { ResourceId } from '../common/http/resource-id.decorator.js';
import { CreatePetDto } from './dto/create-pet.dto.js';
import { PetQueryDto } from './dto/pet-query.dto.js';
import { UpdatePetDto } from './dto/update-pet.dto.js';
import type { Pet } from './pet.entity.js';
import { PetsService } from './pets.service.js';

@Controller('pets')
export class PetsController {
  constructor(private readonly pets: PetsService) {}

  @Get()
  findAll(@Query() query: PetQueryDto): Promise<Pet[]> {
    return this.pets.findAll(query);
  }

  @Get(':id')
  findOne(@ResourceId('pet') id: string): Promise<Pet> {
    return this.pets.findOrFail(id);
  }

  @Post()
  @Created('/pets')
  create(@Body() dto: CreatePetDto): Promise<Pet> {
    return this.pets.create(dto);
  }

  @Put(':id')
  replace(@ResourceId('pet') id: string, @Body() dto: CreatePetDto, @IfMatch() ifMatch?: string): Promise<Pet> {
    return this.pets.replace(id, dto, ifMatch);
  }

  @Patch(':id')
  update(@ResourceId('pet') id: string, @Body() dto: UpdatePetDto, @IfMatch() ifMatch?: string): Promise<Pet> {
    return this.pets.update(id, dto, ifMatch);
  }

  @Delete(':id')
  remove(@ResourceId('pet') id: string, @IfMatch() ifMatch?: string): Promise<Pet> {
    return this.pets.remove(id, ifMatch);
  }
}
