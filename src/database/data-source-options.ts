/**
 * The one TypeORM options object, shared by the application and by `ormconfig.ts`
 * (the TypeORM CLI's data source, which adds the entity files). The schema comes from migrations only: the service
 * runs them at start-up (see `migrate.ts`), the CLI with `npm run migration:run`.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

import type Database from 'better-sqlite3';
import type { DataSourceOptions } from 'typeorm';

import { InitialSchema1763800000000 } from './migrations/1763800000000-initial-schema.js';
import { ListsHistoryIdempotency1763900000000 } from './migrations/1763900000000-lists-history-idempotency.js';
import { ShelterLocation1764000000000 } from './migrations/1764000000000-shelter-location.js';
import { Interests1764100000000 } from './migrations/1764100000000-interests.js';
import { EventsWebhooks1764200000000 } from './migrations/1764200000000-events-webhooks.js';

export const migrations = [
  InitialSchema1763800000000,
  ListsHistoryIdempotency1763900000000,
  ShelterLocation1764000000000,
  Interests1764100000000,
  EventsWebhooks1764200000000,
];

const SQLITE_PREFIX = 'sqlite:';
const POSTGRES_POOL_SIZE = 10;
const POSTGRES_CONNECT_TIMEOUT_MS = 3_000;

/** Builds the options for `DATABASE_URL`: `sqlite:<path>`, `sqlite::memory:` or `postgres://…`. */
export function buildDataSourceOptions(databaseUrl: string): DataSourceOptions {
  // Entities come from the modules (TypeOrmModule.forFeature) in the application, and from the
  // compiled entity files for the CLI (ormconfig.ts): the database layer names no feature.
  const common = { migrations, migrationsRun: false, synchronize: false } as const;
  if (databaseUrl.startsWith(SQLITE_PREFIX)) {
    const database = databaseUrl.slice(SQLITE_PREFIX.length);
    if (database !== ':memory:') {
      mkdirSync(dirname(database), { recursive: true });
    }
    return {
      ...common,
      type: 'better-sqlite3',
      database,
      // WAL keeps readers off the writer's back; synchronous=FULL makes a committed write durable.
      prepareDatabase: (db: Database.Database) => {
        db.pragma('journal_mode = WAL');
        db.pragma('synchronous = FULL');
        db.pragma('busy_timeout = 5000');
      },
    };
  }
  return {
    ...common,
    type: 'postgres',
    url: databaseUrl,
    // A dead or unreachable server fails requests quickly (503) instead of holding them.
    extra: { max: POSTGRES_POOL_SIZE, connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS },
  };
}
