/**
 * The typed client of clients/typescript, generated from the OpenAPI document, driving a
 * whole adoption against the service over HTTP. Type-checked like the rest (`npm run
 * typecheck`, strict), without a cast: what compiles here compiles for a client's user.
 */
import type { INestApplication } from '@nestjs/common';

import {
  type AdoptionClient,
  createAdoptionClient,
  type NewPet,
  type NewShelter,
} from '../clients/typescript/src/index.js';
import { Messages } from '../src/common/errors/messages.js';
import { startApp } from './support/app.js';
import { portOf } from './support/raw-http.js';

/** The value, known to be there (a failed request leaves `data` undefined). */
function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) {
    throw new Error(`${what} is missing`);
  }
  return value;
}

const shelterBody: NewShelter = {
  name: 'Typed Tails',
  address: '1 Client Road, Springfield',
  phone: '+1-555-010-0101',
  email: 'typed@tails.org',
  hours: 'Mon-Sat 10:00-18:00',
  available_pet_count: 3,
  adoption_fee_range: '$50 - $150',
};

function petBody(shelterId: number, overrides: Partial<NewPet> = {}): NewPet {
  return {
    name: 'Miso',
    species: 'cat',
    breed: 'Tabby',
    age_months: 14,
    gender: 'female',
    size: 'small',
    temperament: 'curious',
    medical: { spayed_neutered: true, vaccinations: ['fvrcp'] },
    description: 'Sleeps in boxes.',
    shelter_id: shelterId,
    status: 'available',
    intake_date: '2025-03-01',
    ...overrides,
  };
}

describe('the typed client', () => {
  let app: INestApplication;
  let api: AdoptionClient;
  let anonymous: AdoptionClient;

  beforeAll(async () => {
    app = await startApp();
    const baseUrl = `http://127.0.0.1:${await portOf(app)}`;
    api = createAdoptionClient({ baseUrl, token: 'typed-client-token' });
    anonymous = createAdoptionClient({ baseUrl });
  });
  afterAll(async () => {
    await app.close();
  });

  it('runs an adoption: shelter and pets created, listed, filtered, paged, patched, guarded, deleted', async () => {
    // Create a shelter and three pets.
    const createdShelter = await api.POST('/shelters', { body: shelterBody });
    expect(createdShelter.response.status).toBe(201);
    const shelter = present(createdShelter.data, 'shelter');
    expect(createdShelter.response.headers.get('Location')).toBe(`/shelters/${shelter.id}`);
    expect(shelter).toEqual({ ...shelterBody, id: shelter.id });

    const pets = [];
    for (const overrides of [
      { name: 'Miso' },
      { name: 'Biscuit', species: 'dog', breed: 'Beagle', size: 'medium', status: 'pending' },
      { name: 'Pepper', status: 'adopted' },
    ] satisfies Partial<NewPet>[]) {
      const created = await api.POST('/pets', { body: petBody(shelter.id, overrides) });
      expect(created.response.status).toBe(201);
      pets.push(present(created.data, 'pet'));
    }
    const [miso, biscuit, pepper] = pets;

    // List and filter: comma lists and an integer shelter id, as the document types them.
    const filtered = await api.GET('/pets', {
      params: { query: { species: ['cat'], status: ['available', 'pending'], shelter_id: shelter.id } },
    });
    expect(filtered.response.status).toBe(200);
    expect(present(filtered.data, 'list').map((pet) => pet.name)).toEqual(['Miso']);
    const both = await api.GET('/pets', { params: { query: { species: ['cat', 'dog'], sort: '-name' } } });
    expect(present(both.data, 'list').map((pet) => pet.name)).toEqual(['Pepper', 'Miso', 'Biscuit']);

    // Paging headers.
    const page = await api.GET('/pets', { params: { query: { limit: 2, offset: 0 } } });
    expect(present(page.data, 'page').map((pet) => pet.id)).toEqual([miso.id, biscuit.id]);
    expect(page.response.headers.get('X-Total-Count')).toBe('3');
    expect(page.response.headers.get('Link')).toContain('rel="next"');

    // Read with its ETag; If-None-Match answers 304.
    const read = await api.GET('/pets/{id}', { params: { path: { id: miso.id } } });
    expect(read.data).toEqual(miso);
    const etag = present(read.response.headers.get('ETag') ?? undefined, 'ETag');
    const unchanged = await api.GET('/pets/{id}', {
      params: { path: { id: miso.id }, header: { 'If-None-Match': etag } },
    });
    expect(unchanged.response.status).toBe(304);
    const head = await api.HEAD('/pets/{id}', { params: { path: { id: miso.id } } });
    expect([head.response.status, head.response.headers.get('ETag')]).toEqual([200, etag]);

    // A partial PATCH of `medical`, guarded by If-Match: spayed_neutered is kept.
    const patched = await api.PATCH('/pets/{id}', {
      params: { path: { id: miso.id }, header: { 'If-Match': etag } },
      body: { medical: { vaccinations: ['rabies'] } },
    });
    expect(patched.response.status).toBe(200);
    expect(present(patched.data, 'patched pet').medical).toEqual({ spayed_neutered: true, vaccinations: ['rabies'] });

    // The old tag no longer matches: 412 in the error shape.
    const stale = await api.PATCH('/pets/{id}', {
      params: { path: { id: miso.id }, header: { 'If-Match': etag } },
      body: { status: 'pending' },
    });
    expect(stale.response.status).toBe(412);
    expect(present(stale.error, 'error').message).toBe(Messages.preconditionFailed('pet'));

    // Adopted: the history says so.
    const adopted = await api.PATCH('/pets/{id}', { params: { path: { id: miso.id } }, body: { status: 'adopted' } });
    expect(present(adopted.data, 'adopted pet').status).toBe('adopted');
    const history = await api.GET('/pets/{id}/history', { params: { path: { id: miso.id } } });
    expect(present(history.data, 'history').map((entry) => entry.status)).toEqual(['available', 'adopted']);

    // Writes need a token; mistakes come back typed.
    const refused = await anonymous.POST('/pets', { body: petBody(shelter.id) });
    expect(refused.response.status).toBe(401);
    expect(present(refused.error, 'error').message).toBe(Messages.tokenRequired());
    const missing = await api.GET('/pets/{id}', { params: { path: { id: 999_999 } } });
    expect(missing.response.status).toBe(404);
    expect(present(missing.error, 'error').message).toBe(Messages.notFound('pet', '999999'));

    // The methods of a path.
    const options = await api.OPTIONS('/pets/{id}', { params: { path: { id: String(miso.id) } } });
    expect([options.response.status, options.response.headers.get('Allow')]).toEqual([
      204,
      'GET, HEAD, PUT, PATCH, DELETE, OPTIONS',
    ]);

    // A shelter with pets stays; once they are gone, it goes.
    const blocked = await api.DELETE('/shelters/{id}', { params: { path: { id: shelter.id } } });
    expect(blocked.response.status).toBe(409);
    for (const pet of [miso, biscuit, pepper]) {
      const deleted = await api.DELETE('/pets/{id}', { params: { path: { id: pet.id } } });
      expect(present(deleted.data, 'deleted pet').id).toBe(pet.id);
    }
    const removed = await api.DELETE('/shelters/{id}', { params: { path: { id: shelter.id } } });
    expect(removed.data).toEqual(shelter);
    const empty = await api.GET('/pets');
    expect(empty.data).toEqual([]);
  });
});
