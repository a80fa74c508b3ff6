import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { ApiToken } from '../src/auth/api-token.entity.js';
import { expectResponse, http, resetDatabase, startApp, validShelter } from './support/app.js';

const ADMIN = 'admin-key-for-tests-0123456789abcdef';
const admin = `Bearer ${ADMIN}`;

const tokenRequired = {
  error: 'Unauthorized',
  message: 'Authentication token is required for this operation.',
  status: 401,
  request_id: expect.any(String),
};
const tokenRejected = {
  error: 'Forbidden',
  message: 'Invalid or expired authentication token.',
  status: 403,
  request_id: expect.any(String),
};

async function issue(app: INestApplication, body: Record<string, unknown> = { name: 'ci' }) {
  const res = await http(app).post('/auth/tokens').set('Authorization', admin).send(body).expect(201);
  return res.body as { id: number; name: string; tier: string; token: string; created_at: string; expires_at: string };
}

async function expire(app: INestApplication, id: number) {
  await app
    .get(DataSource)
    .getRepository(ApiToken)
    .update({ id }, { expires_at: new Date(Date.now() - 1000) });
}

describe.each(['development', 'production'])('issued tokens in %s mode', (mode) => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await startApp({ AUTH_MODE: mode, ADMIN_TOKEN: ADMIN });
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    await resetDatabase(app);
  });

  it('issues a token once, with its metadata, defaults and Location', async () => {
    const before = Date.now();
    const res = await http(app).post('/auth/tokens').set('Authorization', admin).send({ name: 'ci' }).expect(201);
    expect(Object.keys(res.body)).toEqual(['id', 'name', 'tier', 'token', 'created_at', 'expires_at']);
    expect(res.body).toEqual({
      id: 1,
      name: 'ci',
      tier: 'standard',
      token: expect.stringMatching(/^adopt_[A-Za-z0-9_-]{43}$/),
      created_at: expect.any(String),
      expires_at: expect.any(String),
    });
    expect(res.headers.location).toBe('/auth/tokens/1');
    const lifetime = Date.parse(res.body.expires_at) - Date.parse(res.body.created_at);
    expect(lifetime).toBe(90 * 86_400_000);
    expect(Date.parse(res.body.created_at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('stores only a hash of the token', async () => {
    const { token } = await issue(app);
    const rows = await app.get(DataSource).query('SELECT * FROM api_tokens');
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('lists issued tokens without their values', async () => {
    const first = await issue(app, { name: 'first', tier: 'premium', expires_in_days: 1 });
    await issue(app, { name: 'second' });
    const res = await http(app).get('/auth/tokens').set('Authorization', admin).expect(200);
    expect(res.body.map((token: { name: string }) => token.name)).toEqual(['first', 'second']);
    expect(res.body[0]).toEqual({
      id: first.id,
      name: 'first',
      tier: 'premium',
      created_at: first.created_at,
      expires_at: first.expires_at,
      revoked_at: null,
    });
    expect(JSON.stringify(res.body)).not.toContain(first.token);
  });

  it('accepts an issued token for writes', async () => {
    const { token } = await issue(app);
    await http(app).post('/shelters').set('Authorization', `Bearer ${token}`).send(validShelter()).expect(201);
  });

  it('revokes a token: its writes get 403, its reads still work', async () => {
    const { id, token } = await issue(app);
    const res = await http(app).delete(`/auth/tokens/${id}`).set('Authorization', admin).expect(200);
    expect(res.body).toEqual(expect.objectContaining({ id, name: 'ci', revoked_at: expect.any(String) }));
    await expectResponse(
      http(app).post('/shelters').set('Authorization', `Bearer ${token}`).send(validShelter()),
      403,
      tokenRejected,
    );
    await http(app).get('/shelters').set('Authorization', `Bearer ${token}`).expect(200, []);
  });

  it('refuses an expired token with 403', async () => {
    const { id, token } = await issue(app);
    await expire(app, id);
    await expectResponse(
      http(app).post('/shelters').set('Authorization', `Bearer ${token}`).send(validShelter()),
      403,
      tokenRejected,
    );
  });

  it('answers 404 for revoking an unknown token and 400 for a malformed id', async () => {
    await expectResponse(http(app).delete('/auth/tokens/42').set('Authorization', admin), 404, {
      error: 'Not Found',
      message: "Token with 'id' 42 not found.",
      status: 404,
      request_id: expect.any(String),
    });
    await expectResponse(http(app).delete('/auth/tokens/abc').set('Authorization', admin), 400, {
      error: 'Bad Request',
      message: "Invalid token 'id'. Must be a positive integer.",
      status: 400,
      request_id: expect.any(String),
    });
  });

  it.each([
    [{}, 'name', 'Missing required field: name'],
    [{ name: '' }, 'name', "Invalid value for 'name'. Must be a non-empty string of at most 100 characters."],
    [
      { name: 'x', tier: 'gold' },
      'tier',
      "Invalid value for 'tier'. Must be one of the allowed values (free, standard, premium, enterprise).",
    ],
    [
      { name: 'x', tier: 'Premium' },
      'tier',
      "Invalid value for 'tier'. Must be one of the allowed values (free, standard, premium, enterprise).",
    ],
    [
      { name: 'x', tier: null },
      'tier',
      "Invalid value for 'tier'. Must be one of the allowed values (free, standard, premium, enterprise).",
    ],
    [
      { name: 'x', expires_in_days: 0 },
      'expires_in_days',
      "Invalid value for 'expires_in_days'. Must be an integer from 1 to 365.",
    ],
    [
      { name: 'x', expires_in_days: 366 },
      'expires_in_days',
      "Invalid value for 'expires_in_days'. Must be an integer from 1 to 365.",
    ],
    [
      { name: 'x', expires_in_days: null },
      'expires_in_days',
      "Invalid value for 'expires_in_days'. Must be an integer from 1 to 365.",
    ],
    [{ name: 'x', color: 'red' }, 'color', "Unknown field: 'color'."],
  ])('validates the body %p', async (body, field, message) => {
    await expectResponse(http(app).post('/auth/tokens').set('Authorization', admin).send(body), 400, {
      error: 'Bad Request',
      message,
      status: 400,
      details: [{ field, message }],
      request_id: expect.any(String),
    });
  });

  it('refuses callers without a token on every admin route, reads included, with a Bearer challenge', async () => {
    for (const res of [
      await expectResponse(http(app).get('/auth/tokens'), 401, tokenRequired),
      await expectResponse(http(app).post('/auth/tokens').send({ name: 'x' }), 401, tokenRequired),
      await expectResponse(http(app).delete('/auth/tokens/1'), 401, tokenRequired),
    ]) {
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
  });
});

describe('production mode', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await startApp({ AUTH_MODE: 'production', ADMIN_TOKEN: ADMIN });
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    await resetDatabase(app);
  });

  const invalidToken = 'Bearer error="invalid_token"';
  const insufficientScope = 'Bearer error="insufficient_scope"';

  it('rejects a token it did not issue with 403 and an invalid_token challenge', async () => {
    const res = await expectResponse(
      http(app).post('/shelters').set('Authorization', 'Bearer made-up').send(validShelter()),
      403,
      tokenRejected,
    );
    expect(res.headers['www-authenticate']).toBe(invalidToken);
  });

  it('refuses non-admin callers on admin routes with 403, issued tokens included', async () => {
    const { token } = await issue(app);
    const issued = await expectResponse(
      http(app).get('/auth/tokens').set('Authorization', `Bearer ${token}`),
      403,
      tokenRejected,
    );
    expect(issued.headers['www-authenticate']).toBe(insufficientScope);
    const unknown = await expectResponse(
      http(app).get('/auth/tokens').set('Authorization', 'Bearer not-the-admin-key'),
      403,
      tokenRejected,
    );
    expect(unknown.headers['www-authenticate']).toBe(invalidToken);
  });

  it('does not let the admin key write resources', async () => {
    const res = await expectResponse(
      http(app).post('/shelters').set('Authorization', admin).send(validShelter()),
      403,
      tokenRejected,
    );
    expect(res.headers['www-authenticate']).toBe(insufficientScope);
  });

  it('serves reads to unknown tokens', async () => {
    await http(app).get('/pets').set('Authorization', 'Bearer made-up').expect(200, []);
  });
});

describe('development mode', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await startApp({ AUTH_MODE: 'development' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('accepts any non-empty token, also as the admin key', async () => {
    await http(app).post('/shelters').set('Authorization', 'Bearer anything').send(validShelter()).expect(201);
    await http(app).get('/auth/tokens').set('Authorization', 'Bearer anything').expect(200);
  });
});

describe('start-up', () => {
  it.each([undefined, '', 'too-short-admin-key'])(
    'refuses to start in production with ADMIN_TOKEN %p',
    async (adminToken) => {
      const env: Record<string, string> = { AUTH_MODE: 'production' };
      if (adminToken !== undefined) {
        env.ADMIN_TOKEN = adminToken;
      }
      const saved = process.env.ADMIN_TOKEN;
      delete process.env.ADMIN_TOKEN;
      try {
        await expect(startApp(env)).rejects.toThrow(
          'Invalid configuration: ADMIN_TOKEN must be set to at least 32 characters when AUTH_MODE=production',
        );
      } finally {
        if (saved !== undefined) {
          process.env.ADMIN_TOKEN = saved;
        }
      }
    },
  );
});
