/**
 * Reads and conditional writes of one entity with an integer `id` and a `version` column,
 * worded for one resource name: the 404 for an unknown or impossible id, the `If-Match`
 * check done by the write itself (412), and the 404 when another request deleted the row
 * meanwhile. Feature services keep only what is particular to their resource.
 */
import {
  Brackets,
  type DeepPartial,
  type EntityManager,
  type EntityMetadata,
  type EntityTarget,
  type FindOptionsWhere,
  type SelectQueryBuilder,
} from 'typeorm';

import { SqliteStatement } from './sqlite-statement.js';
import { ResourceNotFoundException } from '../errors/api.exception.js';
import { isForeignKeyViolation } from '../errors/database-errors.js';
import type { ResourceName } from '../errors/messages.js';
import { assertIfMatch, conditionOn, missedWrite, storedId, type Versioned } from './versioning.js';
import { containsPattern, likeOperator } from './filters.js';
import { JsonList } from './json-list.js';
import type { Built, ListAnswerCache } from './list-answer-cache.js';
import type { References } from './references.js';
import type { StreamedLists } from './streamed-lists.js';
import type { ListPage, Page, Sort } from './paging.js';

const ALIAS = 'row';
/** Rows per query when a list is read in batches. */
const LIST_BATCH = 1_000;

/** What a list route asks: the filter, maybe a text search, the order, maybe a page. */
export interface ListQuery<T> {
  where: FindOptionsWhere<T>;
  /** Each: rows where any of `columns` contains `text`, ignoring case. */
  contains?: { text: string; columns: readonly string[] }[];
  sort: Sort;
  page?: Page;
}

const jsonRows = (rows: unknown[]): string => rows.map((row) => JSON.stringify(row)).join(',');

export class VersionedStore<T extends Versioned> {
  private readonly metadata: EntityMetadata;
  /** `SELECT … WHERE id = <parameter>`, built once from the entity's metadata. */
  private readonly byIdSql: string;
  /** The same statement prepared once, on SQLite. */
  private readonly byIdStatement: SqliteStatement | undefined;

  constructor(
    private readonly entity: EntityTarget<T>,
    private readonly name: ResourceName,
    private readonly manager: EntityManager,
    private readonly answers: ListAnswerCache,
    private readonly streams: StreamedLists,
    private readonly references: References,
  ) {
    this.metadata = manager.connection.getMetadata(entity);
    // TypeORM writes the SQL (column expressions differ per database, e.g. json() on SQLite); once.
    [this.byIdSql] = manager
      .createQueryBuilder(entity, ALIAS)
      // A text placeholder value keeps the parameter a parameter (drivers may inline numbers).
      .where(`${ALIAS}.id = :id`, { id: 'id' })
      .getQueryAndParameters();
    this.byIdStatement = SqliteStatement.of(manager.connection, this.byIdSql);
    references.registerParent(name, {
      exists: (id, inside) => this.exists(id, inside),
      lock: (id, inside) => this.lock(id, inside),
    });
  }

  /**
   * The row, or the 404 that names the id as it was sent. The hottest read of the service:
   * one prepared statement and the driver's own value conversions, no query building.
   */
  async findOrFail(id: string | number, manager: EntityManager = this.manager): Promise<T> {
    const key = storedId(id);
    const rows = key === undefined ? [] : await this.rowsWithId(key, manager);
    if (rows.length === 0) {
      throw new ResourceNotFoundException(this.name, id);
    }
    return this.hydrate(rows[0]);
  }

  /**
   * The rows matching the query in the asked order (ties broken by id), as JSON. A page is
   * one query plus a count. A whole list is read in batches of 1,000; one small enough to keep
   * (see ListAnswerCache) is built whole and kept, a longer one is streamed batch by batch, so
   * memory stays flat however long it is (each batch then sees the rows committed by the time
   * it is read).
   */
  list(query: ListQuery<T>): Promise<ListPage> {
    return this.answers.answer(`${this.name}\n${JSON.stringify(query)}`, () => this.build(query));
  }

