import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, FindOptionsWhere, Repository } from 'typeorm';

import { anyOf, within } from '../common/resources/filters.js';
import { locatedPagingOf } from '../common/resources/near.js';
import type { ListPage } from '../common/resources/paging.js';
import { InjectResource } from '../common/resources/resources.module.js';
import type { VersionedResource } from '../common/resources/versioned-resource.js';
import { Transactions } from '../database/transactions.js';
import { Outbox } from '../events/outbox.js';
import type { CreatePetDto } from './dto/create-pet.dto.js';
import type { PetQueryDto } from './dto/pet-query.dto.js';
import type { UpdatePetDto } from './dto/update-pet.dto.js';
import { breedKey, Pet } from './pet.entity.js';
import { PetStatusChange } from './pet-status-change.entity.js';

/** The text fields `q` searches. */
const SEARCHED = ['name', 'breed', 'temperament', 'description'] as const;

const optionalNumber = (text?: string) => (text === undefined ? undefined : Number(text));

@Injectable()
export class PetsService {
  constructor(
    @InjectRepository(Pet) private readonly pets: Repository<Pet>,
    private readonly transactions: Transactions,
    @InjectResource(Pet) private readonly store: VersionedResource<Pet>,
    private readonly outbox: Outbox,
  ) {}

  /** The matching pets, in the asked order or by id, whole or one page (a long list is streamed). */
  async findAll(query: PetQueryDto): Promise<ListPage> {
    const where: FindOptionsWhere<Pet> = {};
    for (const field of ['species', 'status', 'size', 'gender'] as const) {
      if (query[field] !== undefined) {
        where[field] = anyOf(query[field]) as never;
      }
    }
    if (query.breed !== undefined) {
      where.breed_key = breedKey(query.breed);
    }
    if (query.shelter_id !== undefined) {
      // As sent: an unknown shelter's 404 repeats it (see References).
      where.shelter_id = query.shelter_id as unknown as number;
    }
    const ages = within(optionalNumber(query.age_months_min), optionalNumber(query.age_months_max));
    if (ages !== undefined) {
      where.age_months = ages;
    }
    const intake = within(query.intake_date_from, query.intake_date_to);
    if (intake !== undefined) {
      where.intake_date = intake;
    }
    const { near, ...paging } = await locatedPagingOf(query);
    return this.store.list({
      where,
      contains: [
        ...(query.temperament === undefined ? [] : [{ text: query.temperament, columns: ['temperament'] }]),
        ...(query.q === undefined ? [] : [{ text: query.q, columns: SEARCHED }]),
      ],
      ...paging,
      // A pet lies where its shelter does.
      ...(near === undefined ? {} : { near: { ...near, through: 'shelter_id' } }),
    });
  }

  /** The pet, or the 404 that names the id as it was sent. */
  findOrFail(id: string): Promise<Pet> {
    return this.store.findOrFail(id);
  }

  /** The pet, held until the transaction ends (another module's write that depends on it), or its 404. */
  findLocked(id: string, manager: EntityManager): Promise<Pet> {
    return this.store.findLocked(id, manager);
  }

  /** The pet's statuses, oldest first, each with the time it was set; 404 for an unknown pet. */
  async history(id: string): Promise<PetStatusChange[]> {
    const pet = await this.store.findOrFail(id);
    return this.pets.manager.find(PetStatusChange, { where: { pet_id: pet.id }, order: { id: 'ASC' } });
  }

  create(dto: CreatePetDto): Promise<Pet> {
    return this.transactions.run(async (manager) => {
      const pet = await this.store.create(columnsOf(dto), manager);
      await recordStatus(manager, pet);
      await this.outbox.record(manager, 'pet.created', pet, pet.shelter_id);
      return pet;
    });
  }

  replace(id: string, dto: CreatePetDto, ifMatch?: string): Promise<Pet> {
    return this.update(id, dto, ifMatch);
  }

  update(id: string, dto: UpdatePetDto, ifMatch?: string): Promise<Pet> {
    return this.transactions.run(async (manager) => {
      let previousStatus: string | undefined;
      const pet = await this.store.update(manager, id, columnsOf(dto), ifMatch, (current) => {
        previousStatus = current.status;
      });
      await this.outbox.record(manager, 'pet.updated', pet, pet.shelter_id);
      if (pet.status !== previousStatus) {
        await recordStatus(manager, pet);
        await this.outbox.record(
          manager,
          'pet.status_changed',
          { ...pet.toJSON(), from: previousStatus, to: pet.status },
          pet.shelter_id,
        );
      }
      return pet;
    });
  }

  remove(id: string, ifMatch?: string): Promise<Pet> {
    return this.transactions.run(async (manager) => {
      const pet = await this.store.remove(manager, id, ifMatch);
      await this.outbox.record(manager, 'pet.deleted', pet, pet.shelter_id);
      return pet;
    });
  }
}

/** Adds the pet's current status to its history. */
async function recordStatus(manager: EntityManager, pet: Pet): Promise<void> {
  await manager.insert(PetStatusChange, { pet_id: pet.id, status: pet.status, changed_at: new Date() });
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
