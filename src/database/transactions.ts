/**
 * Runs multi-statement writes in one transaction each. PostgreSQL gives each transaction
 * its own connection. better-sqlite3 gives TypeORM a single connection, so on SQLite the
 * writes queue, and the queue commits in groups: the writes waiting at that moment run one
 * after another inside one transaction, each in a savepoint of its own (a failing write is
 * rolled back alone and gets its own error), and one COMMIT makes them all durable. No
 * write is acknowledged before that COMMIT. One disk flush per group instead of per write
 * is what lets concurrent writes scale with `synchronous=FULL`.
 *
 * It also tells readers whether the data may have changed (`dataVersion`), so that list
 * answers can be kept until then: this process's writes on both databases, and on SQLite
 * other connections' commits too.
 */
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, type QueryRunner } from 'typeorm';

import type { DataVersion } from '../common/resources/list-answer-cache.js';
import { SqliteStatement } from '../common/resources/sqlite-statement.js';

/** The most writes one COMMIT carries. */
const MAX_GROUP = 64;
const SAVEPOINT = 'write';

interface QueuedWrite {
  work: (manager: EntityManager) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** How often SQLite is asked whether another connection (a seed script) has committed. */
const EXTERNAL_WRITES_CHECK_MS = 100;

@Injectable()
export class Transactions implements DataVersion {
  private readonly queue: QueuedWrite[] = [];
  private draining = false;
  private readonly grouped: boolean;
  /** Transactions (on SQLite, groups) this process has finished, committed or rolled back. */
  private finishedGroups = 0;
  /** Asked of better-sqlite3 directly, synchronously. */
  private readonly sqliteDataVersion: SqliteStatement | undefined;
  /** SQLite's `data_version` when last asked, and when that was (`performance.now()`). */
  private externalVersion = 0;
  private externalCheckedAt = -Infinity;

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.grouped = dataSource.options.type === 'better-sqlite3';
    this.sqliteDataVersion = SqliteStatement.of(dataSource, 'PRAGMA data_version');
  }

  /** On SQLite every commit to the file is seen (`data_version`); on PostgreSQL other instances write unseen. */
  get seesEveryWrite(): boolean {
    return this.sqliteDataVersion !== undefined;
  }

  /**
   * Changes whenever data may have changed: after each write of this process, and (SQLite's
   * `data_version`) within EXTERNAL_WRITES_CHECK_MS of a commit by another connection to the
   * same file, such as a seed script.
   */
  dataVersion(): string {
    if (this.sqliteDataVersion === undefined) {
      return String(this.finishedGroups);
    }
    // Asking SQLite costs about as much as reading a row; other connections' commits are
    // rare (a seed script), so they are looked for at most every EXTERNAL_WRITES_CHECK_MS.
    const now = performance.now();
    if (now - this.externalCheckedAt >= EXTERNAL_WRITES_CHECK_MS) {
      this.externalCheckedAt = now;
      [{ data_version: this.externalVersion }] = this.sqliteDataVersion.all<{ data_version: number }>();
    }
    return `${this.finishedGroups}:${this.externalVersion}`;
  }

  run<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    if (!this.grouped) {
      return this.dataSource.transaction(work).finally(() => this.finishedGroups++);
    }
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) {
        this.draining = true;
        // Let the writes that arrive in this turn of the event loop join the group.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      await this.commitGroup(this.queue.splice(0, MAX_GROUP));
    }
    this.draining = false;
  }

  private async commitGroup(group: QueuedWrite[]): Promise<void> {
    const runner = this.dataSource.createQueryRunner();
    const outcomes: (() => void)[] = [];
    try {
      await runner.startTransaction();
      for (const write of group) {
        outcomes.push(await this.runInSavepoint(runner, write));
      }
      await runner.commitTransaction();
      outcomes.forEach((settle) => settle());
    } catch (error) {
      if (runner.isTransactionActive) {
        await runner.rollbackTransaction().catch(() => undefined);
      }
      group.forEach((write) => write.reject(error));
    } finally {
      this.finishedGroups++;
      await runner.release();
    }
  }

  /** Runs one write; returns how to settle its promise once the group has committed. */
  private async runInSavepoint(runner: QueryRunner, write: QueuedWrite): Promise<() => void> {
    await runner.query(`SAVEPOINT ${SAVEPOINT}`);
    try {
      const value = await write.work(runner.manager);
      await runner.query(`RELEASE ${SAVEPOINT}`);
      return () => write.resolve(value);
    } catch (error) {
      await runner.query(`ROLLBACK TO ${SAVEPOINT}`);
      await runner.query(`RELEASE ${SAVEPOINT}`);
      return () => write.reject(error);
    }
  }
}
