import type { INestApplication } from '@nestjs/common';

import {
  createPet,
  createShelter,
  expectResponse,
  http,
  resetDatabase,
  startApp,
  TOKEN,
  validShelter,
} from './support/app.js';

const error = (status: number, name: string, message: string, extra: Record<string, unknown> = {}) => ({
  error: name,
  message,
  status,
  ...extra,
  request_id: expect.any(String),
});
const unknownEndpoint = error(404, 'Not Found', 'The requested endpoint does not exist.');
const tokenRequired = error(401, 'Unauthorized', 'Authentication token is required for this operation.');

describe('HTTP contract', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    await resetDatabase(app);
  });

  it.each([
    ['get', '/unknown'],
    ['delete', '/pets'],
    ['put', '/pets/'],
    ['get', '/PETS'],
    ['get', '/pets//'],
    ['patch', '/shelters'],
  ] as const)('answers %s %s as an unknown endpoint', async (method, path) => {
    await expectResponse(http(app)[method](path).set('Authorization', TOKEN), 404, unknownEndpoint);
  });

  it.each(['propfind', 'trace'])('answers the method %s as an unknown endpoint', async (method) => {
    // supertest offers every method Node knows, not only the typed ones.
    const send = (http(app) as unknown as Record<string, (path: string) => ReturnType<ReturnType<typeof http>['get']>>)[
      method
    ];
    await expectResponse(send('/pets'), 404, unknownEndpoint);
  });

  it('ignores one trailing slash and answers HEAD wherever GET is', async () => {
    await http(app).get('/pets/').expect(200, []);
    const head = await http(app).head('/pets').expect(200);
    expect(head.text).toBeUndefined();
  });

  it.each([
    ['/pets', 'GET, HEAD, POST, OPTIONS'],
    ['/pets/abc', 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS'],
    ['/shelter/1', 'GET, HEAD, OPTIONS'],
    ['/auth/tokens', 'GET, HEAD, POST, OPTIONS'],
  ])('answers OPTIONS %s with 204 and Allow', async (path, allow) => {
    const res = await http(app).options(path).expect(204);
    expect(res.headers.allow.split(', ').sort()).toEqual(allow.split(', ').sort());
  });

  it('checks the token before the body: 401 beats 415, 413 and malformed JSON', async () => {
    await expectResponse(http(app).post('/pets').set('Content-Type', 'text/plain').send('x'), 401, tokenRequired);
    await expectResponse(
      http(app).post('/pets').set('Content-Type', 'application/json').send('{"a":'),
      401,
      tokenRequired,
    );
    await expectResponse(http(app).patch('/pets/abc').send({}), 401, tokenRequired);
  });

  it.each(['', 'Basic abc', 'Bearer', 'Bearer    '])('answers 401 for the Authorization header %p', async (header) => {
    await expectResponse(
      http(app).post('/shelters').set('Authorization', header).send(validShelter()),
      401,
      tokenRequired,
    );
  });

  it.each(['bearer dev', 'BEARER dev', 'Bearer anything-at-all'])('accepts %p in development', async (header) => {
    await http(app).post('/shelters').set('Authorization', header).send(validShelter()).expect(201);
  });

  it('answers 415 unless Content-Type is application/json, parameters and case allowed', async () => {
    const message = 'Content-Type must be application/json.';
    await expectResponse(
      http(app)
        .post('/shelters')
        .set('Authorization', TOKEN)
        .set('Content-Type', 'text/plain')
        .send(JSON.stringify(validShelter())),
      415,
      error(415, 'Unsupported Media Type', message),
    );
    for (const type of ['application/json; charset=utf-8', 'APPLICATION/JSON']) {
      await http(app)
        .post('/shelters')
        .set('Authorization', TOKEN)
        .set('Content-Type', type)
        .send(JSON.stringify(validShelter()))
        .expect(201);
    }
  });

  it('accepts a body of exactly 102,400 bytes and refuses 102,401', async () => {
    const base = JSON.stringify(validShelter());
    const exact = base.slice(0, -1) + ' '.repeat(102_400 - Buffer.byteLength(base)) + '}';
    expect(Buffer.byteLength(exact)).toBe(102_400);
    const send = (body: string) =>
      http(app).post('/shelters').set('Authorization', TOKEN).set('Content-Type', 'application/json').send(body);
    await send(exact).expect(201);
    await expectResponse(
      send(exact.replace('{', '{ ')),
      413,
      error(413, 'Payload Too Large', 'Request body exceeds the 100 KB limit.'),
    );
  });

  it('reports malformed JSON after authentication', async () => {
    await expectResponse(
      http(app).post('/shelters').set('Authorization', TOKEN).set('Content-Type', 'application/json').send('{"name":'),
      400,
      error(400, 'Bad Request', 'Request body is not valid JSON.'),
    );
  });

  it('checks the path id before the body', async () => {
    await expectResponse(
      http(app).patch('/pets/abc').set('Authorization', TOKEN).send({ name: null, color: 1 }),
      400,
      error(400, 'Bad Request', "Invalid pet 'id'. Must be a positive integer."),
    );
  });

  it('echoes a well-formed X-Request-Id and replaces any other', async () => {
    const echoed = await http(app).get('/pets').set('X-Request-Id', 'abc-123._X').expect(200);
    expect(echoed.headers['x-request-id']).toBe('abc-123._X');
    for (const sent of ['x'.repeat(129), 'has space']) {
      const res = await http(app).get('/pets/0').set('X-Request-Id', sent).expect(400);
      expect(res.headers['x-request-id']).not.toBe(sent);
      expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
      expect(res.body.request_id).toBe(res.headers['x-request-id']);
    }
  });

  it('gives error bodies exactly the contract keys and JSON content type', async () => {
    const res = await http(app).get('/pets/42').expect(404);
    expect(Object.keys(res.body)).toEqual(['error', 'message', 'status', 'request_id']);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body.request_id).toBe(res.headers['x-request-id']);
  });

  it('sends rate-limit headers that count down', async () => {
    const first = await http(app).get('/pets').expect(200);
    const second = await http(app).get('/pets').expect(200);
    expect(Number(second.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1);
    expect(first.headers['x-ratelimit-limit']).toBe('1000000');
    const resetIn = Number(first.headers['x-ratelimit-reset']) - Date.now() / 1000;
    expect(resetIn).toBeGreaterThan(0);
    expect(resetIn).toBeLessThanOrEqual(61);
  });

  it('filters pets by every parameter, combined with AND', async () => {
    const north = await createShelter(app, { name: 'North' });
    const south = await createShelter(app, { name: 'South' });
    const cat = await createPet(app, north.id, { breed: 'Siamese' });
    const dog = await createPet(app, north.id, { species: 'dog', breed: 'Épagneul', gender: 'male', size: 'large' });
    const adopted = await createPet(app, south.id, { status: 'adopted' });
    await http(app).get('/pets?species=cat&status=available').expect(200, [cat]);
    await http(app).get(`/pets?shelter_id=${south.id}`).expect(200, [adopted]);
    await http(app).get('/pets?breed=siamese').expect(200, [cat, adopted]);
    await http(app)
      .get(`/pets?breed=${encodeURIComponent('ÉPAGNEUL')}`)
      .expect(200, [dog]);
    await http(app).get('/pets?breed=EPAGNEUL').expect(200, []);
    await http(app).get('/pets?gender=male&size=large').expect(200, [dog]);
    await http(app).get('/pets?species=dog&status=adopted').expect(200, []);
    await http(app).get('/pets').set('Authorization', 'Basic abc').expect(200, [cat, dog, adopted]);
  });

  it.each([
    ['color=red', [{ field: 'color', message: "Unknown query parameter: 'color'." }]],
    [
      'species=',
      [{ field: 'species', message: "Invalid value for 'species'. Must be one of the allowed values (cat, dog)." }],
    ],
    [
      'species=cat&species=dog',
      [{ field: 'species', message: "Invalid value for 'species'. Must be given once, as a single value." }],
    ],
    [
      'species[]=cat',
      [{ field: 'species', message: "Invalid value for 'species'. Must be given once, as a single value." }],
    ],
    [
      'status=sold',
      [
        {
          field: 'status',
          message: "Invalid value for 'status'. Must be one of the allowed values (available, pending, adopted).",
        },
      ],
    ],
    [
      'shelter_id=abc&color=1&size=huge',
      [
        { field: 'color', message: "Unknown query parameter: 'color'." },
        {
          field: 'size',
          message: "Invalid value for 'size'. Must be one of the allowed values (small, medium, large).",
        },
        { field: 'shelter_id', message: "Invalid shelter 'id'. Must be a positive integer." },
      ],
    ],
  ])('answers 400 for the query %p', async (query, details) => {
    await expectResponse(
      http(app).get(`/pets?${query}`),
      400,
      error(400, 'Bad Request', 'Invalid query parameter format', { details }),
    );
  });

  it.each(['shelter_id=abc', 'shelter_id=', 'shelter_id', 'shelter_id=0'])(
    'answers a lone bad %p with the shelter id message',
    async (query) => {
      const message = "Invalid shelter 'id'. Must be a positive integer.";
      await expectResponse(
        http(app).get(`/pets?${query}`),
        400,
        error(400, 'Bad Request', message, { details: [{ field: 'shelter_id', message }] }),
      );
    },
  );

  it('answers 404 for pets of a shelter deleted after its empty list was answered', async () => {
    const empty = await createShelter(app, { name: 'Empty Nest' });
    for (let round = 0; round < 2; round++) {
      await http(app).get(`/pets?shelter_id=${empty.id}`).expect(200, []);
    }
    await http(app).delete(`/shelters/${empty.id}`).set('Authorization', TOKEN).expect(200);
    await expectResponse(
      http(app).get(`/pets?shelter_id=${empty.id}`),
      404,
      error(404, 'Not Found', `Shelter with 'id' ${empty.id} not found.`),
    );
  });

  it('answers 404 for pets of an unknown shelter and 400 for parameters on /shelters', async () => {
    await expectResponse(
      http(app).get('/pets?shelter_id=42'),
      404,
      error(404, 'Not Found', "Shelter with 'id' 42 not found."),
    );
    await expectResponse(
      http(app).get('/shelters?species=cat'),
      400,
      error(400, 'Bad Request', 'Invalid query parameter format', {
        details: [{ field: 'species', message: "Unknown query parameter: 'species'." }],
      }),
    );
  });
});

describe('rate limit exceeded', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await startApp({ RATE_LIMIT_PER_MINUTE: '3' });
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers 429 before auth, but unknown endpoints still 404', async () => {
    for (let i = 0; i < 3; i++) {
      await http(app).get('/pets').expect(200);
    }
    const res = await http(app).post('/pets').send({});
    const retryAfter = Number(res.headers['retry-after']);
    expect(res.status).toBe(429);
    expect(res.body).toEqual({
      error: 'Too Many Requests',
      message: `Rate limit exceeded. Try again in ${retryAfter} seconds.`,
      status: 429,
      retry_after: retryAfter,
      request_id: res.headers['x-request-id'],
    });
    await expectResponse(http(app).get('/unknown'), 404, unknownEndpoint);
  });
});
