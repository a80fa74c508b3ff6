import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, FindOptionsWhere, Repository } from 'typeorm';

import { isForeignKeyViolation } from '../common/errors/database-errors.js';
import type { JsonList } from '../common/resources/json-list.js';
import { VersionedStore } from '../common/resources/versioned-store.js';
import { Transactions } from '../database/transactions.js';
import { SheltersService } from '../shelters/shelters.service.js';
import type { CreatePetDto } from './dto/create-pet.dto.js';
import type { PetQueryDto } from './dto/pet-query.dto.js';
import type { UpdatePetDto } from './dto/update-pet.dto.js';
import { breedKey, Pet } from './pet.entity.js';
import { UnknownShelterReferenceException } from './shelter-reference.exception.js';

@Injectable()
export class PetsService {
  private readonly store: VersionedStore<Pet>;

  constructor(
    @InjectRepository(Pet) private readonly pets: Repository<Pet>,
    private readonly shelters: SheltersService,
    private readonly transactions: Transactions,
  ) {
    this.store = new VersionedStore(Pet, 'pet', pets.manager, transactions);
  }

  /** The matching pets ordered by id (a long list is streamed). */
  async findAll(query: PetQueryDto): Promise<JsonList> {
    const { breed, shelter_id, ...exact } = query;
    const where: FindOptionsWhere<Pet> = { ...exact };
    if (shelter_id !== undefined) {
      where.shelter_id = (await this.shelters.findOrFail(shelter_id)).id;
    }
    if (breed !== undefined) {
      where.breed_key = breedKey(breed);
    }
    return this.store.list(where);
  }

  /** The pet, or the 404 that names the id as it was sent. */
  findOrFail(id: string): Promise<Pet> {
    return this.store.findOrFail(id);
  }

  create(dto: CreatePetDto): Promise<Pet> {
    return this.write(dto, async (manager) => {
      await this.checkShelter(dto, manager);
      return this.store.create(columnsOf(dto), manager);
    });
  }

  replace(id: string, dto: CreatePetDto, ifMatch?: string): Promise<Pet> {
    return this.update(id, dto, ifMatch);
  }

  update(id: string, dto: UpdatePetDto, ifMatch?: string): Promise<Pet> {
    // Existence (404), then the shelter reference (400), then If-Match (412), as the contract orders.
    return this.write(dto, (manager) =>
      this.store.update(manager, id, columnsOf(dto), ifMatch, () => this.checkShelter(dto, manager)),
    );
  }

  remove(id: string, ifMatch?: string): Promise<Pet> {
    return this.transactions.run((manager) => this.store.remove(manager, id, ifMatch));
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
