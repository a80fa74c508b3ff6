/** Boots AppModule in-process, with the same HTTP adapter settings as `main.ts`. */
import { STATUS_CODES } from 'node:http';

import type { INestApplication, Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { DataSource } from 'typeorm';

import { AppModule } from '../../src/app.module.js';
import { adapterReady, APP_OPTIONS, configureApp, createHttpAdapter } from '../../src/app.setup.js';
import { Transactions } from '../../src/database/transactions.js';
import { provision } from './database.js';

export const TOKEN = 'Bearer test-token';

/**
 * Starts the app (plus any extra `modules`) with extra environment variables, restoring the
 * environment afterwards.
 * Unless `env` names a DATABASE_URL, the app gets storage of its own (see `provision`),
 * released by `app.close()`.
 */
export async function startApp(env: Record<string, string> = {}, modules: Type[] = []): Promise<INestApplication> {
  const storage = env.DATABASE_URL === undefined ? await provision() : undefined;
  const saved = { ...process.env };
  Object.assign(process.env, storage?.env, env);
  try {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule, ...modules] }).compile();
    const app = moduleRef.createNestApplication(await createHttpAdapter(), {
      ...APP_OPTIONS,
      logger: false,
      abortOnError: false,
    });
    configureApp(app);
    await app.init();
    await adapterReady(app);
    // Listening once spares every supertest request a listen and a close of its own.
    await app.listen(0, '127.0.0.1');
    if (storage !== undefined) {
      const close = app.close.bind(app);
      app.close = async () => {
        await close();
        await storage.release();
      };
    }
    return app;
  } catch (error) {
    await storage?.release();
    throw error;
  } finally {
    process.env = saved;
  }
}

/** Empties every table of the application's entities and restarts their id sequences, so each test starts from nothing. */
export async function resetDatabase(app: INestApplication): Promise<void> {
  const dataSource = app.get(DataSource);
  const tables = [...new Set(dataSource.entityMetadatas.map((metadata) => metadata.tableName))];
  if (dataSource.options.type === 'postgres') {
    await dataSource.query(`TRUNCATE ${tables.map((table) => `"${table}"`).join(', ')} RESTART IDENTITY CASCADE`);
    return;
  }
  // Through the service's own write path, so list answers it keeps are known to be stale.
  // A table still referred to refuses the delete (ON DELETE RESTRICT): it is tried again once
  // the tables referring to it are empty.
  await app.get(Transactions).run(async (manager) => {
    let left = [...tables, 'sqlite_sequence'];
    while (left.length > 0) {
      const refused: string[] = [];
      for (const table of left) {
        await manager.query('SAVEPOINT reset');
        try {
          await manager.query(`DELETE FROM "${table}"`);
          await manager.query('RELEASE reset');
        } catch {
          await manager.query('ROLLBACK TO reset');
          await manager.query('RELEASE reset');
          refused.push(table);
        }
      }
      if (refused.length === left.length) {
        throw new Error(`resetDatabase could not empty ${refused.join(', ')}`);
      }
      left = refused;
    }
  });
}

export function http(app: INestApplication) {
  return request(app.getHttpServer());
}

export function validShelter(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Happy Tails',
    address: '12 Main St, Springfield',
    phone: '+1-555-123-4567',
    email: 'hello@happytails.org',
    hours: 'Mon-Fri 9:00-17:00',
    available_pet_count: 12,
    adoption_fee_range: '75-200',
    ...overrides,
  };
}

export function validPet(shelterId: number, overrides: Record<string, unknown> = {}) {
  return {
    name: 'Whiskers',
    species: 'cat',
    breed: 'Siamese',
    age_months: 18,
    gender: 'female',
    size: 'small',
    temperament: 'calm, friendly',
    medical: { spayed_neutered: true, vaccinations: ['rabies', 'fvrcp'] },
    description: 'Loves sunny windows.',
    shelter_id: shelterId,
    status: 'available',
    intake_date: '2024-02-29',
    ...overrides,
  };
}

export async function createShelter(app: INestApplication, overrides: Record<string, unknown> = {}) {
  const res = await http(app).post('/shelters').set('Authorization', TOKEN).send(validShelter(overrides)).expect(201);
  return res.body as ReturnType<typeof validShelter> & { id: number };
}

export async function createPet(app: INestApplication, shelterId: number, overrides: Record<string, unknown> = {}) {
  const res = await http(app)
    .post('/pets')
    .set('Authorization', TOKEN)
    .send(validPet(shelterId, overrides))
    .expect(201);
  return res.body as ReturnType<typeof validPet> & { id: number };
}

/** Sends the request and asserts status and whole body (asymmetric matchers allowed). */
export async function expectResponse(pending: request.Test, status: number, body: unknown): Promise<request.Response> {
  const res = await pending;
  expect({ status: res.status, body: res.body as unknown }).toEqual({ status, body });
  return res;
}

/** An answer in the contract's error shape, any request id (written by hand, not by the service's code). */
export function apiError(status: number, message: string, details?: { field: string; message: string }[]) {
  return {
    error: STATUS_CODES[status],
    message,
    status,
    ...(details === undefined ? {} : { details }),
    request_id: expect.any(String) as unknown,
  };
}

/** The 400 of one wrong query parameter. */
export const queryError = (field: string, message: string) =>
  apiError(400, 'Invalid query parameter format', [{ field, message }]);
