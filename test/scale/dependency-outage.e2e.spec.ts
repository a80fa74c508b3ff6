/**
 * The built service with its link to PostgreSQL or Redis running through a proxy the test
 * cuts and restores: the shared servers themselves are never stopped.
 */
import { Redis } from 'ioredis';

import { validShelter } from '../support/app.js';
import { createPostgresDatabase, createRedisNamespace, TEST_REDIS_URL } from '../support/database.js';
import { ServiceProcess } from '../support/server.js';
import { TcpProxy } from '../support/tcp-proxy.js';

const TOKEN = 'Bearer outage-test-token';
const RECOVERY_TIMEOUT_MS = 15_000;

const unavailable = {
  error: 'Service Unavailable',
  message: 'The service is temporarily unavailable. Please try again later.',
  status: 503,
  request_id: expect.any(String) as unknown,
};

/** Repeats `probe` until it returns true or the timeout passes; returns how long it took. */
async function eventually(probe: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < RECOVERY_TIMEOUT_MS) {
    if (await probe()) {
      return Date.now() - started;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`not recovered within ${RECOVERY_TIMEOUT_MS} ms`);
}

describe('PostgreSQL unreachable', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let proxy: TcpProxy;
  let service: ServiceProcess;

  beforeAll(async () => {
    database = await createPostgresDatabase();
    proxy = await TcpProxy.to(database.url);
    service = await ServiceProcess.start({ DATABASE_URL: proxy.route(database.url) });
  });

  afterAll(async () => {
    await service?.stop();
    await proxy?.close();
    await database?.drop();
  });

  it('answers 503 in the error shape while the link is cut, and serves again once it is back', async () => {
    const created = await service.http().post('/shelters').set('Authorization', TOKEN).send(validShelter());
    expect(created.status).toBe(201);
    const shelter = created.body as { id: number };

    await proxy.cut();
    for (const pending of [
      service.http().get('/shelters'),
      service.http().get(`/shelters/${shelter.id}`),
      service
        .http()
        .post('/shelters')
        .set('Authorization', TOKEN)
        .send(validShelter({ name: 'Lost' })),
      service.http().patch(`/shelters/${shelter.id}`).set('Authorization', TOKEN).send({ name: 'Lost' }),
    ]) {
      const res = await pending;
      expect({ status: res.status, body: res.body as unknown }).toEqual({ status: 503, body: unavailable });
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    }
    expect(service.log).not.toMatch(/unexpected error/);
    const ready = await service.http().get('/health/ready');
    expect({ status: ready.status, body: ready.body as unknown }).toEqual({
      status: 503,
      body: {
        status: 'error',
        info: {},
        error: { database: expect.objectContaining({ status: 'down' }) as unknown },
        details: { database: expect.objectContaining({ status: 'down' }) as unknown },
      },
    });
    await service.http().get('/health/live').expect(200);

    await proxy.restore();
    const took = await eventually(async () => (await service.http().get('/shelters')).status === 200);
    console.log(`PostgreSQL link restored: serving again after ${took} ms`);
    await service.http().get('/health/ready').expect(200);

    // Nothing written during the outage, nothing lost from before it.
    await service
      .http()
      .get('/shelters')
      .expect(200, [{ ...validShelter(), id: shelter.id }]);
  });
});

describe('Redis unreachable', () => {
  const namespace = createRedisNamespace();
  let proxy: TcpProxy;
  let service: ServiceProcess;
  let redis: Redis;

  const sharedKeys = () => redis.keys(`${namespace.prefix}*`);

  beforeAll(async () => {
    redis = new Redis(TEST_REDIS_URL!);
    proxy = await TcpProxy.to(TEST_REDIS_URL!);
    service = await ServiceProcess.start({
      DATABASE_URL: 'sqlite::memory:',
      REDIS_URL: proxy.route(TEST_REDIS_URL!),
      REDIS_KEY_PREFIX: namespace.prefix,
      RATE_LIMIT_PER_MINUTE: '1000',
    });
  });

  afterAll(async () => {
    await service?.stop();
    await proxy?.close();
    await namespace.clear();
    redis?.disconnect();
  });

  it('keeps serving with in-memory counters, logs it, and shares counters again once Redis is back', async () => {
    await service.http().get('/pets').expect(200, []);
    expect((await sharedKeys()).length).toBeGreaterThan(0);

    await proxy.cut();
    await redis.del(...(await sharedKeys()));
    for (let sent = 0; sent < 5; sent++) {
      const res = await service.http().get('/pets');
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('1000');
    }
    expect(await sharedKeys()).toEqual([]);
    expect(service.log).toMatch(/Redis is unreachable .*counting rate limits in this process/);
    const ready = await service.http().get('/health/ready').expect(200);
    expect(ready.body).toMatchObject({
      status: 'degraded',
      details: { database: { status: 'up' }, redis: { status: 'degraded' } },
    });

    await proxy.restore();
    const took = await eventually(async () => {
      await service.http().get('/pets').expect(200);
      return (await sharedKeys()).length > 0;
    });
    console.log(`Redis link restored: counters shared again after ${took} ms`);
    // The log line is written asynchronously, maybe after the first shared count.
    await eventually(() => Promise.resolve(/Redis is reachable again/.test(service.log)));
  });
});
