/**
 * A statement prepared once on better-sqlite3's own connection. TypeORM prepares a statement
 * again on every `manager.query` (its statement cache belongs to a query runner, and each
 * call takes a new one), so the reads made on every request keep theirs here. SQLite has a
 * single connection, inside transactions too, so the statement sees what TypeORM's queries see.
 */
import type Database from 'better-sqlite3';
import type { DataSource } from 'typeorm';

export class SqliteStatement {
  private statement?: Database.Statement;

  private constructor(
    private readonly connection: Database.Database,
    private readonly sql: string,
  ) {}

  /** The statement for `sql` on SQLite; undefined on PostgreSQL. */
  static of(dataSource: DataSource, sql: string): SqliteStatement | undefined {
    if (dataSource.options.type !== 'better-sqlite3') {
      return undefined;
    }
    const { databaseConnection } = dataSource.driver as unknown as { databaseConnection: Database.Database };
    return new SqliteStatement(databaseConnection, sql);
  }

  /** Every row, as TypeORM's `manager.query` gives them. Prepared on first use. */
  all<T>(...parameters: unknown[]): T[] {
    this.statement ??= this.connection.prepare(this.sql);
    return this.statement.all(...parameters) as T[];
  }
}
