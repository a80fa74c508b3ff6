/**
 * Idempotent creates: a retried POST with the same `Idempotency-Key` creates once and gets
 * the first answer again; keys live in the database, so they hold across a restart.
 */
import type { INestApplication } from '@nestjs/common';
import { createHash } from 'node:crypto';

import type request from 'supertest';
import { DataSource } from 'typeorm';

import { IdempotencyKey } from '../src/idempotency/idempotency-key.entity.js';

import { createShelter, expectResponse, http, startApp, TOKEN, validPet, validShelter } from './support/app.js';
import { provision, type Provisioned } from './support/database.js';

const OTHER_TOKEN = 'Bearer another-test-token';
/** Keys belong to the token, by its hash. */
const scopeOf = (header: string) =>
  `token:${createHash('sha256').update(header.slice('Bearer '.length)).digest('hex')}`;

function errorBody(status: number, error: string, message: string) {
  return { error, message, status, request_id: expect.any(String) as unknown };
}

describe('idempotent creates', () => {
  let storage: Provisioned;
  let app: INestApplication;
  let shelterId: number;

  beforeAll(async () => {
    storage = await provision({ durable: true });
    app = await startApp(storage.env);
    shelterId = (await createShelter(app)).id;
  });
  afterAll(async () => {
    await app.close();
    await storage.release();
  });

  const postPet = (key: string | undefined, body: object, token = TOKEN): request.Test => {
    const req = http(app).post('/pets').set('Authorization', token);
    return (key === undefined ? req : req.set('Idempotency-Key', key)).send(body);
  };
  const keys = () => app.get(DataSource).getRepository(IdempotencyKey);
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
  /** The fingerprint the service stored for a request, read back from a finished one with the same body. */
  const hashOf = async (key: string, body: object) => {
    const probe = `${key}-probe`;
    await postPet(probe, body).expect(201);
    return (await keys().findOneByOrFail({ key: probe })).request_hash;
  };
  const petCount = async () => ((await http(app).get('/pets').expect(200)).body as unknown[]).length;

  it('answers a repeat with the stored answer, marked as replayed, and creates nothing', async () => {
    const before = await petCount();
    const body = validPet(shelterId, { name: 'Once' });
    const first = await postPet('create-once-1', body).expect(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await postPet('create-once-1', { ...body }).expect(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers.location).toBe(`/pets/${(first.body as { id: number }).id}`);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await petCount()).toBe(before + 1);
  });

  it('treats bodies equal as JSON as the same request, whatever their key order', async () => {
    const { name, species, ...rest } = validPet(shelterId, { name: 'Reordered' });
    const first = await postPet('reordered', { name, species, ...rest }).expect(201);
    const again = await postPet('reordered', { ...rest, species, name }).expect(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('creates exactly one pet under 20 concurrent repeats of one key', async () => {
    const before = await petCount();
    const body = validPet(shelterId, { name: 'Concurrent' });
    const answers = await Promise.all(Array.from({ length: 20 }, () => postPet('concurrent-key', body)));
    const statuses = answers.map((res) => res.status);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    const created = answers.filter((res) => res.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    const ids = new Set(created.map((res) => (res.body as { id: number }).id));
    expect(ids.size).toBe(1);
    for (const res of answers.filter((answer) => answer.status === 409)) {
      expect(res.body).toEqual(errorBody(409, 'Conflict', 'A request with this Idempotency-Key is still in progress.'));
    }
    expect(await petCount()).toBe(before + 1);
    const retry = await postPet('concurrent-key', body).expect(201);
    expect(ids.has((retry.body as { id: number }).id)).toBe(true);
  });

  it('answers 422 when the key comes back with another body, and creates nothing', async () => {
    await postPet('changed-body', validPet(shelterId, { name: 'First' })).expect(201);
    const before = await petCount();
    await expectResponse(
      postPet('changed-body', validPet(shelterId, { name: 'Second' })),
      422,
      errorBody(422, 'Unprocessable Entity', 'Idempotency-Key was already used with a different request body.'),
    );
    const onShelters = await http(app)
      .post('/shelters')
      .set('Authorization', TOKEN)
      .set('Idempotency-Key', 'changed-body')
      .send(validShelter());
    expect(onShelters.status).toBe(422);
    expect(await petCount()).toBe(before);
  });

  it('keeps the keys of different tokens apart', async () => {
    const body = validPet(shelterId, { name: 'Shared key' });
    const mine = await postPet('shared-key', body).expect(201);
    const theirs = await postPet('shared-key', body, OTHER_TOKEN).expect(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect((theirs.body as { id: number }).id).not.toBe((mine.body as { id: number }).id);
  });

  it('frees the key of a refused request, so the corrected request can use it', async () => {
    await postPet('fix-and-retry', validPet(shelterId, { age_months: -1 })).expect(400);
    await postPet('fix-and-retry', validPet(shelterId, { shelter_id: 999_999 })).expect(400);
    const fixed = await postPet('fix-and-retry', validPet(shelterId, { name: 'Fixed' })).expect(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
  });

  it.each([
    ['an empty key', ''],
    ['a key with a space', 'two words'],
    ['a key of 256 characters', 'k'.repeat(256)],
    ['a key with a non-ASCII character', 'clé'],
  ])('answers 400 for %s and creates nothing', async (_case, key) => {
    const before = await petCount();
    await expectResponse(postPet(key, validPet(shelterId)), 400, {
      ...errorBody(400, 'Bad Request', "Invalid value for 'Idempotency-Key'. Must be 1 to 255 visible characters."),
      details: [
        {
          field: 'Idempotency-Key',
          message: "Invalid value for 'Idempotency-Key'. Must be 1 to 255 visible characters.",
        },
      ],
    });
    expect(await petCount()).toBe(before);
  });

  it('accepts a key of 255 visible characters, and shelters too', async () => {
    await postPet('~'.repeat(255), validPet(shelterId)).expect(201);
    const send = () =>
      http(app).post('/shelters').set('Authorization', TOKEN).set('Idempotency-Key', 'shelter-1').send(validShelter());
    const first = await send().expect(201);
    const again = await send().expect(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.location).toBe(`/shelters/${(first.body as { id: number }).id}`);
  });

  it('forgets a key after 24 hours', async () => {
    const body = validPet(shelterId, { name: 'Expiring' });
    const first = await postPet('expiring-key', body).expect(201);
    await keys().update({ key: 'expiring-key' }, { created_at: hoursAgo(24.1) });
    const later = await postPet('expiring-key', body).expect(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect((later.body as { id: number }).id).not.toBe((first.body as { id: number }).id);
  });

  it('answers 409 while a reservation is fresh, and takes over one abandoned for a minute', async () => {
    const body = validPet(shelterId, { name: 'Reserved' });
    const requestHash = await hashOf('running-key', body);
    await keys().insert({
      scope: scopeOf(TOKEN),
      key: 'running-key',
      request_hash: requestHash,
      created_at: new Date(),
    });
    await expectResponse(
      postPet('running-key', body),
      409,
      errorBody(409, 'Conflict', 'A request with this Idempotency-Key is still in progress.'),
    );
    await keys().update({ key: 'running-key' }, { created_at: hoursAgo(2 / 60) });
    const taken = await postPet('running-key', body).expect(201);
    expect(taken.headers['idempotent-replayed']).toBeUndefined();
  });

  it('still knows a key after a restart', async () => {
    const body = validPet(shelterId, { name: 'Before restart' });
    const first = await postPet('across-restart', body).expect(201);
    await app.close();
    app = await startApp(storage.env);
    const again = await postPet('across-restart', body).expect(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });
});