  /** A filter on a reference (`shelter_id`) names an existing parent, or the answer is its 404. */
  private async build(query: ListQuery<T>): Promise<Built> {
    await this.references.assertFilteredParentsExist(this.entity, query.where, this.manager);
    if (query.page !== undefined) {
      const rows = await this.select(query)
        .offset(query.page.offset)
        .limit(query.page.limit)
        .getRawMany<Record<string, unknown>>();
      const total = await this.filtered(query).getCount();
      const list = await JsonList.whole(Buffer.from(`[${jsonRows(rows.map((row) => this.hydrate(row)))}]`));
      return { answer: { list, page: { ...query.page, total } }, keep: true };
    }
    const first = await this.batch(query);
    if (first.length < LIST_BATCH) {
      return { answer: { list: await JsonList.whole(Buffer.from(`[${jsonRows(first)}]`)) }, keep: true };
    }
    // Judged by the first batch's size: a list that fits where answers are kept is built whole.
    const head = `[${jsonRows(first)}`;
    const total = await this.filtered(query).getCount();
    if ((Buffer.byteLength(head) / first.length) * total * 1.1 <= this.answers.maxAnswerBytes) {
      const chunks = [head];
      for await (const chunk of this.rest(query, first)) {
        chunks.push(chunk);
      }
      return { answer: { list: await JsonList.whole(Buffer.from(`${chunks.join('')}]`)) }, keep: true };
    }
    const release = this.streams.acquire();
    const rest = () => this.rest(query, first);
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

  /** The batches after `first`, as JSON text each starting with a comma. */
  private async *rest(query: ListQuery<T>, first: T[]): AsyncGenerator<string> {
    let batch = first;
    while (batch.length === LIST_BATCH) {
      batch = await this.batch(query, batch[batch.length - 1]);
      if (batch.length > 0) {
        yield `,${jsonRows(batch)}`;
      }
    }
  }

  private filtered({ where, contains = [] }: ListQuery<T>): SelectQueryBuilder<T> {
    const select = this.manager.createQueryBuilder(this.entity, ALIAS);
    if (Object.keys(where).length > 0) {
      select.where(new Brackets((inner) => inner.where(where)));
    }
    const postgres = this.manager.connection.options.type === 'postgres';
    contains.forEach(({ text, columns }, index) => {
      const like = `${likeOperator(postgres)} :contains${index} ESCAPE '\\'`;
      const parameters = { [`contains${index}`]: containsPattern(text) };
      if (postgres && columns.length > 1) {
        // First the one expression a trigram index covers (see the migration), then the exact test.
        select.andWhere(`(${columns.map((column) => `${ALIAS}.${column}`).join(" || ' ' || ")}) ${like}`, parameters);
      }
      select.andWhere(
        new Brackets((inner) => {
          for (const column of columns) {
            inner.orWhere(`${ALIAS}.${column} ${like}`, parameters);
          }
        }),
      );
    });
    return select;
  }

  /** The sort column as SQL: text is compared by code point on every database. */
  private sortExpression(column: string): string {
    const text = this.metadata.findColumnWithPropertyName(column)?.type === 'text';
    return text && this.manager.connection.options.type === 'postgres'
      ? `${ALIAS}.${column} COLLATE "C"`
      : `${ALIAS}.${column}`;
  }

  private select(query: ListQuery<T>): SelectQueryBuilder<T> {
    const { column, descending } = query.sort;
    const select = this.filtered(query).orderBy(this.sortExpression(column), descending ? 'DESC' : 'ASC');
    return column === 'id' ? select : select.addOrderBy(`${ALIAS}.id`, 'ASC');
  }

  /** The batch after `last` (the first batch without it), continuing the sort order by keyset. */
  private async batch(query: ListQuery<T>, last?: T): Promise<T[]> {
    const select = this.select(query).limit(LIST_BATCH);
    if (last !== undefined) {
      const { column, descending } = query.sort;
      const after = descending ? '<' : '>';
      const value = (last as Record<string, unknown>)[column];
      if (column === 'id') {
        select.andWhere(`${ALIAS}.id ${after} :lastId`, { lastId: last.id });
      } else {
        const sorted = this.sortExpression(column);
        select.andWhere(
          new Brackets((inner) =>
            inner
              .where(`${sorted} ${after} :lastValue`, { lastValue: value })
              .orWhere(`${sorted} = :lastValue AND ${ALIAS}.id > :lastId`, { lastValue: value, lastId: last.id }),
          ),
        );
      }
    }
    const rows = await select.getRawMany<Record<string, unknown>>();
    return rows.map((row) => this.hydrate(row));
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
    await this.references.assertParentsExist(this.entity, columns, manager);
    const { identifiers } = await this.refusingUnknownParents(columns, () =>
      manager.insert(this.entity, { ...columns, version: 1 } as never),
    );
    return Object.assign(this.metadata.create(), columns, { id: identifiers[0].id as number, version: 1 }) as T;
  }

  /** Runs a write; a foreign key that refuses it (a parent deleted meanwhile) is the client's 400. */
  private async refusingUnknownParents<R>(columns: object, write: () => Promise<R>): Promise<R> {
    try {
      return await write();
    } catch (error) {
      throw (isForeignKeyViolation(error) && this.references.refusedReference(this.entity, columns)) || error;
    }
  }

  /** Holds the row until the transaction ends, so that nothing can come to refer to it (PostgreSQL). */
  private async lock(id: number, manager: EntityManager): Promise<void> {
    if (manager.connection.options.type === 'postgres') {
      await manager
        .createQueryBuilder(this.entity, ALIAS)
        .setLock('pessimistic_write')
        .where(`${ALIAS}.id = :id`, { id })
        .getRawMany();
    }
  }

  /** The row with this id, if any: SQLite's prepared statement, or the same SQL through `manager`. */
  private async rowsWithId(key: number, manager: EntityManager): Promise<Record<string, unknown>[]> {
    return this.byIdStatement?.all(key) ?? manager.query<Record<string, unknown>[]>(this.byIdSql, [key]);
  }

  /** Whether a row with this id exists (one prebuilt statement, like `findOrFail`). */
  async exists(id: string | number, manager: EntityManager = this.manager): Promise<boolean> {
    const key = storedId(id);
    return key !== undefined && (await this.rowsWithId(key, manager)).length > 0;
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
    check?: (row: T) => Promise<void> | void,
  ): Promise<T> {
    const row = await this.findOrFail(id, manager);
    // A reference problem (400) is reported before a stale If-Match (412), as the contract orders them.
    await check?.(row);
    await this.references.assertParentsExist(this.entity, columns, manager);
    assertIfMatch(row, ifMatch, this.name);
    const { affected } = await this.refusingUnknownParents(columns, () =>
      manager.update(this.entity, conditionOn(row, ifMatch), columns as never),
    );
    if (affected === 0) {
      throw missedWrite(this.name, id, ifMatch);
    }
    return this.findOrFail(id, manager);
  }

  /** Deletes the row and returns it as it was; `check` may refuse first (e.g. 409). */
  async remove(
    manager: EntityManager,
    id: string,
    ifMatch?: string,
    check?: (row: T) => Promise<void> | void,
  ): Promise<T> {
    const row = await this.findOrFail(id, manager);
    // A state conflict (409) is reported before a stale If-Match (412), as the contract orders them.
    await check?.(row);
    await this.references.assertUnreferenced(this.name, row.id, id, manager);
    assertIfMatch(row, ifMatch, this.name);
    const { affected } = await manager.delete(this.entity, conditionOn(row, ifMatch)).catch(async (error: unknown) => {
      // A row that came to refer to this one after the count (another process writing the same
      // SQLite file): counted again outside the refused transaction, for the 409.
      if (isForeignKeyViolation(error)) {
        await this.references.assertUnreferenced(this.name, row.id, id, this.manager);
      }
      throw error;
    });
    if (affected === 0) {
      throw missedWrite(this.name, id, ifMatch);
    }
    return row;
  }
}
