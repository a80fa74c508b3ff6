/**
 * One resource's operations as its routes answer them, worded for its resource name: the 404
 * for an unknown or impossible id, the 412 of a stale `If-Match`, the 404 when another request
 * deleted the row meanwhile, the references it declares (see References), and its whole lists
 * kept (ListAnswerCache) or streamed under the cap (StreamedLists). It chooses the answers; the
 * reads and writes are VersionedRecords' and the list SQL is ListQueries'. Feature services keep
 * only what is particular to their resource.
 */
import type { DeepPartial, EntityManager } from 'typeorm';

import { ResourceNotFoundException } from '../errors/api.exception.js';
import { isForeignKeyViolation } from '../errors/database-errors.js';
import type { ResourceName } from '../errors/messages.js';
import { JsonList } from './json-list.js';
import type { Built, ListAnswerCache } from './list-answer-cache.js';
import type { ListQueries, ListQuery } from './list-queries.js';
import type { ListPage } from './paging.js';
import type { References } from './references.js';
import type { StreamedLists } from './streamed-lists.js';
import type { VersionedRecords } from './versioned-records.js';
import { assertIfMatch, missedWrite, storedId, type Versioned } from './versioning.js';

export class VersionedResource<T extends Versioned> {
  constructor(
    readonly name: ResourceName,
    private readonly records: VersionedRecords<T>,
    private readonly lists: ListQueries<T>,
    private readonly answers: ListAnswerCache,
    private readonly streams: StreamedLists,
    private readonly references: References,
  ) {
    references.registerParent(name, {
      entity: records.entity,
      exists: (id, inside) => this.exists(id, inside),
      lock: (id, inside) => records.lock(id, inside),
    });
  }

  /** The row, or the 404 that names the id as it was sent. */
  async findOrFail(id: string | number, manager?: EntityManager): Promise<T> {
    const key = storedId(id);
    const row = key === undefined ? undefined : await this.records.find(key, manager);
    if (row === undefined) {
      throw new ResourceNotFoundException(this.name, id);
    }
    return row;
  }

  /**
   * The row, held until the transaction of `manager` ends (PostgreSQL; SQLite writes one at a
   * time anyway), so that what a write decides from it stays true until it commits; or the 404.
   */
  async findLocked(id: string, manager: EntityManager): Promise<T> {
    const key = storedId(id);
    if (key !== undefined) {
      await this.records.lock(key, manager);
    }
    return this.findOrFail(id, manager);
  }

  /** Whether a row with this id exists. */
  async exists(id: string | number, manager?: EntityManager): Promise<boolean> {
    const key = storedId(id);
    return key !== undefined && (await this.records.find(key, manager)) !== undefined;
  }

  /**
   * The list answer: kept and shared when it fits where answers are kept, else streamed batch
   * by batch (503 above the cap on concurrent streams). A filter on a reference (`shelter_id`)
   * names an existing parent, or the answer is its 404.
   */
  list(query: ListQuery<T>): Promise<ListPage> {
    return this.answers.answer(`${this.name}\n${JSON.stringify(query)}`, () => this.build(query));
  }

  private async build(query: ListQuery<T>): Promise<Built> {
    await this.references.assertFilteredParentsExist(this.records.entity, query.where);
    const through = query.near?.through;
    const source =
      through === undefined
        ? undefined
        : { entity: this.references.parentEntity(this.records.entity, through), column: through };
    const read = await this.lists.read(query, this.answers.maxAnswerBytes, source);
    if ('json' in read) {
      const list = await JsonList.whole(Buffer.from(read.json));
      const page = query.page === undefined ? undefined : { ...query.page, total: read.total! };
      return { answer: page === undefined ? { list } : { list, page }, keep: true };
    }
    const { head, rest } = read;
    const release = this.streams.acquire();
    async function* chunks(): AsyncGenerator<string> {
      try {
        yield head;
        yield* rest();
        yield ']';
      } finally {
        release();
      }
    }
    return { answer: { list: JsonList.streamed(chunks, release) }, keep: false };
  }

  /** Inserts a row naming only existing parents (400 otherwise) and returns it. */
  async create(columns: DeepPartial<T>, manager: EntityManager): Promise<T> {
    await this.references.assertParentsExist(this.records.entity, columns, manager);
    return this.refusingUnknownParents(columns, () => this.records.insert(columns, manager));
  }

  /**
   * Writes only the given columns; `check` sees the current row first and may refuse. The
   * order of answers is the contract's: 404, then the check's and references' 400 or 409, then 412.
   */
  async update(
    manager: EntityManager,
    id: string,
    columns: Partial<T>,
    ifMatch?: string,
    check?: (row: T) => Promise<void> | void,
  ): Promise<T> {
    const row = await this.findOrFail(id, manager);
    await check?.(row);
    await this.references.assertParentsExist(this.records.entity, columns, manager);
    assertIfMatch(row, ifMatch, this.name);
    const written = await this.refusingUnknownParents(columns, () =>
      this.records.update(manager, row, columns, ifMatch),
    );
    if (!written) {
      throw missedWrite(this.name, id, ifMatch);
    }
    return this.findOrFail(id, manager);
  }

  /** Deletes the row and returns it as it was; `check` may refuse first (e.g. 409), then dependents give 409. */
  async remove(
    manager: EntityManager,
    id: string,
    ifMatch?: string,
    check?: (row: T) => Promise<void> | void,
  ): Promise<T> {
    const row = await this.findOrFail(id, manager);
    await check?.(row);
    await this.references.assertUnreferenced(this.name, row.id, id, manager);
    assertIfMatch(row, ifMatch, this.name);
    const deleted = await this.records.delete(manager, row, ifMatch).catch(async (error: unknown) => {
      // A row that came to refer to this one after the count (another process writing the same
      // SQLite file): counted again outside the refused transaction, for the 409.
      if (isForeignKeyViolation(error)) {
        await this.references.assertUnreferenced(this.name, row.id, id);
      }
      throw error;
    });
    if (!deleted) {
      throw missedWrite(this.name, id, ifMatch);
    }
    return row;
  }

  /** Runs a write; a foreign key that refuses it (a parent deleted meanwhile) is the client's 400. */
  private async refusingUnknownParents<R>(columns: object, write: () => Promise<R>): Promise<R> {
    try {
      return await write();
    } catch (error) {
      throw (isForeignKeyViolation(error) && this.references.refusedReference(this.records.entity, columns)) || error;
    }
  }
}
