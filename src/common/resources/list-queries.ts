/**
 * The list queries of one entity: its filters, text search and order as SQL, read as one page
 * (rows plus a count) or as a whole list in keyset batches of 1,000. A whole list small enough
 * to keep is read in full; a longer one is handed back as batches still to read, so memory
 * stays flat however long it is (each batch then sees the rows committed by the time it is read).
 * The data layer only: what to do with the JSON is the resource's choice (see VersionedResource).
 */
import {
  Brackets,
  type DataSource,
  type EntityMetadata,
  type FindOptionsWhere,
  type SelectQueryBuilder,
} from 'typeorm';

import { containsPattern, likeOperator } from './filters.js';
import type { Page, Sort } from './paging.js';
import { hydrateRow, ROW_ALIAS, type VersionedRecords } from './versioned-records.js';
import type { Versioned } from './versioning.js';

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

/** A list read: its JSON whole (with the total for a page), or its first part and the rest still to read. */
export type ListRead = { json: string; total?: number } | { head: string; rest: () => AsyncGenerator<string> };

const jsonRows = (rows: unknown[]): string => rows.map((row) => JSON.stringify(row)).join(',');

export class ListQueries<T extends Versioned> {
  private readonly metadata: EntityMetadata;
  private readonly postgres: boolean;

  constructor(
    private readonly records: VersionedRecords<T>,
    private readonly dataSource: DataSource,
  ) {
    this.metadata = records.metadata;
    this.postgres = dataSource.options.type === 'postgres';
  }

  /**
   * The rows matching the query in the asked order (ties broken by id), as JSON. A whole list
   * is read whole when it is expected to take at most `wholeUpToBytes`, judged by its first batch.
   */
  async read(query: ListQuery<T>, wholeUpToBytes: number): Promise<ListRead> {
    if (query.page !== undefined) {
      const rows = await this.select(query)
        .offset(query.page.offset)
        .limit(query.page.limit)
        .getRawMany<Record<string, unknown>>();
      const total = await this.filtered(query).getCount();
      return { json: `[${jsonRows(rows.map((row) => this.hydrate(row)))}]`, total };
    }
    const first = await this.batch(query);
    if (first.length < LIST_BATCH) {
      return { json: `[${jsonRows(first)}]` };
    }
    const head = `[${jsonRows(first)}`;
    const total = await this.filtered(query).getCount();
    if ((Buffer.byteLength(head) / first.length) * total * 1.1 <= wholeUpToBytes) {
      const chunks = [head];
      for await (const chunk of this.rest(query, first)) {
        chunks.push(chunk);
      }
      return { json: `${chunks.join('')}]` };
    }
    return { head, rest: () => this.rest(query, first) };
  }

  /** The batches after `first`, as JSON text each starting with a comma, then the closing bracket. */
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
    const select = this.dataSource.createQueryBuilder(this.records.entity, ROW_ALIAS);
    if (Object.keys(where).length > 0) {
      select.where(new Brackets((inner) => inner.where(where)));
    }
    contains.forEach(({ text, columns }, index) => {
      const like = `${likeOperator(this.postgres)} :contains${index} ESCAPE '\\'`;
      const parameters = { [`contains${index}`]: containsPattern(text) };
      if (this.postgres && columns.length > 1) {
        // First the one expression a trigram index covers (see the migration), then the exact test.
        select.andWhere(
          `(${columns.map((column) => `${ROW_ALIAS}.${column}`).join(" || ' ' || ")}) ${like}`,
          parameters,
        );
      }
      select.andWhere(
        new Brackets((inner) => {
          for (const column of columns) {
            inner.orWhere(`${ROW_ALIAS}.${column} ${like}`, parameters);
          }
        }),
      );
    });
    return select;
  }

  /** The sort column as SQL: text is compared by code point on every database. */
  private sortExpression(column: string): string {
    const text = this.metadata.findColumnWithPropertyName(column)?.type === 'text';
    return text && this.postgres ? `${ROW_ALIAS}.${column} COLLATE "C"` : `${ROW_ALIAS}.${column}`;
  }

  private select(query: ListQuery<T>): SelectQueryBuilder<T> {
    const { column, descending } = query.sort;
    const select = this.filtered(query).orderBy(this.sortExpression(column), descending ? 'DESC' : 'ASC');
    return column === 'id' ? select : select.addOrderBy(`${ROW_ALIAS}.id`, 'ASC');
  }

  /** The batch after `last` (the first batch without it), continuing the sort order by keyset. */
  private async batch(query: ListQuery<T>, last?: T): Promise<T[]> {
    const select = this.select(query).limit(LIST_BATCH);
    if (last !== undefined) {
      const { column, descending } = query.sort;
      const after = descending ? '<' : '>';
      const value = (last as Record<string, unknown>)[column];
      if (column === 'id') {
        select.andWhere(`${ROW_ALIAS}.id ${after} :lastId`, { lastId: last.id });
      } else {
        const sorted = this.sortExpression(column);
        select.andWhere(
          new Brackets((inner) =>
            inner
              .where(`${sorted} ${after} :lastValue`, { lastValue: value })
              .orWhere(`${sorted} = :lastValue AND ${ROW_ALIAS}.id > :lastId`, { lastValue: value, lastId: last.id }),
          ),
        );
      }
    }
    const rows = await select.getRawMany<Record<string, unknown>>();
    return rows.map((row) => this.hydrate(row));
  }

  private hydrate(row: Record<string, unknown>): T {
    return hydrateRow<T>(this.dataSource, this.metadata, row);
  }
}
