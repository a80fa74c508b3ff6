/**
 * Defects a hostile test found, one case each: every answer in the contract's shape, with
 * nothing leaked and nothing stored that should not be.
 */
import type { INestApplication } from '@nestjs/common';

import { createShelter, http, startApp, TOKEN, validPet, validShelter } from './support/app.js';

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
});
