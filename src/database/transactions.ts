/**
 * Runs multi-statement writes in one transaction. better-sqlite3 gives TypeORM a single
 * connection, so two transactions in flight at once would interleave on it; on SQLite the
 * writes therefore queue behind each other. PostgreSQL gives each transaction its own connection.
 */
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';

@Injectable()
export class Transactions {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly serialised: boolean;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.serialised = dataSource.options.type === 'better-sqlite3';
  }

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!this.serialised) {
      return this.dataSource.transaction(work);
    }
    const result = this.queue.then(() => this.dataSource.transaction(work));
    this.queue = result.catch(() => undefined);
    return result;
  }
}
