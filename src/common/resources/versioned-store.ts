/**
 * Reads and conditional writes of one entity with an integer `id` and a `version` column,
 * worded for one resource name: the 404 for an unknown or impossible id, the `If-Match`
 * check done by the write itself (412), and the 404 when another request deleted the row
 * meanwhile. Feature services keep only what is particular to their resource.
 */
import { LRUCache } from 'lru-cache';
import type { DeepPartial, EntityManager, EntityMetadata, EntityTarget, FindOptionsWhere } from 'typeorm';

import { ResourceNotFoundException } from '../errors/api.exception.js';
import type { ResourceName } from '../errors/messages.js';
import { assertIfMatch, conditionOn, missedWrite, type Versioned } from '../http/etag.js';
import { storedId } from '../http/resource-id.decorator.js';
import { JsonList } from './json-list.js';

const ALIAS = 'row';
/** Rows per query when a list is streamed. */
const LIST_BATCH = 1_000;
/** Bytes of list answers one store keeps, and the longest answer it keeps. */
const CACHE_BYTES = 32 * 1024 * 1024;
const CACHE_ANSWER_BYTES = 4 * 1024 * 1024;

/**
 * Says whether the stored data may have changed since an earlier call: a different token
 * means it may have. `undefined` means answers cannot be kept (another process may write
 * without this one being able to tell).
 */
export interface DataVersion {
  dataVersion(): Promise<string | undefined>;
}

interface KeptList {
  version: string;
  list: JsonList;
}

export class VersionedStore<T extends Versioned> {
  private readonly metadata: EntityMetadata;
  /** `SELECT … WHERE id = <parameter>`, built once from the entity's metadata. */
  private readonly byIdSql: string;

  /** List answers by filter, each valid while the data version it was read at is current. */
  private readonly lists = new LRUCache<string, KeptList>({
    maxSize: CACHE_BYTES,
    sizeCalculation: (kept) => Math.max(1, kept.list.length ?? 0),
  });

  constructor(
    private readonly entity: EntityTarget<T>,
    private readonly name: ResourceName,
    private readonly manager: EntityManager,
    private readonly versions?: DataVersion,
  ) {
    this.metadata = manager.connection.getMetadata(entity);
    // TypeORM writes the SQL (column expressions differ per database, e.g. json() on SQLite); once.
    [this.byIdSql] = manager
      .createQueryBuilder(entity, ALIAS)
      // A text placeholder value keeps the parameter a parameter (drivers may inline numbers).
      .where(`${ALIAS}.id = :id`, { id: 'id' })
      .getQueryAndParameters();
  }

  /**
   * The row, or the 404 that names the id as it was sent. The hottest read of the service:
   * one prepared statement and the driver's own value conversions, no query building.
   */
  async findOrFail(id: string | number, manager: EntityManager = this.manager): Promise<T> {
    const key = storedId(id);
    const rows = key === undefined ? [] : await manager.query<Record<string, unknown>[]>(this.byIdSql, [key]);
    if (rows.length === 0) {
      throw new ResourceNotFoundException(this.name, id);
    }
    return this.hydrate(rows[0]);
  }

  /**
   * The rows matching `where`, ordered by id, as JSON. A list that fits in one batch is
   * answered whole; a longer one is streamed, batch by batch, so memory stays flat however
   * long it is (each batch then sees the rows committed by the time it is read). An answer
   * of up to 4 MB is kept and served again until the data changes.
   */
  async list(where: FindOptionsWhere<T>): Promise<JsonList> {
    const version = await this.versions?.dataVersion();
    const key = JSON.stringify(Object.entries(where).sort(([a], [b]) => a.localeCompare(b)));
    const kept = this.lists.get(key);
    if (kept !== undefined && kept.version === version) {
      return kept.list;
    }
    const keep =
      version === undefined ? undefined : (list: JsonList) => this.lists.set(key, { version, list });
    const first = await this.batch(where, 0);
    if (first.length < LIST_BATCH) {
      const list = JsonList.whole(Buffer.from(JSON.stringify(first)));
      keep?.(list);
      return list;
    }
    return JsonList.streamed(() => this.jsonArray(where, first, keep));
  }

