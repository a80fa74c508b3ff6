/**
 * The usual operations of a resource, for a module whose rules are all in its DTOs and entity:
 * `class VolunteersService extends ResourceService(Volunteer) {}` gives list
 * (filters on the entity's columns, paging, sorting), get, create, update and delete, each
 * write in its own transaction, with the references the entity declares enforced. Its module
 * imports `ResourcesModule.forFeature(Volunteer, 'volunteer')`.
 */
import { Inject, Injectable, type Type } from '@nestjs/common';
import type { EntityManager, FindOptionsWhere } from 'typeorm';

import type { Versioned } from './versioning.js';
import { type ListPage, type PagedQueryDto, pagingOf } from './paging.js';
import { resourceToken } from './resources.module.js';
import type { VersionedResource } from './versioned-resource.js';

/** Runs a write in a transaction; the database module provides it as TRANSACTIONS. */
export interface TransactionRunner {
  run<R>(work: (manager: EntityManager) => Promise<R>): Promise<R>;
}

export const TRANSACTIONS = Symbol('TransactionRunner');

const PAGING = new Set(['limit', 'offset', 'sort', '_limit', '_start', '_offset', '_sort', '_order']);

export function ResourceService<T extends Versioned>(entity: Type<T>) {
  @Injectable()
  class Service {
    constructor(
      @Inject(TRANSACTIONS) protected readonly transactions: TransactionRunner,
      @Inject(resourceToken(entity)) protected readonly store: VersionedResource<T>,
    ) {}

    /** The query's filters (every parameter but paging) must equal the columns of the same name. */
    findAll(query: PagedQueryDto): Promise<ListPage> {
      const where = Object.fromEntries(
        Object.entries(query).filter(([key, value]) => !PAGING.has(key) && value !== undefined),
      ) as FindOptionsWhere<T>;
      return this.store.list({ where, ...pagingOf(query) });
    }

    findOrFail(id: string): Promise<T> {
      return this.store.findOrFail(id);
    }

    create(dto: object): Promise<T> {
      return this.transactions.run((manager) => this.store.create(dto as never, manager));
    }

    update(id: string, dto: object, ifMatch?: string): Promise<T> {
      return this.transactions.run((manager) => this.store.update(manager, id, dto as Partial<T>, ifMatch));
    }

    remove(id: string, ifMatch?: string): Promise<T> {
      return this.transactions.run((manager) => this.store.remove(manager, id, ifMatch));
    }
  }
  return Service;
}
