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
  type EntityTarget,
  type FindOptionsWhere,
  type ObjectLiteral,
  type SelectQueryBuilder,
} from 'typeorm';

import { boxAround, EARTH_RADIUS_MILES } from '../geo/geo.js';
import { containsPattern, likeOperator } from './filters.js';
import type { Near } from './near.js';
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
  /**
   * A location search: rows whose point lies within `miles` (see near.ts); the point is the
   * row's own, or with `through` that of the row this reference column names (a pet's shelter).
   */
  near?: Near & { through?: string };
}

/**
 * Whose point a location search measures: the row's own `latitude` and `longitude` columns, or
 * those of the row its `column` refers to (a pet's shelter).
 */
export interface PointSource {
  entity: EntityTarget<ObjectLiteral>;
  column: string;
}

/** The alias of the row that holds the point when it is another entity's. */
const PLACE = 'place';

/** A list read: its JSON whole (with the total for a page), or its first part and the rest still to read. */
export type ListRead = { json: string; total?: number } | { head: string; rest: () => AsyncGenerator<string> };

export class ListQueries<T extends Versioned> {
  private readonly metadata: EntityMetadata;
  private readonly postgres: boolean;
  /** The distance of each row read by a location search, from the query itself. */
  private readonly distances = new WeakMap<T, number>();

  constructor(
    private readonly records: VersionedRecords<T>,
    private readonly dataSource: DataSource,
  ) {
    this.metadata = records.metadata;
    this.postgres = dataSource.options.type === 'postgres';
  }

  /** The rows as JSON, each with its `distance` (miles, one decimal) after `id` when it was measured. */
  private jsonRows(rows: T[]): string {
    return rows
      .map((row) => {
        const json = JSON.stringify(row);
        const miles = this.distances.get(row);
        return miles === undefined ? json : `${json.slice(0, -1)},"distance":${Math.round(miles * 10) / 10}}`;
      })
      .join(',');
  }

  /** The great-circle distance in miles from the searched point to the row's point, as SQL. */
  private distanceSql(source: PointSource | undefined): string {
    const point = source === undefined ? ROW_ALIAS : PLACE;
    const [latitude, longitude] = [`${point}.latitude`, `${point}.longitude`];
    const least = this.postgres ? 'least' : 'min';
    const h =
      `power(sin(radians(${latitude} - :nearLatitude) / 2), 2) + ` +
      `cos(radians(:nearLatitude)) * cos(radians(${latitude})) * power(sin(radians(${longitude} - :nearLongitude) / 2), 2)`;
    return `(${2 * EARTH_RADIUS_MILES} * asin(${least}(1, sqrt(${h}))))`;
  }

  /**
   * The rows matching the query in the asked order (ties broken by id), as JSON. A whole list
   * is read whole when it is expected to take at most `wholeUpToBytes`, judged by its first batch.
   */
  async read(query: ListQuery<T>, wholeUpToBytes: number, source?: PointSource): Promise<ListRead> {
    const select = new Selection(query, source);
    if (query.page !== undefined) {
      const rows = await this.select(select)
        .offset(query.page.offset)
        .limit(query.page.limit)
        .getRawMany<Record<string, unknown>>();
      const total = await this.filtered(select).getCount();
      return { json: `[${this.jsonRows(rows.map((row) => this.hydrate(row)))}]`, total };
    }
    const first = await this.batch(select);
    if (first.length < LIST_BATCH) {
      return { json: `[${this.jsonRows(first)}]` };
    }
    const head = `[${this.jsonRows(first)}`;
    const total = await this.filtered(select).getCount();
    if ((Buffer.byteLength(head) / first.length) * total * 1.1 <= wholeUpToBytes) {
      const chunks = [head];
      for await (const chunk of this.rest(select, first)) {
        chunks.push(chunk);
      }
      return { json: `${chunks.join('')}]` };
    }
    return { head, rest: () => this.rest(select, first) };
  }

