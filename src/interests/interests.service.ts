import { Injectable } from '@nestjs/common';
import { type FindOptionsWhere, In } from 'typeorm';

import { ApiException } from '../common/errors/api.exception.js';
import { Messages } from '../common/errors/messages.js';
import { anyOf } from '../common/resources/filters.js';
import type { ListPage } from '../common/resources/paging.js';
import { pagingOf } from '../common/resources/paging.js';
import { InjectResource } from '../common/resources/resources.module.js';
import type { VersionedResource } from '../common/resources/versioned-resource.js';
import { Transactions } from '../database/transactions.js';
import { Outbox } from '../events/outbox.js';
import { PetsService } from '../pets/pets.service.js';
import type { CreateInterestDto, UpdateInterestDto } from './dto/create-interest.dto.js';
import type { InterestQueryDto } from './dto/interest-query.dto.js';
import { Interest, OPEN_STATUSES } from './interest.entity.js';

@Injectable()
export class InterestsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly pets: PetsService,
    @InjectResource(Interest) private readonly store: VersionedResource<Interest>,
    private readonly outbox: Outbox,
  ) {}

  /** The matching interests; with `petId` (GET /pets/{id}/interests), that pet's, or its 404. */
  async findAll(query: InterestQueryDto, petId?: string): Promise<ListPage> {
    const where: FindOptionsWhere<Interest> = {};
    // Filters as sent: an unknown pet's or shelter's 404 repeats them (see References).
    if (query.shelter_id !== undefined) {
      where.shelter_id = query.shelter_id as unknown as number;
    }
    if (query.pet_id !== undefined) {
      where.pet_id = query.pet_id as unknown as number;
    }
    if (petId !== undefined) {
      const { id } = await this.pets.findOrFail(petId);
      if (query.pet_id === undefined || query.pet_id === String(id)) {
        where.pet_id = id;
      } else {
        // The path's pet and a `pet_id` filter naming another (still checked): no id is 0, nothing matches.
        where.id = 0;
      }
    }
    if (query.status !== undefined) {
      where.status = anyOf(query.status);
    }
    return this.store.list({ where, ...pagingOf(query) });
  }

  findOrFail(id: string): Promise<Interest> {
    return this.store.findOrFail(id);
  }

  /** 404 for an unknown pet, 409 for an adopted one or for an open interest from the same email. */
  create(petId: string, dto: CreateInterestDto): Promise<Interest> {
    return this.transactions.run(async (manager) => {
      const pet = await this.pets.findLocked(petId, manager);
      if (pet.status === 'adopted') {
        throw new ApiException(409, Messages.petAdopted(String(pet.id)));
      }
      const emailKey = dto.email.toLowerCase();
      const open = await manager.findOne(Interest, {
        where: { pet_id: pet.id, email_key: emailKey, status: In([...OPEN_STATUSES]) },
        order: { id: 'ASC' },
      });
      if (open !== null) {
        throw new ApiException(409, Messages.openInterestExists(String(pet.id), open.id));
      }
      const interest = await this.store.create(
        {
          pet_id: pet.id,
          shelter_id: pet.shelter_id,
          name: dto.name,
          email: dto.email,
          email_key: emailKey,
          phone: dto.phone ?? '',
          message: dto.message ?? '',
          status: 'new',
          created_at: new Date(),
        },
        manager,
      );
      await this.outbox.record(manager, 'interest.created', interest, interest.shelter_id);
      return interest;
    });
  }

  update(id: string, dto: UpdateInterestDto, ifMatch?: string): Promise<Interest> {
    return this.transactions.run(async (manager) => {
      const interest = await this.store.update(manager, id, { status: dto.status }, ifMatch);
      await this.outbox.record(manager, 'interest.updated', interest, interest.shelter_id);
      return interest;
    });
  }
}
