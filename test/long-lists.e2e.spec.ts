/** Lists longer than one read batch (1,000 rows) are streamed; clients see one JSON array. */
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { Pet } from '../src/pets/pet.entity.js';
import { createShelter, http, startApp, validPet } from './support/app.js';

const COUNT = 2_345;

describe('long lists', () => {
  let app: INestApplication;
  let shelterId: number;
  beforeAll(async () => {
    app = await startApp();
    shelterId = (await createShelter(app)).id;
    const pets = app.get(DataSource).getRepository(Pet);
    const rows = Array.from({ length: COUNT }, (_, index) => {
      const { medical, ...fields } = validPet(shelterId, {
        name: `Pet ${index + 1}`,
        species: index % 3 === 0 ? 'dog' : 'cat',
      });
      return pets.create({
        ...(fields as Partial<Pet>),
        breed_key: 'siamese',
        spayed_neutered: medical.spayed_neutered,
        vaccinations: medical.vaccinations,
      });
    });
    await pets.save(rows, { chunk: 200 });
  }, 60_000);
  afterAll(async () => {
    await app.close();
  });

  it('answers every pet once, in id order, as one JSON array', async () => {
    const res = await http(app).get('/pets').expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const pets = res.body as { id: number; name: string; medical: unknown }[];
    expect(pets).toHaveLength(COUNT);
    expect(pets.map((pet) => pet.id)).toEqual(Array.from({ length: COUNT }, (_, index) => index + 1));
    expect(pets[1_500]).toEqual({
      ...validPet(shelterId, { name: 'Pet 1501', species: 'dog' }),
      id: 1_501,
    });
  });

  it('applies filters across batches', async () => {
    const res = await http(app).get('/pets').query({ species: 'dog' }).expect(200);
    const dogs = res.body as { id: number; species: string }[];
    expect(dogs).toHaveLength(Math.ceil(COUNT / 3));
    expect(dogs.every((pet) => pet.species === 'dog' && (pet.id - 1) % 3 === 0)).toBe(true);
  });

  it('streams the list gzip compressed to a client that accepts gzip', async () => {
    const res = await http(app).get('/pets').set('Accept-Encoding', 'gzip').expect(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toMatch(/Accept-Encoding/);
    expect((res.body as unknown[]).length).toBe(COUNT);
  });

  it('answers HEAD without a body', async () => {
    const res = await http(app).head('/pets').expect(200);
    expect(res.text).toBeUndefined();
  });
});
