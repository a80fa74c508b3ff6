/**
 * Brings the schema up to date at start-up. On PostgreSQL several instances may start at
 * once against one database; a session-level advisory lock lets one of them migrate while
 * the others wait, then find nothing left to do.
 */
import type { DataSource } from 'typeorm';

/** An arbitrary, fixed key for pg_advisory_lock: "adoption-service migrations". */
const MIGRATION_LOCK_KEY = 7_140_425_311;

export async function migrate(dataSource: DataSource): Promise<DataSource> {
  if (dataSource.options.type !== 'postgres') {
    await dataSource.runMigrations({ transaction: 'all' });
    return dataSource;
  }
  const lock = dataSource.createQueryRunner();
  try {
    await lock.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await dataSource.runMigrations({ transaction: 'all' });
  } finally {
    await lock.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await lock.release();
  }
  return dataSource;
}
