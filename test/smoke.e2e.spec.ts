import type { INestApplication } from '@nestjs/common';

import { createPet, createShelter, http, resetDatabase, startApp, validPet } from './support/app.js';

describe('pets smoke', () => {
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

  it('creates a pet and reads it back with fields in contract order', async () => {
    const shelter = await createShelter(app);
    const pet = await createPet(app, shelter.id);
    const res = await http(app).get(`/pets/${pet.id}`).expect(200);
    expect(Object.keys(res.body)).toEqual([...Object.keys(validPet(shelter.id)), 'id']);
    expect(res.body).toEqual({ ...validPet(shelter.id), id: pet.id });
  });
});