  /** The batches after `first`, as JSON text each starting with a comma, then the closing bracket. */
  private async *rest(selection: Selection<T>, first: T[]): AsyncGenerator<string> {
    let batch = first;
    while (batch.length === LIST_BATCH) {
      batch = await this.batch(selection, batch[batch.length - 1]);
      if (batch.length > 0) {
        yield `,${this.jsonRows(batch)}`;
      }
    }
  }

  private filtered({ query, source }: Selection<T>): SelectQueryBuilder<T> {
    const { where, contains = [], near } = query;
    const select = this.dataSource.createQueryBuilder(this.records.entity, ROW_ALIAS);
    if (Object.keys(where).length > 0) {
      select.where(new Brackets((inner) => inner.where(where)));
    }
    if (near !== undefined) {
      // The box on the indexed coordinates first, then the exact distance.
      const point = source === undefined ? ROW_ALIAS : PLACE;
      if (source !== undefined) {
        select.innerJoin(
          this.dataSource.getMetadata(source.entity).target,
          PLACE,
          `${PLACE}.id = ${ROW_ALIAS}.${source.column}`,
        );
      }
      const box = boxAround(near, near.miles);
      select.andWhere(`${point}.latitude BETWEEN :minLatitude AND :maxLatitude`, {
        minLatitude: box.minLatitude,
        maxLatitude: box.maxLatitude,
      });
      if (box.longitudes !== undefined) {
        select.andWhere(`${point}.longitude BETWEEN :minLongitude AND :maxLongitude`, {
          minLongitude: box.longitudes.min,
          maxLongitude: box.longitudes.max,
        });
      }
      select.andWhere(`${this.distanceSql(source)} <= :nearMiles`, {
        nearLatitude: near.latitude,
        nearLongitude: near.longitude,
        nearMiles: near.miles,
      });
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

  /** The sort column as SQL: text is compared by code point on every database; `distance` is measured. */
  private sortExpression(column: string, source: PointSource | undefined): string {
    if (column === 'distance') {
      return this.distanceSql(source);
    }
    const text = this.metadata.findColumnWithPropertyName(column)?.type === 'text';
    return text && this.postgres ? `${ROW_ALIAS}.${column} COLLATE "C"` : `${ROW_ALIAS}.${column}`;
  }

  private select(selection: Selection<T>): SelectQueryBuilder<T> {
    const { column, descending } = selection.query.sort;
    const select = this.filtered(selection).orderBy(
      this.sortExpression(column, selection.source),
      descending ? 'DESC' : 'ASC',
    );
    if (selection.query.near !== undefined) {
      select.addSelect(this.distanceSql(selection.source), `${ROW_ALIAS}_distance`);
    }
    return column === 'id' ? select : select.addOrderBy(`${ROW_ALIAS}.id`, 'ASC');
  }

  /** The batch after `last` (the first batch without it), continuing the sort order by keyset. */
  private async batch(selection: Selection<T>, last?: T): Promise<T[]> {
    const select = this.select(selection).limit(LIST_BATCH);
    if (last !== undefined) {
      const { column, descending } = selection.query.sort;
      const after = descending ? '<' : '>';
      const value = column === 'distance' ? this.distances.get(last) : (last as Record<string, unknown>)[column];
      if (column === 'id') {
        select.andWhere(`${ROW_ALIAS}.id ${after} :lastId`, { lastId: last.id });
      } else {
        const sorted = this.sortExpression(column, selection.source);
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
    const entity = hydrateRow<T>(this.dataSource, this.metadata, row);
    const distance = row[`${ROW_ALIAS}_distance`];
    if (distance !== undefined && distance !== null) {
      this.distances.set(entity, Number(distance));
    }
    return entity;
  }
}

/** One list read: the query and whose point its location search measures. */
class Selection<T> {
  constructor(
    readonly query: ListQuery<T>,
    readonly source: PointSource | undefined,
  ) {}
}
