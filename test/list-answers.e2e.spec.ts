/**
 * List answers: gzip when the client accepts it, and never stale. The service keeps list
 * answers until the data changes, so every write of its own must show in the next list, and
 * so must one made by another connection: at once on SQLite (the file says it changed), within
 * LIST_CACHE_TTL_MS on PostgreSQL (other instances write unseen).
 */
import type { INestApplication } from '@nestjs/common';
import Database from 'better-sqlite3';
import pg from 'pg';

import { createPet, createShelter, http, startApp, TOKEN, validShelter } from './support/app.js';
import { onPostgres, provision, type Provisioned } from './support/database.js';

interface PetBody {
  id: number;
  name: string;
  status: string;
}

const TTL_MS = 300;

describe('list answers', () => {
  let storage: Provisioned;
  let app: INestApplication;
  let shelterId: number;

  beforeAll(async () => {
    storage = await provision({ durable: true });
    app = await startApp({ ...storage.env, LIST_CACHE_TTL_MS: String(TTL_MS) });
    shelterId = (await createShelter(app)).id;
    for (let index = 1; index <= 8; index++) {
      await createPet(app, shelterId, { name: `Pet ${index}`, status: index % 2 === 0 ? 'pending' : 'available' });
    }
  });
  afterAll(async () => {
    await app.close();
    await storage.release();
  });

  const names = async (query: Record<string, string> = {}) =>
    ((await http(app).get('/pets').query(query).expect(200)).body as PetBody[]).map((pet) => pet.name);

  it('are gzip compressed for a client that accepts gzip, with the same JSON', async () => {
    const plain = await http(app).get('/pets').set('Accept-Encoding', 'identity').expect(200);
    const zipped = await http(app).get('/pets').set('Accept-Encoding', 'gzip, deflate, br').expect(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(zipped.headers.vary).toMatch(/Accept-Encoding/);
    expect(zipped.body).toEqual(plain.body);
    expect(plain.body).toHaveLength(8);
  });

  it('are sent as they are, with their length, to a client that does not accept gzip', async () => {
    for (const acceptEncoding of ['identity', 'gzip;q=0', 'br']) {
      const res = await http(app).get('/pets').set('Accept-Encoding', acceptEncoding).expect(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.vary).toMatch(/Accept-Encoding/);
      expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(JSON.stringify(res.body)));
    }
  });

  it('leaves a short answer uncompressed', async () => {
    const res = await http(app)
      .get('/pets')
      .query({ breed: 'Unknown breed' })
      .set('Accept-Encoding', 'gzip')
      .expect(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toEqual([]);
  });

  it('show each create, update and delete in the very next list', async () => {
    expect(await names({ status: 'available' })).toEqual(['Pet 1', 'Pet 3', 'Pet 5', 'Pet 7']);
    const created = await createPet(app, shelterId, { name: 'Newcomer', status: 'available' });
    expect(await names({ status: 'available' })).toEqual(['Pet 1', 'Pet 3', 'Pet 5', 'Pet 7', 'Newcomer']);

    await http(app).patch(`/pets/${created.id}`).set('Authorization', TOKEN).send({ status: 'pending' }).expect(200);
    expect(await names({ status: 'available' })).toEqual(['Pet 1', 'Pet 3', 'Pet 5', 'Pet 7']);
    expect(await names({ status: 'pending' })).toEqual(['Pet 2', 'Pet 4', 'Pet 6', 'Pet 8', 'Newcomer']);

    await http(app).delete(`/pets/${created.id}`).set('Authorization', TOKEN).expect(200);
    expect(await names({ status: 'pending' })).toEqual(['Pet 2', 'Pet 4', 'Pet 6', 'Pet 8']);

    const before = (await http(app).get('/shelters').expect(200)).body as { name: string }[];
    await http(app)
      .put(`/shelters/${shelterId}`)
      .set('Authorization', TOKEN)
      .send(validShelter({ name: 'Renamed Shelter' }))
      .expect(200);
    const after = (await http(app).get('/shelters').expect(200)).body as { name: string }[];
    expect(before.map((shelter) => shelter.name)).toEqual(['Happy Tails']);
    expect(after.map((shelter) => shelter.name)).toEqual(['Renamed Shelter']);
  });

  it('leave out nothing when a write is refused', async () => {
    const list = await names();
    await http(app).patch('/pets/1').set('Authorization', TOKEN).send({ shelter_id: 999 }).expect(400);
    await http(app).patch('/pets/1').set('Authorization', TOKEN).set('If-Match', '"0"').send({ name: 'X' }).expect(412);
    expect(await names()).toEqual(list);
  });

  it('show a write made by another connection to the same database', async () => {
    expect(await names({ status: 'available' })).toContain('Pet 1');
    await http(app).get('/pets/1').expect(200);
    const url = storage.env.DATABASE_URL;
    if (onPostgres) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query("UPDATE pets SET name = 'Renamed elsewhere' WHERE name = 'Pet 1'");
      await client.end();
      // Kept answers may lag another instance's write by LIST_CACHE_TTL_MS, no more.
      await new Promise((resolve) => setTimeout(resolve, TTL_MS + 50));
    } else {
      const db = new Database(url.replace(/^sqlite:/, ''));
      db.prepare("UPDATE pets SET name = 'Renamed elsewhere' WHERE name = 'Pet 1'").run();
      db.close();
      // Another connection's commit is looked for every 100 ms.
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    expect(await names({ status: 'available' })).toEqual(['Renamed elsewhere', 'Pet 3', 'Pet 5', 'Pet 7']);
    const pet = (await http(app).get('/pets/1').expect(200)).body as PetBody;
    expect(pet.name).toBe('Renamed elsewhere');
  });

  it('check a query string asked again just as the first time', async () => {
    for (let round = 0; round < 3; round++) {
      expect(await names({ status: 'pending', sort: '-name' })).toEqual(['Pet 8', 'Pet 6', 'Pet 4', 'Pet 2']);
      const refused = await http(app).get('/pets').query({ status: 'lost', sort: 'name' }).expect(400);
      expect(refused.body).toMatchObject({
        message: 'Invalid query parameter format',
        details: [
          {
            field: 'status',
            message: "Invalid value for 'status'. Must be one of the allowed values (available, pending, adopted).",
          },
        ],
      });
    }
    // The same parameters in another order, and one more, are checked on their own.
    expect(await names({ sort: '-name', status: 'pending' })).toEqual(['Pet 8', 'Pet 6', 'Pet 4', 'Pet 2']);
    await http(app).get('/pets').query({ sort: '-name', status: 'pending', colour: 'black' }).expect(400);
  });
});
