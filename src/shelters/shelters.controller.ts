import { Body, Controller, Delete, Get, Patch, Post, Put, Query } from '@nestjs/common';

import { Created } from '../common/http/created.decorator.js';
import { IfMatch } from '../common/http/etag.js';
import { ResourceId } from '../common/http/resource-id.decorator.js';
import { CreateShelterDto } from './dto/create-shelter.dto.js';
import { ShelterQueryDto } from './dto/shelter-query.dto.js';
import { UpdateShelterDto } from './dto/update-shelter.dto.js';
import type { Shelter } from './shelter.entity.js';
import { SheltersService } from './shelters.service.js';

@Controller()
export class SheltersController {
  constructor(private readonly shelters: SheltersService) {}

  @Get('shelters')
  findAll(@Query() _query: ShelterQueryDto): Promise<Shelter[]> {
    return this.shelters.findAll();
  }

  /** `/shelter/{id}` is the spec's singular spelling, kept as an alias. */
  @Get(['shelters/:id', 'shelter/:id'])
  findOne(@ResourceId('shelter') id: string): Promise<Shelter> {
    return this.shelters.findOrFail(id);
  }

  @Post('shelters')
  @Created('/shelters')
  create(@Body() dto: CreateShelterDto): Promise<Shelter> {
    return this.shelters.create(dto);
  }

  @Put('shelters/:id')
  replace(
    @ResourceId('shelter') id: string,
    @Body() dto: CreateShelterDto,
    @IfMatch() ifMatch?: string,
  ): Promise<Shelter> {
    return this.shelters.replace(id, dto, ifMatch);
  }

  @Patch('shelters/:id')
  update(
    @ResourceId('shelter') id: string,
    @Body() dto: UpdateShelterDto,
    @IfMatch() ifMatch?: string,
  ): Promise<Shelter> {
    return this.shelters.update(id, dto, ifMatch);
  }

  @Delete('shelters/:id')
  remove(@ResourceId('shelter') id: string, @IfMatch() ifMatch?: string): Promise<Shelter> {
    return this.shelters.remove(id, ifMatch);
  }
}
