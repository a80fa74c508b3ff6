/**
 * Databases and Redis namespaces for tests. `npm test` uses SQLite; `npm run test:postgres`
 * sets TEST_DATABASE_URL (a PostgreSQL server to create databases on) and TEST_REDIS_URL,
 * and every test app then gets a database of its own and a Redis key prefix of its own,
 * both removed when the test is done. Nothing assumes the servers are empty.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Redis } from 'ioredis';
import pg from 'pg';

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL;
export const onPostgres = TEST_DATABASE_URL?.startsWith('postgres') ?? false;

export interface Provisioned {
  /** Environment variables that point a service at the provisioned resources. */
  env: Record<string, string>;
  release(): Promise<void>;
}

function uniqueName(prefix: string): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

async function onServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A new, empty PostgreSQL database on the test server. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = uniqueName('adoption_test');
  await onServer((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () =>
      onServer((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/** A key prefix of its own on the test Redis, and the removal of its keys. */
export function createRedisNamespace(): { prefix: string; clear: () => Promise<void> } {
  const prefix = `${uniqueName('adoption_test')}:`;
  return {
    prefix,
    clear: async () => {
      const redis = new Redis(TEST_REDIS_URL!);
      try {
        const keys = await redis.keys(`${prefix}*`);
        if (keys.length > 0) {
          await redis.del(...keys);
        }
      } finally {
        redis.disconnect();
      }
    },
  };
}

/**
 * Storage for one test app: on SQLite an in-memory database, or a file when it must outlive
 * the app (`durable`); on PostgreSQL a new database. Plus a Redis namespace when configured.
 */
export async function provision({ durable = false } = {}): Promise<Provisioned> {
  const env: Record<string, string> = {};
  const releases: (() => Promise<void> | void)[] = [];
  if (onPostgres) {
    const database = await createPostgresDatabase();
    env.DATABASE_URL = database.url;
    releases.push(database.drop);
  } else if (durable) {
    const dir = mkdtempSync(join(tmpdir(), 'adoption-test-'));
    env.DATABASE_URL = `sqlite:${join(dir, 'adoption.sqlite')}`;
    releases.push(() => rmSync(dir, { recursive: true, force: true }));
  } else {
    env.DATABASE_URL = 'sqlite::memory:';
  }
  if (TEST_REDIS_URL !== undefined) {
    const namespace = createRedisNamespace();
    env.REDIS_URL = TEST_REDIS_URL;
    env.REDIS_KEY_PREFIX = namespace.prefix;
    releases.push(namespace.clear);
  }
  return {
    env,
    async release() {
      for (const release of releases) {
        await release();
      }
    },
  };
}
