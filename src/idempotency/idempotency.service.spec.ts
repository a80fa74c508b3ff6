import 'reflect-metadata';

import { DataSource } from 'typeorm';

import { ApiException } from '../common/errors/api.exception.js';
import { migrations } from '../database/data-source-options.js';
import { Transactions } from '../database/transactions.js';
import { IdempotencyKey } from './idempotency-key.entity.js';
import { IdempotencyService, KEY_LIFETIME_MS, type KeyOfRequest } from './idempotency.service.js';

describe('IdempotencyService on SQLite', () => {
  let dataSource: DataSource;
  let service: IdempotencyService;

  beforeEach(async () => {
    dataSource = await new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [IdempotencyKey],
      migrations,
      migrationsRun: true,
    }).initialize();
    service = new IdempotencyService(dataSource.getRepository(IdempotencyKey), new Transactions(dataSource));
  });
  afterEach(async () => {
    await dataSource.destroy();
  });

  const request: KeyOfRequest = { scope: 'caller-a', key: 'key-1', requestHash: 'hash-1' };
  const answer = { status: 201, body: { id: 7 }, headers: { Location: '/pets/7' } };
  const refusal = async (work: Promise<unknown>) => {
    const error = (await work.catch((caught: unknown) => caught)) as ApiException;
    expect(error).toBeInstanceOf(ApiException);
    return { status: error.getStatus(), message: error.message };
  };

  it('lets the first request go ahead and replays its recorded answer to the same request', async () => {
    expect(await service.reserve(request)).toBeUndefined();
    await service.answer(request, answer);
    expect(await service.reserve(request)).toEqual(answer);
  });

  it('answers 409 while the first request still runs, and 422 for the key sent with another body', async () => {
    await service.reserve(request);
    expect(await refusal(service.reserve(request))).toMatchObject({
      status: 409,
      message: 'A request with this Idempotency-Key is still in progress.',
    });
    expect(await refusal(service.reserve({ ...request, requestHash: 'hash-2' }))).toMatchObject({
      status: 422,
      message: 'Idempotency-Key was already used with a different request body.',
    });
  });

  it('keeps keys per caller: the same key from another caller is a new request', async () => {
    await service.reserve(request);
    await service.answer(request, answer);
    expect(await service.reserve({ ...request, scope: 'caller-b', requestHash: 'hash-2' })).toBeUndefined();
  });

  it('frees the key of a request that failed, so the corrected request can use it', async () => {
    await service.reserve(request);
    await service.release(request);
    expect(await service.reserve({ ...request, requestHash: 'hash-2' })).toBeUndefined();
  });

  it('forgets an answer older than its lifetime and a reservation abandoned by a stopped process', async () => {
    await service.reserve(request);
    await service.answer(request, answer);
    const abandoned = { ...request, key: 'key-2' };
    await service.reserve(abandoned);
    const keys = dataSource.getRepository(IdempotencyKey);
    await keys.update({ key: 'key-1' }, { created_at: new Date(Date.now() - KEY_LIFETIME_MS - 1) });
    await keys.update({ key: 'key-2' }, { created_at: new Date(Date.now() - 2 * 60 * 1000) });
    expect(await service.reserve({ ...request, requestHash: 'hash-2' })).toBeUndefined();
    expect(await service.reserve({ ...abandoned, requestHash: 'hash-3' })).toBeUndefined();
  });
});
