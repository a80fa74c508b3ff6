/** Makes each resource's `VersionedStore`, wired to the connection, the shared list-answer pieces and the references between resources. */
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityTarget } from 'typeorm';

import type { ResourceName } from '../errors/messages.js';
import type { Versioned } from './versioning.js';
import { ListAnswerCache } from './list-answer-cache.js';
import { References } from './references.js';
import { StreamedLists } from './streamed-lists.js';
import { VersionedStore } from './versioned-store.js';

@Injectable()
export class VersionedStores {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly answers: ListAnswerCache,
    private readonly streams: StreamedLists,
    private readonly references: References,
  ) {}

  /** The store of one entity, whose errors name the resource `name` (`Pet with 'id' 7 not found.`). */
  for<T extends Versioned>(entity: EntityTarget<T>, name: ResourceName): VersionedStore<T> {
    return new VersionedStore(entity, name, this.dataSource.manager, this.answers, this.streams, this.references);
  }
}
