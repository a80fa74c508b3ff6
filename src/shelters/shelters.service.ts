import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';

import { ResourceNotFoundException } from '../common/errors/api.exception.js';
import { assertIfMatch, conditionOn, missedWrite } from '../common/http/etag.js';
import { isForeignKeyViolation } from '../common/errors/database-errors.js';
import { storedId } from '../common/http/resource-id.decorator.js';
import { Transactions } from '../database/transactions.js';
import { Pet } from '../pets/pet.entity.js';
import type { CreateShelterDto } from './dto/create-shelter.dto.js';
import type { UpdateShelterDto } from './dto/update-shelter.dto.js';
import { Shelter } from './shelter.entity.js';
import { ShelterHasPetsException } from './shelter-has-pets.exception.js';

@Injectable()
export class SheltersService {
  constructor(
    @InjectRepository(Shelter) private readonly shelters: Repository<Shelter>,
    private readonly transactions: Transactions,
  ) {}

  findAll(): Promise<Shelter[]> {
    return this.shelters.find({ order: { id: 'ASC' } });
  }

  /** The shelter, or the 404 that names the id as it was sent. */
  async findOrFail(id: string, manager: EntityManager = this.shelters.manager): Promise<Shelter> {
    const key = storedId(id);
    const shelter = key === undefined ? null : await manager.findOneBy(Shelter, { id: key });
    if (!shelter) {
      throw new ResourceNotFoundException('shelter', id);
    }
    return shelter;
  }

  async exists(id: number, manager: EntityManager = this.shelters.manager): Promise<boolean> {
    const key = storedId(id);
    return key !== undefined && (await manager.existsBy(Shelter, { id: key }));
  }

  create(dto: CreateShelterDto): Promise<Shelter> {
    return this.transactions.run((manager) => manager.save(manager.create(Shelter, columnsOf(dto))));
  }

  replace(id: string, dto: CreateShelterDto, ifMatch?: string): Promise<Shelter> {
    return this.update(id, dto, ifMatch);
  }

  update(id: string, dto: UpdateShelterDto, ifMatch?: string): Promise<Shelter> {
    return this.transactions.run(async (manager) => {
      const shelter = await this.findOrFail(id, manager);
      assertIfMatch(shelter, ifMatch, 'shelter');
      // Only the given columns are written, in one statement, so concurrent updates of other fields survive.
      // The version in the WHERE makes the If-Match check and the write one atomic step.
      const { affected } = await manager.update(Shelter, conditionOn(shelter, ifMatch), columnsOf(dto));
      if (affected === 0) {
        throw missedWrite('shelter', id, ifMatch);
      }
      return this.findOrFail(id, manager);
    });
  }

  remove(id: string, ifMatch?: string): Promise<Shelter> {
    return this.transactions
      .run(async (manager) => {
        const shelter = await this.findOrFail(id, manager);
        assertIfMatch(shelter, ifMatch, 'shelter');
        const pets = await manager.countBy(Pet, { shelter_id: shelter.id });
        if (pets > 0) {
          throw new ShelterHasPetsException(id, pets);
        }
        const { affected } = await manager.delete(Shelter, conditionOn(shelter, ifMatch));
        if (affected === 0) {
          throw missedWrite('shelter', id, ifMatch);
        }
        return shelter;
      })
      .catch(async (error: unknown) => {
        // A pet added by another connection between the count and the delete: the foreign key refused it.
        if (isForeignKeyViolation(error)) {
          const pets = await this.shelters.manager.countBy(Pet, { shelter_id: Number(id) });
          throw new ShelterHasPetsException(id, pets);
        }
        throw error;
      });
  }
}

/** The columns a body sets; the fee range is stored trimmed. */
function columnsOf(dto: UpdateShelterDto): Partial<Shelter> {
  const columns: Partial<Shelter> = { ...dto };
  if (dto.adoption_fee_range !== undefined) {
    columns.adoption_fee_range = dto.adoption_fee_range.trim();
  }
  return columns;
}
