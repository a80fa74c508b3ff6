/** Security headers on every answer; CORS off unless CORS_ORIGINS says who may call. */
import type { INestApplication } from '@nestjs/common';

import { http, startApp, TOKEN } from './support/app.js';

const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'SAMEORIGIN',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
};

describe('security headers, CORS off (the default)', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it.each([
    ['a list', 'get', '/pets', 200],
    ['an unknown endpoint', 'get', '/nothing-here', 404],
    ['a bad id', 'get', '/pets/abc', 400],
    ['a missing token', 'post', '/pets', 401],
    ['OPTIONS', 'options', '/pets', 204],
    ['the OpenAPI document', 'get', '/openapi.json', 200],
  ] as const)('are sent with %s', async (_, method, path, status) => {
    const res = await http(app)[method](path).set('Origin', 'https://elsewhere.example');
    expect(res.status).toBe(status);
    expect(res.headers).toMatchObject(SECURITY_HEADERS);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers).not.toHaveProperty('x-powered-by');
    expect(res.headers).not.toHaveProperty('access-control-allow-origin');
  });

  it('give the docs page its own policy, a request id and its rate-limit headers', async () => {
    const res = await http(app).get('/docs/').expect(200);
    expect(res.headers['content-security-policy']).toMatch(/^default-src 'self';/);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['x-ratelimit-limit']).toMatch(/^\d+$/);
  });

  it('treat paths as case-sensitive for OPTIONS too', async () => {
    await http(app).options('/PETS').expect(404);
    await http(app).options('/pets').expect(204);
  });

  it('shows no stack trace or SQL in any error body', async () => {
    for (const res of [
      await http(app).get('/pets/99999999999999999999'),
      await http(app).post('/pets').set('Authorization', TOKEN).set('Content-Type', 'application/json').send('{'),
      await http(app).get('/pets?shelter_id=2147483648'),
    ]) {
      expect(res.text).not.toMatch(/\bat .*\.(js|ts):\d+|SELECT|INSERT|sqlite|QueryFailedError/i);
    }
  });
});

describe('CORS with CORS_ORIGINS', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await startApp({ CORS_ORIGINS: 'https://shelter.example, http://localhost:5173' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('lets a listed origin read answers and the headers clients need', async () => {
    const res = await http(app).get('/pets').set('Origin', 'https://shelter.example').expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('https://shelter.example');
    expect(res.headers.vary).toMatch(/Origin/);
    expect(res.headers['access-control-expose-headers']).toBe(
      'ETag,Location,Retry-After,WWW-Authenticate,X-Request-Id,X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Reset',
    );
  });

  it('answers a preflight with 204, Allow and the allowed methods and headers, without a token', async () => {
    const res = await http(app)
      .options('/pets/1')
      .set('Origin', 'http://localhost:5173')
      .set('Access-Control-Request-Method', 'PATCH')
      .set('Access-Control-Request-Headers', 'authorization, content-type, if-match')
      .expect(204);
    expect(res.headers).toMatchObject({
      'access-control-allow-origin': 'http://localhost:5173',
      'access-control-allow-methods': 'GET,HEAD,POST,PUT,PATCH,DELETE',
      'access-control-allow-headers': 'Authorization,Content-Type,If-Match,If-None-Match,X-Request-Id',
      'access-control-max-age': '600',
    });
    expect(res.headers.allow.split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'PUT']);
  });

  it('gives an unlisted origin no CORS headers', async () => {
    const res = await http(app).get('/pets').set('Origin', 'https://evil.example').expect(200);
    expect(res.headers).not.toHaveProperty('access-control-allow-origin');
  });
});

describe('CORS_ORIGINS=*', () => {
  it('lets any origin read', async () => {
    const app = await startApp({ CORS_ORIGINS: '*' });
    try {
      const res = await http(app).get('/shelters').set('Origin', 'https://anyone.example').expect(200);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    } finally {
      await app.close();
    }
  });
});
