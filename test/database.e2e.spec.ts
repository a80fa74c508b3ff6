/**
 * The storage the suite runs on: SQLite for `npm test`, PostgreSQL and Redis for
 * `npm run test:postgres`. Column types fit each database and values round-trip exactly.
 */
import type { INestApplication } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { DataSource } from 'typeorm';

import type { RateLimitStorage } from '../src/rate-limit/rate-limit.storage.js';
import { createPet, createShelter, http, startApp } from './support/app.js';
import { onPostgres, TEST_REDIS_URL } from './support/database.js';

describe('storage', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it(`runs on ${onPostgres ? 'PostgreSQL' : 'SQLite'}`, () => {
    expect(app.get(DataSource).options.type).toBe(onPostgres ? 'postgres' : 'better-sqlite3');
  });

  it(`keeps rate-limit counters ${TEST_REDIS_URL ? 'in Redis' : 'in memory'}`, () => {
    expect(app.get<RateLimitStorage>(ThrottlerStorage).mode).toBe(TEST_REDIS_URL ? 'shared' : 'local');
  });

  it('stores pets in columns of the types that fit the database', async () => {
    const dataSource = app.get(DataSource);
    const columns = await dataSource.query<{ name: string; type: string }[]>(
      onPostgres
        ? `SELECT column_name AS name, data_type AS type FROM information_schema.columns
           WHERE table_schema = current_schema() AND table_name = 'pets'`
        : `SELECT name, type FROM pragma_table_info('pets')`,
    );
    const types = Object.fromEntries(columns.map(({ name, type }) => [name, type.toLowerCase()]));
    // SQLite keeps the declared names; TypeORM maps them to its storage classes.
    expect(types).toMatchObject({
      id: 'integer',
      age_months: 'integer',
      medical_spayed_neutered: 'boolean',
      medical_vaccinations: 'jsonb',
      intake_date: 'date',
      shelter_id: 'integer',
    });
  });

  it('gives back dates, integers, booleans and lists exactly as they were sent', async () => {
    const shelter = await createShelter(app, { available_pet_count: 0 });
    const pet = await createPet(app, shelter.id, {
      intake_date: '1999-12-31',
      age_months: 0,
      medical: { spayed_neutered: false, vaccinations: [] },
    });
    const res = await http(app).get(`/pets/${pet.id}`).expect(200);
    const body = res.body as Record<string, unknown>;
    expect(body.intake_date).toBe('1999-12-31');
    expect(body.age_months).toBe(0);
    expect(body.medical).toEqual({ spayed_neutered: false, vaccinations: [] });
    expect(typeof body.id).toBe('number');
    expect(typeof body.shelter_id).toBe('number');
    await http(app)
      .get(`/shelters/${shelter.id}`)
      .expect(200, { ...shelter, available_pet_count: 0 });
  });
});
