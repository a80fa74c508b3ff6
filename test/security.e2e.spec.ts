/**
 * Defects a hostile test found, one case each: every answer in the contract's shape, with
 * nothing leaked and nothing stored that should not be.
 */
import { STATUS_CODES } from 'node:http';

import { jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { EntityManager } from 'typeorm';

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
});