  private async batch(where: FindOptionsWhere<T>, after: number): Promise<T[]> {
    const rows = await this.manager
      .createQueryBuilder(this.entity, ALIAS)
      .where(where)
      .andWhere(`${ALIAS}.id > :after`, { after })
      .orderBy(`${ALIAS}.id`, 'ASC')
      .limit(LIST_BATCH)
      .getRawMany<Record<string, unknown>>();
    return rows.map((row) => this.hydrate(row));
  }

  /** The list as JSON text, batch by batch; a short enough one is handed to `keep` at the end. */
  private async *jsonArray(
    where: FindOptionsWhere<T>,
    first: T[],
    keep?: (list: JsonList) => unknown,
  ): AsyncGenerator<string> {
    const chunks: Buffer[] = [];
    let bytes = keep === undefined ? Infinity : 0;
    const chunk = (text: string): string => {
      if (bytes <= CACHE_ANSWER_BYTES) {
        const buffer = Buffer.from(text);
        bytes += buffer.length;
        chunks.push(buffer);
      }
      return text;
    };
    let batch = first;
    yield chunk(`[${batch.map((row) => JSON.stringify(row)).join(',')}`);
    while (batch.length === LIST_BATCH) {
      batch = await this.batch(where, batch[batch.length - 1].id);
      if (batch.length > 0) {
        yield chunk(`,${batch.map((row) => JSON.stringify(row)).join(',')}`);
      }
    }
    yield chunk(']');
    if (bytes <= CACHE_ANSWER_BYTES) {
      keep?.(JsonList.whole(Buffer.concat(chunks)));
    }
  }

  private hydrate(row: Record<string, unknown>): T {
    const { driver } = this.manager.connection;
    const entity = this.metadata.create() as Record<string, unknown>;
    for (const column of this.metadata.columns) {
      entity[column.propertyName] = driver.prepareHydratedValue(row[`${ALIAS}_${column.databaseName}`], column);
    }
    return entity as T;
  }

  /**
   * Inserts a row and returns it without reading it back: every column is known but the
   * generated id, and a new row's version is 1.
   */
  async create(columns: DeepPartial<T>, manager: EntityManager = this.manager): Promise<T> {
    const { identifiers } = await manager.insert(this.entity, { ...columns, version: 1 } as never);
    return Object.assign(this.metadata.create(), columns, { id: identifiers[0].id as number, version: 1 }) as T;
  }

  /** Whether a row with this id exists (one prebuilt statement, like `findOrFail`). */
  async exists(id: string | number, manager: EntityManager = this.manager): Promise<boolean> {
    const key = storedId(id);
    return key !== undefined && (await manager.query<unknown[]>(this.byIdSql, [key])).length > 0;
  }

  /**
   * Writes only the given columns, in one statement (so concurrent updates of other fields
   * survive); the version in its WHERE makes the `If-Match` check and the write one step.
   */
  async update(
    manager: EntityManager,
    id: string,
    columns: Partial<T>,
    ifMatch?: string,
    check?: (row: T) => Promise<void>,
  ): Promise<T> {
    const row = await this.findOrFail(id, manager);
    // A reference problem (400) is reported before a stale If-Match (412), as API.md §3 orders them.
    await check?.(row);
    assertIfMatch(row, ifMatch, this.name);
    const { affected } = await manager.update(this.entity, conditionOn(row, ifMatch), columns as never);
    if (affected === 0) {
      throw missedWrite(this.name, id, ifMatch);
    }
    return this.findOrFail(id, manager);
  }

  /** Deletes the row and returns it as it was; `check` may refuse first (e.g. 409). */
  async remove(manager: EntityManager, id: string, ifMatch?: string, check?: (row: T) => Promise<void>): Promise<T> {
    const row = await this.findOrFail(id, manager);
    // A state conflict (409) is reported before a stale If-Match (412), as API.md §3 orders them.
    await check?.(row);
    assertIfMatch(row, ifMatch, this.name);
    const { affected } = await manager.delete(this.entity, conditionOn(row, ifMatch));
    if (affected === 0) {
      throw missedWrite(this.name, id, ifMatch);
    }
    return row;
  }
}
