/** Liveness and readiness probes: open to all, counted against the caller's rate limit but never refused. */
import type { INestApplication } from '@nestjs/common';

import { http, startApp } from './support/app.js';
import { TEST_REDIS_URL } from './support/database.js';

const up = { status: 'up', responseTime: expect.any(Number) as unknown };

describe('health', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await startApp({ AUTH_MODE: 'production', ADMIN_TOKEN: 'x'.repeat(32), RATE_LIMIT_PER_MINUTE: '1' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers live with 200 and no checks', async () => {
    await http(app).get('/health/live').expect(200, { status: 'ok', info: {}, error: {}, details: {} });
  });

  it(`answers ready with the database${TEST_REDIS_URL ? ' and Redis' : ''} up`, async () => {
    const checks = TEST_REDIS_URL ? { database: up, redis: { status: 'up' } } : { database: up };
    const res = await http(app).get('/health/ready').expect(200);
    expect(res.body).toEqual({ status: 'ok', info: checks, error: {}, details: checks });
  });

  it('needs no token and is never refused, even after the limit is spent, though counted like any request', async () => {
    // The limit is one request a minute, which the probes above may have spent already.
    let status = 200;
    for (let sent = 0; sent < 3 && status !== 429; sent++) {
      status = (await http(app).get('/pets')).status;
    }
    expect(status).toBe(429);
    for (let probe = 0; probe < 5; probe++) {
      const res = await http(app).get('/health/live').set('Authorization', 'Bearer unknown').expect(200);
      expect(res.headers).toMatchObject({ 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0' });
      expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
      await http(app).get('/health/ready').expect(200);
    }
  });
});
