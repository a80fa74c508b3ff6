/**
 * Reads and conditional writes of the rows of one entity with an integer `id` and a `version`
 * column. The data layer only: it answers "no such row" and "the write touched nothing" as
 * values, and the resource (see VersionedResource) chooses the HTTP answer.
 */
import type { DataSource, DeepPartial, EntityManager, EntityMetadata, EntityTarget } from 'typeorm';

import { PostgresStatement } from './postgres-statement.js';
import { SqliteStatement } from './sqlite-statement.js';
import { conditionOn, type Versioned } from './versioning.js';

/** The alias rows are selected under; raw columns come back as `row_<column>`. */
export const ROW_ALIAS = 'row';

/** Turns a raw row selected under ROW_ALIAS into an entity, with the driver's own value conversions. */
export function hydrateRow<T>(dataSource: DataSource, metadata: EntityMetadata, row: Record<string, unknown>): T {
  const entity = metadata.create() as Record<string, unknown>;
  for (const column of metadata.columns) {
    entity[column.propertyName] = dataSource.driver.prepareHydratedValue(
      row[`${ROW_ALIAS}_${column.databaseName}`],
      column,
    );
  }
  return entity as T;
}

export class VersionedRecords<T extends Versioned> {
  readonly metadata: EntityMetadata;
  /** `SELECT … WHERE id = <parameter>`, built once from the entity's metadata. */
  private readonly byIdSql: string;
  /** The same statement prepared once, on SQLite. */
  private readonly byIdStatement: SqliteStatement | undefined;
  /** The same statement prepared once per connection, on PostgreSQL, for reads outside transactions. */
  private readonly byIdPrepared: PostgresStatement | undefined;

  constructor(
    readonly entity: EntityTarget<T>,
    private readonly dataSource: DataSource,
  ) {
    this.metadata = dataSource.getMetadata(entity);
    // TypeORM writes the SQL (column expressions differ per database, e.g. json() on SQLite); once.
    [this.byIdSql] = dataSource
      .createQueryBuilder(entity, ROW_ALIAS)
      // A text placeholder value keeps the parameter a parameter (drivers may inline numbers).
      .where(`${ROW_ALIAS}.id = :id`, { id: 'id' })
      .getQueryAndParameters();
    this.byIdStatement = SqliteStatement.of(dataSource, this.byIdSql);
    this.byIdPrepared = PostgresStatement.of(dataSource, this.byIdSql);
  }

  /**
   * The row with this id, if any. The hottest read of the service: one prepared statement and
   * the driver's own value conversions, no query building.
   */
  async find(id: number, manager: EntityManager = this.dataSource.manager): Promise<T | undefined> {
    const rows =
      this.byIdStatement?.all<Record<string, unknown>>(id) ??
      (manager === this.dataSource.manager ? await this.byIdPrepared?.all<Record<string, unknown>>(id) : undefined) ??
      (await manager.query<Record<string, unknown>[]>(this.byIdSql, [id]));
    return rows.length === 0 ? undefined : hydrateRow<T>(this.dataSource, this.metadata, rows[0]);
  }

  /**
   * Inserts a row and returns it without reading it back: every column is known but the
   * generated id, and a new row's version is 1.
   */
  async insert(columns: DeepPartial<T>, manager: EntityManager): Promise<T> {
    const { identifiers } = await manager.insert(this.entity, { ...columns, version: 1 } as never);
    return Object.assign(this.metadata.create(), columns, { id: identifiers[0].id as number, version: 1 }) as T;
  }

  /**
   * Writes only the given columns of `row`, in one statement (so concurrent updates of other
   * fields survive); with `ifMatch`, the version read is part of the WHERE, so the check and
   * the write are one step. False when no row was written.
   */
  async update(manager: EntityManager, row: T, columns: Partial<T>, ifMatch?: string): Promise<boolean> {
    const { affected } = await manager.update(this.entity, conditionOn(row, ifMatch), columns as never);
    return affected !== 0;
  }

  /** Deletes `row` under the same condition as `update`; false when no row was deleted. */
  async delete(manager: EntityManager, row: T, ifMatch?: string): Promise<boolean> {
    const { affected } = await manager.delete(this.entity, conditionOn(row, ifMatch));
    return affected !== 0;
  }

  /** Holds the row until the transaction ends, so that nothing can come to refer to it (PostgreSQL). */
  async lock(id: number, manager: EntityManager): Promise<void> {
    if (this.dataSource.options.type === 'postgres') {
      await manager
        .createQueryBuilder(this.entity, ROW_ALIAS)
        .setLock('pessimistic_write')
        .where(`${ROW_ALIAS}.id = :id`, { id })
        .getRawMany();
    }
  }
}
