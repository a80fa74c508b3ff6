/**
 * Hostile input: each request gets a 4xx in the contract's shape (or its normal answer),
 * never a 5xx, and leaves the stored data exactly as it was.
 */
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { INestApplication } from '@nestjs/common';
import request from 'supertest';

import { createPet, createShelter, http, startApp, TOKEN, validPet } from './support/app.js';

const BAD_REQUEST = 'Bad Request';
const shape = (status: number, error: string, message: string) => ({
  error,
  message,
  status,
  request_id: expect.any(String) as unknown,
});
/** A 400 naming one field, as the validation answers it. */
const invalid = (field: string, message: string) => ({
  error: BAD_REQUEST,
  message,
  status: 400,
  details: [{ field, message }],
  request_id: expect.any(String) as unknown,
});
const notJson = shape(400, BAD_REQUEST, 'Request body is not valid JSON.');
const notObject = shape(400, BAD_REQUEST, 'Request body must be a JSON object.');
const tooLarge = shape(413, 'Payload Too Large', 'Request body exceeds the 100 KB limit.');
const NAME_RULE = "Invalid value for 'name'. Must be a non-empty string of at most 100 characters.";
const AGE_RULE = "Invalid value for 'age_months'. Must be an integer from 0 to 600.";
const VACCINATIONS_RULE = "Invalid value for 'medical.vaccinations'. Must be an array of at most 50 non-empty strings.";

/** A PUT whose body arrives in chunks without a Content-Length. */
async function sendChunked(
  app: INestApplication,
  path: string,
  text: string,
): Promise<{ status: number; body: unknown }> {
  const server = app.getHttpServer() as Server;
  if (!server.listening) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  }
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        port,
        host: '127.0.0.1',
        path,
        method: 'PUT',
        agent: false,
        headers: {
          Authorization: TOKEN,
          'Content-Type': 'application/json',
          'Transfer-Encoding': 'chunked',
          Connection: 'close',
        },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(body) as unknown }));
      },
    );
    req.on('error', reject);
    for (let offset = 0; offset < text.length; offset += 16_384) {
      req.write(text.slice(offset, offset + 16_384));
    }
    req.end();
  });
}

