/**
 * Defects a hostile test found, one case each: every answer in the contract's shape, with
 * nothing leaked and nothing stored that should not be.
 */
import { STATUS_CODES } from 'node:http';

import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { EntityManager } from 'typeorm';

import { answersIn, portOf, type RawAnswer, rawExchange } from './support/raw-http.js';
import { createShelter, expectResponse, http, startApp, TOKEN, validPet, validShelter } from './support/app.js';

const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('security', () => {
  let app: INestApplication;
  let shelterId: number;
  let petId: number;

  beforeAll(async () => {
    app = await startApp();
    shelterId = (await createShelter(app)).id;
    petId = (
      (await http(app).post('/pets').set('Authorization', TOKEN).send(validPet(shelterId)).expect(201)).body as {
        id: number;
      }
    ).id;
  });
  afterAll(async () => {
    await app.close();
  });

  async function stored() {
    return {
      pets: (await http(app).get('/pets').expect(200)).body as unknown,
      shelters: (await http(app).get('/shelters').expect(200)).body as unknown,
    };
  }

  /** Sends bytes as they are (superagent would serialize a Buffer under a JSON Content-Type). */
  function sendBytes(method: 'post' | 'put' | 'patch', path: string, bytes: Buffer) {
    return http(app)
      [method](path)
      .set('Authorization', TOKEN)
      .set('Content-Type', 'application/json')
      .serialize((body: Buffer) => body as unknown as string)
      .send(bytes);
  }

  function send(method: 'post' | 'put' | 'patch', path: string, text: string, key?: string) {
    const pending = http(app)[method](path).set('Authorization', TOKEN).set('Content-Type', 'application/json');
    return (key === undefined ? pending : pending.set('Idempotency-Key', key)).send(text);
  }

  it('answers arrays and objects nested thousands deep at any position of any body as it answers them two deep (400)', async () => {
    const pet = JSON.stringify(validPet(shelterId));
    const shelter = JSON.stringify(validShelter());
    /** Bodies with `<>` where each value goes: every field, nested ones, an unknown one. */
    const positions: [string, string, string][] = [];
    const fields = (body: string) => Object.keys(JSON.parse(body) as object);
    for (const field of fields(pet)) {
      const whole = pet.replace(new RegExp(`"${field}":(\\{[^}]*\\}|"[^"]*"|[^,}]*)`), `"${field}":<>`);
      positions.push(
        ['post', '/pets', whole],
        ['put', `/pets/${petId}`, whole],
        ['patch', `/pets/${petId}`, `{"${field}":<>}`],
      );
    }
    for (const inner of ['spayed_neutered', 'vaccinations']) {
      positions.push(['patch', `/pets/${petId}`, `{"medical":{"${inner}":<>}}`]);
    }
    positions.push(['patch', `/pets/${petId}`, '{"medical":{"vaccinations":["rabies",<>]}}']);
    for (const field of fields(shelter)) {
      const whole = shelter.replace(new RegExp(`"${field}":("[^"]*"|[^,}]*)`), `"${field}":<>`);
      positions.push(['post', '/shelters', whole], ['put', `/shelters/${shelterId}`, whole]);
      positions.push(['patch', `/shelters/${shelterId}`, `{"${field}":<>}`]);
    }
    positions.push(['post', '/auth/tokens', '{"name":<>}']);
    for (const field of ['tier', 'expires_in_days']) {
      positions.push(['post', '/auth/tokens', `{"name":"n","${field}":<>}`]);
    }
    positions.push(
      ['post', '/pets', '{"color":<>}'],
      ['patch', `/pets/${petId}`, '{"medical":<>,"name":"x"}'],
      ['post', '/shelters', '<>'],
    );

    for (const [method, path, template] of positions) {
      for (const nest of [arrays, objects]) {
        const at = `${method} ${path} ${template} (${nest.name})`;
        const shallow = await send(method as 'post', path, template.replace('<>', nest(2)));
        expect({ at, status: shallow.status }).toEqual({ at, status: 400 });
        for (const depth of [1_100, 15_000]) {
          for (const key of [undefined, `deep-${depth}`]) {
            const res = await send(method as 'post', path, template.replace('<>', nest(depth)), key);
            expect({ at, depth, status: res.status, body: res.body as unknown }).toEqual({
              at,
              depth,
              status: 400,
              body: { ...(shallow.body as object), request_id: res.headers['x-request-id'] },
            });
          }
        }
      }
    }
  });

  it('refuses a body that is not valid UTF-8 with 400 and stores nothing', async () => {
    const before = await stored();
    const shelter = JSON.stringify(validShelter({ name: 'Caf<>' }));
    const [head, tail] = shelter.split('<>');
    for (const bytes of [
      [0xe9], // Latin-1 é
      [0xc3], // a sequence cut short
      [0xc0, 0xaf], // an overlong encoding of '/'
      [0xed, 0xa0, 0x80], // an encoded surrogate
      [0xf4, 0x90, 0x80, 0x80], // beyond U+10FFFF
      [0xff],
    ]) {
      const body = Buffer.concat([Buffer.from(head), Buffer.from(bytes), Buffer.from(tail)]);
      for (const [method, path] of [
        ['post', '/shelters'],
        ['put', `/shelters/${shelterId}`],
        ['patch', `/shelters/${shelterId}`],
        ['post', '/pets'],
        ['post', '/auth/tokens'],
      ] as const) {
        const res = await sendBytes(method, path, body);
        expect({ status: res.status, body: res.body as unknown }).toEqual({
          status: 400,
          body: {
            error: 'Bad Request',
            message: 'Request body is not valid UTF-8.',
            status: 400,
            request_id: res.headers['x-request-id'],
          },
        });
      }
    }
    expect(await stored()).toEqual(before);
    // Valid UTF-8, a leading byte-order mark included, is taken as it is.
    const cafe = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ name: 'Café 🐾' }))]);
    const res = await sendBytes('patch', `/shelters/${shelterId}`, cafe).expect(200);
    expect((res.body as { name: string }).name).toBe('Café 🐾');
  });

  it('answers 409, not 500, when the foreign key refuses to delete a shelter that got a pet after the count', async () => {
    const shelter = await createShelter(app, { name: 'Raced' });
    await http(app).post('/pets').set('Authorization', TOKEN).send(validPet(shelter.id)).expect(201);
    // The count before the delete sees no pet, as when another connection adds one right after it.
    const count = jest.spyOn(EntityManager.prototype, 'countBy').mockResolvedValueOnce(0);
    try {
      const res = await http(app).delete(`/shelters/${shelter.id}`).set('Authorization', TOKEN);
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 409,
        body: {
          error: 'Conflict',
          message: `Shelter with 'id' ${shelter.id} still has 1 pet. Move or delete them first.`,
          status: 409,
          request_id: res.headers['x-request-id'],
        },
      });
    } finally {
      count.mockRestore();
    }
    await http(app).get(`/shelters/${shelter.id}`).expect(200);
  });

  it('keeps Idempotency-Keys per caller, whatever the spelling of the Authorization header', async () => {
    const body = validPet(shelterId, { name: 'Spelled twice' });
    const first = await http(app)
      .post('/pets')
      .set('Authorization', 'bearer spelling-token')
      .set('Idempotency-Key', 'spelling-1')
      .send(body)
      .expect(201);
    for (const spelling of ['Bearer  spelling-token', 'BEARER spelling-token ', '  Bearer\tspelling-token']) {
      const again = await http(app)
        .post('/pets')
        .set('Authorization', spelling)
        .set('Idempotency-Key', 'spelling-1')
        .send(body)
        .expect(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body).toEqual(first.body);
    }
    const other = await http(app)
      .post('/pets')
      .set('Authorization', 'Bearer another-caller')
      .set('Idempotency-Key', 'spelling-1')
      .send(body)
      .expect(201);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    const named = ((await http(app).get('/pets').expect(200)).body as { name: string }[]).filter(
      (pet) => pet.name === 'Spelled twice',
    );
    expect(named).toHaveLength(2);
  });

  it('answers ids of any length with the id message, and a malformed Content-Type after the token, on either adapter', async () => {
    const error = (status: number, message: string) => ({
      error: STATUS_CODES[status],
      message,
      status,
      request_id: expect.any(String) as unknown,
    });
    for (const id of ['1'.repeat(101), '9'.repeat(5_000), 'x'.repeat(300)]) {
      await expectResponse(
        http(app).get(`/pets/${id}`),
        400,
        error(400, "Invalid pet 'id'. Must be a positive integer."),
      );
      await expectResponse(
        http(app).patch(`/shelters/${id}`).set('Authorization', TOKEN).send({ name: 'x' }),
        400,
        error(400, "Invalid shelter 'id'. Must be a positive integer."),
      );
    }
    for (const type of [';;;/===', '/', ';', 'application/json/x', '=', 'a b/c d']) {
      await expectResponse(
        http(app).post('/pets').set('Content-Type', type).send('{}'),
        401,
        error(401, 'Authentication token is required for this operation.'),
      );
      await expectResponse(
        http(app).post('/pets').set('Authorization', TOKEN).set('Content-Type', type).send('{}'),
        415,
        error(415, 'Content-Type must be application/json.'),
      );
      // DELETE ignores Content-Type, and an unknown endpoint is unknown whatever the body.
      await expectResponse(
        http(app).delete('/pets/999999').set('Authorization', TOKEN).set('Content-Type', type).send('{}'),
        404,
        error(404, "Pet with 'id' 999999 not found."),
      );
      await expectResponse(
        http(app).put('/pets').set('Authorization', TOKEN).set('Content-Type', type).send('{}'),
        404,
        error(404, 'The requested endpoint does not exist.'),
      );
    }
  });

  it('answers a missing Host, an unmet Expect and every 401 in the contract shape, and sends 100 Continue only to a request that passed the checks', async () => {
    const port = await portOf(app);
    const shapeOf = (answer: RawAnswer, status: number, message: string) => {
      expect({ status: answer.status, body: JSON.parse(answer.body) as unknown }).toEqual({
        status,
        body: { error: STATUS_CODES[status], message, status, request_id: answer.headers['x-request-id'] },
      });
      expect(answer.headers).toMatchObject({
        'content-type': 'application/json; charset=utf-8',
        'x-request-id': expect.any(String),
        'x-ratelimit-limit': expect.any(String),
        'x-ratelimit-remaining': expect.any(String),
        'x-ratelimit-reset': expect.any(String),
      });
    };
    const exchange = async (head: string, body?: string) => answersIn(await rawExchange(port, head, { body }));

    // HTTP/1.1 needs Host; HTTP/1.0 does not.
    const [noHost] = await exchange('GET /pets HTTP/1.1\r\nConnection: close\r\n\r\n');
    shapeOf(noHost, 400, 'The request is malformed and cannot be processed.');
    const [old] = await exchange('GET /pets HTTP/1.0\r\n\r\n');
    expect(old.status).toBe(200);

    for (const expectation of ['200-ok', 'nothing', '101-continue']) {
      const [unmet] = await exchange(
        `GET /pets HTTP/1.1\r\nHost: x\r\nExpect: ${expectation}\r\nConnection: close\r\n\r\n`,
      );
      shapeOf(unmet, 417, "The only expectation the service meets is 'Expect: 100-continue'.");
    }

    // Refused before the body is read: the final answer only, no 100 Continue.
    const post = (headers: string) =>
      `POST /pets HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n${headers}Content-Length: 2\r\n\r\n`;
    const refused: [string, number, string][] = [
      ['Content-Type: application/json\r\n', 401, 'Authentication token is required for this operation.'],
      [
        'Authorization: Basic eDp5\r\nContent-Type: application/json\r\n',
        401,
        'Authentication token is required for this operation.',
      ],
      [`Authorization: ${TOKEN}\r\nContent-Type: text/plain\r\n`, 415, 'Content-Type must be application/json.'],
    ];
    for (const [headers, status, message] of refused) {
      const answers = await exchange(post(headers));
      expect(answers.map((answer) => answer.status)).toEqual([status]);
      shapeOf(answers[0], status, message);
      expect(answers[0].headers.connection).toBe('close');
      if (status === 401) {
        expect(answers[0].headers['www-authenticate']).toBe('Bearer');
      }
    }
    const tooLarge = await exchange(
      `POST /pets HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nAuthorization: ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 200000\r\n\r\n`,
    );
    expect(tooLarge.map((answer) => answer.status)).toEqual([413]);

    // Accepted so far: 100 Continue, then the body, then the answer.
    const body = JSON.stringify(validPet(shelterId, { name: 'Continued' }));
    const created = await exchange(
      `POST /pets HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nAuthorization: ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`,
      body,
    );
    expect(created.map((answer) => answer.status)).toEqual([100, 201]);
    expect(JSON.parse(created[1].body)).toMatchObject({ name: 'Continued' });

    // Every 401 carries the challenge, whatever the route; a rejected token's 403 says why.
    for (const pending of [
      http(app).post('/shelters').send(validShelter()),
      http(app).delete(`/pets/${petId}`).set('Authorization', 'Bearer '),
      http(app).get('/auth/tokens').set('Authorization', 'Token abc'),
    ]) {
      const res = await pending;
      expect({ status: res.status, challenge: res.headers['www-authenticate'] }).toEqual({
        status: 401,
        challenge: 'Bearer',
      });
    }
  });

  it('counts unknown endpoints, HEAD, OPTIONS and health probes with their X-RateLimit headers, and never turns a 404 into a 429', async () => {
    const limited = await startApp({ RATE_LIMIT_PER_MINUTE: '6' });
    try {
      const requests = [
        () => http(limited).get('/unknown'),
        () => http(limited).head('/unknown'),
        () => http(limited).head('/pets'),
        () => http(limited).options('/pets/1'),
        () => http(limited).get('/health/live'),
        () => http(limited).get('/health/ready'),
      ];
      const statuses = [404, 404, 200, 204, 200, 200];
      for (const [index, send] of requests.entries()) {
        const res = await send();
        expect(res.status).toBe(statuses[index]);
        expect(res.headers).toMatchObject({
          'x-ratelimit-limit': '6',
          'x-ratelimit-remaining': String(5 - index),
        });
        const resetIn = Number(res.headers['x-ratelimit-reset']) - Date.now() / 1000;
        expect(resetIn).toBeGreaterThan(0);
        expect(resetIn).toBeLessThanOrEqual(61);
      }
      // The limit is spent: a request to the API is refused (HEAD /pets as GET /pets); an unknown
      // endpoint stays a 404, OPTIONS a 204 and a probe a 200, all with the spent window's headers.
      expect((await http(limited).get('/pets')).status).toBe(429);
      const spent = [404, 404, 429, 204, 200, 200];
      for (const [index, send] of requests.entries()) {
        const res = await send();
        expect({ status: res.status, remaining: res.headers['x-ratelimit-remaining'] }).toEqual({
          status: spent[index],
          remaining: '0',
        });
      }
    } finally {
      await limited.close();
    }
  });

  it('answers a 429 whose X-RateLimit-Reset and Retry-After name the same moment, the exhausted day window included', async () => {
    const limited = await startApp({ RATE_LIMIT_PER_MINUTE: '4', RATE_LIMIT_PER_DAY: '3' });
    try {
      const get = () => http(limited).get('/pets').set('Authorization', 'Bearer daily-caller');
      for (let sent = 1; sent <= 3; sent++) {
        const res = await get().expect(200);
        // The day window has fewer requests left than the minute window: it is the one reported.
        expect(res.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': String(3 - sent) });
      }
      // The 4th spends the day window (the minute one still has room); the 5th the minute one too.
      for (let sent = 4; sent <= 5; sent++) {
        const res = await get();
        const now = Date.now() / 1000;
        const retryAfter = Number(res.headers['retry-after']);
        expect(res.status).toBe(429);
        expect(retryAfter).toBeGreaterThan(86_400 - 5);
        expect(retryAfter).toBeLessThanOrEqual(86_400);
        expect(res.body).toMatchObject({ retry_after: retryAfter });
        expect(res.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '0' });
        expect(Math.abs(Number(res.headers['x-ratelimit-reset']) - (now + retryAfter))).toBeLessThanOrEqual(2);
      }
    } finally {
      await limited.close();
    }
  });

  it('believes X-Forwarded-For only from proxies TRUST_PROXY names, and limits the client address it yields', async () => {
    const get = (app: INestApplication, forwardedFor: string) =>
      http(app).get('/pets').set('X-Forwarded-For', forwardedFor);
    // Off by default: the header is the client's own claim, and the peer's address is counted.
    const direct = await startApp({ RATE_LIMIT_PER_MINUTE: '2' });
    try {
      await get(direct, '203.0.113.1').expect(200);
      await get(direct, '203.0.113.2').expect(200);
      await get(direct, '203.0.113.3').expect(429);
    } finally {
      await direct.close();
    }
    // Behind a trusted proxy (the test's own address), each forwarded client has its own counter.
    for (const trust of ['loopback', '127.0.0.1', '127.0.0.0/8', '1']) {
      const proxied = await startApp({ RATE_LIMIT_PER_MINUTE: '2', TRUST_PROXY: trust });
      try {
        await get(proxied, '203.0.113.1').expect(200);
        await get(proxied, '198.51.100.9, 203.0.113.1').expect(200);
        await get(proxied, '203.0.113.1').expect(429);
        await get(proxied, '203.0.113.2').expect(200);
      } finally {
        await proxied.close();
      }
    }
  });
});
