/**
 * A statement PostgreSQL prepares once per pooled connection (a named statement of the pg
 * driver), for reads made outside transactions. TypeORM's `manager.query` sends unnamed
 * statements, which PostgreSQL parses and plans again on every call, and takes a query runner
 * for each; the reads made on every request skip both here.
 */
import { createHash } from 'node:crypto';

import type { DataSource } from 'typeorm';

/** What is used of the pg driver's pool. */
interface Pool {
  query<T>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: T[] }>;
}

export class PostgresStatement {
  private constructor(
    private readonly pool: Pool,
    private readonly sql: string,
    /** Named after its text, so two statements never share a name. */
    private readonly name = `adoption_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`,
  ) {}

  /** The statement for `sql` on PostgreSQL; undefined on SQLite. */
  static of(dataSource: DataSource, sql: string): PostgresStatement | undefined {
    if (dataSource.options.type !== 'postgres') {
      return undefined;
    }
    return new PostgresStatement((dataSource.driver as unknown as { master: Pool }).master, sql);
  }

  /** Every row, as TypeORM's `manager.query` gives them. */
  async all<T>(...parameters: unknown[]): Promise<T[]> {
    const { rows } = await this.pool.query<T>({ name: this.name, text: this.sql, values: parameters });
    return rows;
  }
}