describe('hostile input', () => {
  let app: INestApplication;
  let shelterId: number;
  let petId: number;
  let snapshot: { pets: unknown; shelters: unknown };

  async function stored() {
    return {
      pets: (await http(app).get('/pets').expect(200)).body as unknown,
      shelters: (await http(app).get('/shelters').expect(200)).body as unknown,
    };
  }

  /** Sends a raw JSON text as a body. */
  function send(method: 'post' | 'put' | 'patch', path: string, text: string) {
    return http(app)[method](path).set('Authorization', TOKEN).set('Content-Type', 'application/json').send(text);
  }

  async function expectRefused(pending: request.Test, status: number, body: unknown): Promise<void> {
    const res = await pending;
    expect({ status: res.status, body: res.body as unknown }).toEqual({ status, body });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(await stored()).toEqual(snapshot);
  }

  beforeAll(async () => {
    app = await startApp();
    shelterId = (await createShelter(app)).id;
    petId = (await createPet(app, shelterId)).id;
    snapshot = await stored();
  });
  afterAll(async () => {
    await app.close();
  });

  it.each([
    ['truncated', '{"name": "Rex"'],
    ['trailing comma', '{"name": "Rex",}'],
    ['single quotes', "{'name': 'Rex'}"],
    ['NaN', '{"age_months": NaN}'],
    ['two documents', '{}{}'],
    ['a lone surrogate escape in a key', '{"\\ud800": 1}'.replace('\\ud800', '\\uZZZZ')],
    ['a byte that is not UTF-8', Buffer.from([0x7b, 0xff, 0x7d]).toString('latin1')],
  ])('answers malformed JSON (%s) with 400', async (_, text) => {
    await expectRefused(send('post', '/pets', text), 400, notJson);
  });

  it.each([
    ['an array', '[]'],
    ['an array of a pet', JSON.stringify([validPet(1)])],
    ['a string', '"pet"'],
    ['a number', '42'],
    ['null', 'null'],
    ['true', 'true'],
  ])('answers %s where an object belongs with 400', async (_, text) => {
    await expectRefused(send('post', '/pets', text), 400, notObject);
    await expectRefused(send('patch', `/pets/${petId}`, text), 400, notObject);
  });

  it('answers deeply nested JSON in a field and at the top level with 400', async () => {
    const depth = 40_000;
    const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    await expectRefused(send('patch', `/pets/${petId}`, `{"name": ${nested}}`), 400, invalid('name', NAME_RULE));
    await expectRefused(
      send('patch', `/pets/${petId}`, `{"medical": {"vaccinations": ${nested}}}`),
      400,
      invalid('medical.vaccinations', VACCINATIONS_RULE),
    );
    await expectRefused(send('post', '/shelters', nested), 400, notObject);
    const objects = (key: string) => `${`{"${key}":`.repeat(8_000)}1${'}'.repeat(8_000)}`;
    await expectRefused(send('patch', `/pets/${petId}`, objects('a')), 400, invalid('a', "Unknown field: 'a'."));
    await expectRefused(
      send('patch', `/pets/${petId}`, `{"medical": ${objects('medical')}}`),
      400,
      invalid('medical.medical', "Unknown field: 'medical.medical'."),
    );
  });

  it.each([
    ['a NUL byte', 'Rex\u0000'],
    ['a lone high surrogate', 'Rex\ud800'],
    ['a lone low surrogate', '\udc00Rex'],
    ['101 characters', 'x'.repeat(101)],
    ['100,000 characters', 'x'.repeat(100_000)],
    ['only white space and line breaks', ' \n\t\r '],
  ])('refuses a name with %s', async (_, name) => {
    await expectRefused(
      send('post', '/pets', JSON.stringify({ ...validPet(shelterId), name })),
      400,
      invalid('name', NAME_RULE),
    );
    await expectRefused(send('patch', `/pets/${petId}`, JSON.stringify({ name })), 400, invalid('name', NAME_RULE));
  });

  it.each([
    ['a huge integer', '1e400'],
    ['above the safe integer range', '9007199254740993'],
    ['a fraction', '1.5'],
    ['a negative zero', '-0.0000001'],
    ['an integer as a string', '"12"'],
    ['a number in a list', '[12]'],
  ])('refuses %s as age_months', async (_, value) => {
    const body = JSON.stringify(validPet(shelterId)).replace('"age_months":18', `"age_months":${value}`);
    await expectRefused(send('post', '/pets', body), 400, invalid('age_months', AGE_RULE));
    await expectRefused(
      send('patch', `/pets/${petId}`, `{"age_months": ${value}}`),
      400,
      invalid('age_months', AGE_RULE),
    );
  });

  it.each(['__proto__', 'constructor', 'prototype'])('refuses the key %s and pollutes nothing', async (key) => {
    const text = `{"${key}": {"polluted": true, "name": "Evil"}, "name": "Rex"}`;
    await expectRefused(send('patch', `/pets/${petId}`, text), 400, invalid(key, `Unknown field: '${key}'.`));
    const nested = `{"medical": {"${key}": {"polluted": true}}}`;
    await expectRefused(
      send('patch', `/pets/${petId}`, nested),
      400,
      invalid(`medical.${key}`, `Unknown field: 'medical.${key}'.`),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });

  it.each([
    ['/pets/%', 400],
    ['/pets/%E0%A4%A', 400],
    ['/pets/%00', 400],
    ['/pets/1%2F2', 400],
    ['/pets/..%2F..%2Fetc%2Fpasswd', 400],
    ['/%2e%2e/pets', 404],
    ['/pets?species=%', 400],
    ['/pets?species=%FF', 400],
    ['/pets?%=cat', 400],
    ['/pets?species=cat&species=dog', 400],
    ['/pets?species[]=cat', 400],
    ['/pets?species[a]=cat', 400],
    ['/pets?__proto__=x', 400],
    ['/pets?constructor[prototype][polluted]=1', 400],
  ])('answers %s with %i in the error shape', async (path, status) => {
    const res = await http(app).get(path);
    expect(res.status).toBe(status);
    expect(Object.keys(res.body as object).sort()).toEqual(
      expect.arrayContaining(['error', 'message', 'request_id', 'status']),
    );
    expect((res.body as { status: number }).status).toBe(status);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await stored()).toEqual(snapshot);
  });

  it.each(['PROPFIND', 'LOCK', 'MKCOL', 'SEARCH', 'PURGE', 'LINK'])(
    'answers the method %s with 404',
    async (method) => {
      const res = await request(app.getHttpServer())
        [method.toLowerCase() as 'get'](`/pets/${petId}`)
        .set('Authorization', TOKEN);
      expect({ status: res.status, body: res.body as unknown }).toEqual({
        status: 404,
        body: shape(404, 'Not Found', 'The requested endpoint does not exist.'),
      });
      expect(await stored()).toEqual(snapshot);
    },
  );

  it('answers HEAD like GET without a body and OPTIONS with Allow, changing nothing', async () => {
    const get = await http(app).get(`/pets/${petId}`).expect(200);
    const head = await http(app).head(`/pets/${petId}`).expect(200);
    expect(head.text).toBeUndefined();
    expect(head.headers.etag).toBe(get.headers.etag);
    const options = await http(app).options(`/pets/${petId}`).expect(204);
    expect(options.headers.allow.split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'PUT']);
    expect(await stored()).toEqual(snapshot);
  });

  it.each([
    ['missing', undefined],
    ['text/plain', 'text/plain'],
    ['form data', 'application/x-www-form-urlencoded'],
    ['a JSON look-alike', 'application/jsonp'],
    ['multipart', 'multipart/form-data; boundary=x'],
  ])('answers a write with Content-Type %s with 415', async (_, type) => {
    const pending = http(app).post('/pets').set('Authorization', TOKEN);
    if (type !== undefined) {
      pending.set('Content-Type', type);
    }
    await expectRefused(
      pending.send(Buffer.from(JSON.stringify(validPet(shelterId)))),
      415,
      shape(415, 'Unsupported Media Type', 'Content-Type must be application/json.'),
    );
  });

  it('answers a body over the limit with 413, declared or streamed in chunks', async () => {
    const big = JSON.stringify({ ...validPet(shelterId), description: 'x'.repeat(200_000) });
    await expectRefused(send('post', '/pets', big), 413, tooLarge);
    const res = await sendChunked(app, `/pets/${petId}`, big);
    expect(res).toEqual({ status: 413, body: tooLarge });
    expect(await stored()).toEqual(snapshot);
  });
});
