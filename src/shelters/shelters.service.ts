import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import { pointOfAddress } from '../common/geo/geo.js';
import { locatedPagingOf } from '../common/resources/near.js';
import type { ListPage } from '../common/resources/paging.js';
import { InjectResource } from '../common/resources/resources.module.js';
import type { VersionedResource } from '../common/resources/versioned-resource.js';
import { Transactions } from '../database/transactions.js';
import { Outbox } from '../events/outbox.js';
import type { CreateShelterDto } from './dto/create-shelter.dto.js';
import type { ShelterQueryDto } from './dto/shelter-query.dto.js';
import type { UpdateShelterDto } from './dto/update-shelter.dto.js';
import { Shelter } from './shelter.entity.js';

@Injectable()
export class SheltersService {
  constructor(
    private readonly transactions: Transactions,
    @InjectResource(Shelter) private readonly store: VersionedResource<Shelter>,
    private readonly outbox: Outbox,
  ) {}

  /** Every shelter, in the asked order or by id, whole or one page (a long list is streamed). */
  async findAll(query: ShelterQueryDto): Promise<ListPage> {
    return this.store.list({ where: {}, ...(await locatedPagingOf(query)) });
  }

  /** The shelter, or the 404 that names the id as it was sent. */
  findOrFail(id: string, manager?: EntityManager): Promise<Shelter> {
    return this.store.findOrFail(id, manager);
  }

  exists(id: number, manager?: EntityManager): Promise<boolean> {
    return this.store.exists(id, manager);
  }

  async create(dto: CreateShelterDto): Promise<Shelter> {
    const columns = await columnsOf(dto);
    return this.transactions.run(async (manager) => {
      const shelter = await this.store.create(columns, manager);
      await this.outbox.record(manager, 'shelter.created', shelter, shelter.id);
      return shelter;
    });
  }

  replace(id: string, dto: CreateShelterDto, ifMatch?: string): Promise<Shelter> {
    return this.update(id, dto, ifMatch);
  }

  async update(id: string, dto: UpdateShelterDto, ifMatch?: string): Promise<Shelter> {
    const columns = await columnsOf(dto);
    return this.transactions.run(async (manager) => {
      const shelter = await this.store.update(manager, id, columns, ifMatch);
      await this.outbox.record(manager, 'shelter.updated', shelter, shelter.id);
      return shelter;
    });
  }

  /** 409 while pets (or any resource that refers to shelters) still refer to it: see References. */
  remove(id: string, ifMatch?: string): Promise<Shelter> {
    return this.transactions.run(async (manager) => {
      const shelter = await this.store.remove(manager, id, ifMatch);
      await this.outbox.record(manager, 'shelter.deleted', shelter, shelter.id);
      return shelter;
    });
  }
}

/** The columns a body sets; the fee range is stored trimmed, and an address brings its point. */
async function columnsOf(dto: UpdateShelterDto): Promise<Partial<Shelter>> {
  const columns: Partial<Shelter> = { ...dto };
  if (dto.adoption_fee_range !== undefined) {
    columns.adoption_fee_range = dto.adoption_fee_range.trim();
  }
  if (dto.address !== undefined) {
    const point = await pointOfAddress(dto.address);
    columns.latitude = point?.latitude ?? null;
    columns.longitude = point?.longitude ?? null;
  }
  return columns;
}
