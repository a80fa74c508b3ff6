import type { INestApplication } from '@nestjs/common';

import { expectResponse, http, startApp } from './support/app.js';

const ADMIN = 'admin-key-for-tests-0123456789abcdef';

async function issue(app: INestApplication, tier: string): Promise<string> {
  const res = await http(app)
    .post('/auth/tokens')
    .set('Authorization', `Bearer ${ADMIN}`)
    .send({ name: tier, tier })
    .expect(201);
  return (res.body as { token: string }).token;
}

/** Sends GET /pets until the first 429; returns how many were served. */
async function servedBeforeLimit(app: INestApplication, token: string, max: number): Promise<number> {
  for (let served = 0; served <= max; served++) {
    const res = await http(app).get('/pets').set('Authorization', `Bearer ${token}`);
    if (res.status === 429) {
      return served;
    }
    expect(res.status).toBe(200);
  }
  return max + 1;
}

describe('rate-limit tiers', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await startApp({
      AUTH_MODE: 'production',
      ADMIN_TOKEN: ADMIN,
      RATE_LIMIT_PER_MINUTE: '2',
      RATE_LIMIT_FREE_PER_MINUTE: '3',
      RATE_LIMIT_PREMIUM_PER_MINUTE: '6',
      RATE_LIMIT_STANDARD_PER_MINUTE: '100',
      RATE_LIMIT_STANDARD_PER_DAY: '4',
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it('gives a caller without a limit (the admin key, an enterprise token) the headers too, and never refuses it', async () => {
    const enterprise = await issue(app, 'enterprise');
    for (const token of [ADMIN, enterprise]) {
      let remaining = Infinity;
      for (let round = 0; round < 5; round++) {
        const res = await http(app).get('/auth/tokens').set('Authorization', `Bearer ${ADMIN}`);
        const probe = token === ADMIN ? res : await http(app).get('/pets').set('Authorization', `Bearer ${token}`);
        expect(probe.status).toBe(200);
        expect(probe.headers['x-ratelimit-limit']).toBe(String(Number.MAX_SAFE_INTEGER));
        const left = Number(probe.headers['x-ratelimit-remaining']);
        expect(left).toBeLessThan(remaining);
        expect(Number(probe.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
        remaining = left;
      }
    }
  });

  it('limits a free-tier token before a premium one, each on its own counter', async () => {
    const free = await issue(app, 'free');
    const premium = await issue(app, 'premium');
    expect(await servedBeforeLimit(app, free, 10)).toBe(3);
    expect(await servedBeforeLimit(app, premium, 10)).toBe(6);
  });

  it('gives two tokens of one tier separate counters', async () => {
    const first = await issue(app, 'free');
    const second = await issue(app, 'free');
    expect(await servedBeforeLimit(app, first, 10)).toBe(3);
    expect(await servedBeforeLimit(app, second, 10)).toBe(3);
  });

  it('applies the per-day window when the per-minute one has room, and reports the tighter window', async () => {
    const token = await issue(app, 'standard');
    const first = await http(app).get('/pets').set('Authorization', `Bearer ${token}`).expect(200);
    expect(first.headers['x-ratelimit-limit']).toBe('4');
    expect(first.headers['x-ratelimit-remaining']).toBe('3');
    const resetIn = Number(first.headers['x-ratelimit-reset']) - Date.now() / 1000;
    expect(resetIn).toBeGreaterThan(86_400 - 60);
    expect(resetIn).toBeLessThanOrEqual(86_400 + 1);
    expect(await servedBeforeLimit(app, token, 10)).toBe(3);
  });

  it('answers 429 with the exact body and Retry-After, and counts anonymous callers by address', async () => {
    await http(app).get('/shelters').expect(200);
    await http(app).get('/shelters').expect(200);
    const res = await http(app).get('/shelters');
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    await expectResponse(Promise.resolve(res) as never, 429, {
      error: 'Too Many Requests',
      message: `Rate limit exceeded. Try again in ${retryAfter} seconds.`,
      status: 429,
      retry_after: retryAfter,
      request_id: res.headers['x-request-id'],
    });
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
  });

  it('counts a rejected token as anonymous', async () => {
    // The anonymous counter of this address is spent by the previous test.
    const res = await http(app).get('/pets').set('Authorization', 'Bearer not-issued');
    expect(res.status).toBe(429);
  });
});
