import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, FindOptionsWhere, Repository } from 'typeorm';

import { ResourceNotFoundException } from '../common/errors/api.exception.js';
import { assertIfMatch, conditionOn, missedWrite } from '../common/http/etag.js';
import { isForeignKeyViolation } from '../common/errors/database-errors.js';
import { storedId } from '../common/http/resource-id.decorator.js';
import { Transactions } from '../database/transactions.js';
import { SheltersService } from '../shelters/shelters.service.js';
import type { CreatePetDto } from './dto/create-pet.dto.js';
import type { PetQueryDto } from './dto/pet-query.dto.js';
import type { UpdatePetDto } from './dto/update-pet.dto.js';
import { breedKey, Pet } from './pet.entity.js';
import { UnknownShelterReferenceException } from './shelter-reference.exception.js';

@Injectable()
export class PetsService {
  constructor(
    @InjectRepository(Pet) private readonly pets: Repository<Pet>,
    private readonly shelters: SheltersService,
    private readonly transactions: Transactions,
  ) {}

  async findAll(query: PetQueryDto): Promise<Pet[]> {
    const { breed, shelter_id, ...exact } = query;
    const where: FindOptionsWhere<Pet> = { ...exact };
    if (shelter_id !== undefined) {
      where.shelter_id = (await this.shelters.findOrFail(shelter_id)).id;
    }
    if (breed !== undefined) {
      where.breed_key = breedKey(breed);
    }
    return this.pets.find({ where, order: { id: 'ASC' } });
  }

  /** The pet, or the 404 that names the id as it was sent. */
  async findOrFail(id: string, manager: EntityManager = this.pets.manager): Promise<Pet> {
    const key = storedId(id);
    const pet = key === undefined ? null : await manager.findOneBy(Pet, { id: key });
    if (!pet) {
      throw new ResourceNotFoundException('pet', id);
    }
    return pet;
  }

  create(dto: CreatePetDto): Promise<Pet> {
    return this.write(dto, async (manager) => {
      await this.checkShelter(dto, manager);
      return manager.save(manager.create(Pet, columnsOf(dto)));
    });
  }

  replace(id: string, dto: CreatePetDto, ifMatch?: string): Promise<Pet> {
    return this.update(id, dto, ifMatch);
  }

  update(id: string, dto: UpdatePetDto, ifMatch?: string): Promise<Pet> {
    return this.write(dto, async (manager) => {
      const pet = await this.findOrFail(id, manager);
      assertIfMatch(pet, ifMatch, 'pet');
      await this.checkShelter(dto, manager);
      // Only the given columns are written, in one statement, so concurrent updates of other fields survive.
      // The version in the WHERE makes the If-Match check and the write one atomic step.
      const { affected } = await manager.update(Pet, conditionOn(pet, ifMatch), columnsOf(dto));
      if (affected === 0) {
        throw missedWrite('pet', id, ifMatch);
      }
      return this.findOrFail(id, manager);
    });
  }

  remove(id: string, ifMatch?: string): Promise<Pet> {
    return this.transactions.run(async (manager) => {
      const pet = await this.findOrFail(id, manager);
      assertIfMatch(pet, ifMatch, 'pet');
      const { affected } = await manager.delete(Pet, conditionOn(pet, ifMatch));
      if (affected === 0) {
        throw missedWrite('pet', id, ifMatch);
      }
      return pet;
    });
  }

  private async checkShelter(dto: UpdatePetDto, manager: EntityManager): Promise<void> {
    if (dto.shelter_id !== undefined && !(await this.shelters.exists(dto.shelter_id, manager))) {
      throw new UnknownShelterReferenceException(dto.shelter_id);
    }
  }

  /** A transaction whose foreign-key refusal (the shelter vanished meanwhile) is the client's 400. */
  private async write(dto: UpdatePetDto, work: (manager: EntityManager) => Promise<Pet>): Promise<Pet> {
    try {
      return await this.transactions.run(work);
    } catch (error) {
      if (isForeignKeyViolation(error) && dto.shelter_id !== undefined) {
        throw new UnknownShelterReferenceException(dto.shelter_id);
      }
      throw error;
    }
  }
}

/** The columns a body sets: `medical` spreads over its two columns and `breed` brings its search key. */
function columnsOf(dto: UpdatePetDto): Partial<Pet> {
  const { medical, ...fields } = dto;
  const columns: Partial<Pet> = { ...fields };
  if (fields.breed !== undefined) {
    columns.breed_key = breedKey(fields.breed);
  }
  if (medical?.spayed_neutered !== undefined) {
    columns.spayed_neutered = medical.spayed_neutered;
  }
  if (medical?.vaccinations !== undefined) {
    columns.vaccinations = medical.vaccinations;
  }
  return columns;
}
