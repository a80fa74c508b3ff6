import type { INestApplication } from '@nestjs/common';

import { createPet, createShelter, expectResponse, http, resetDatabase, startApp, TOKEN } from './support/app.js';

const preconditionFailed = (resource: string) => ({
  error: 'Precondition Failed',
  message: `The ${resource} was modified by another request. Fetch it again and retry.`,
  status: 412,
  request_id: expect.any(String),
});

describe('ETags and conditional requests', () => {
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

  it('tags single resources with a strong ETag that changes on every write, not lists', async () => {
    const shelter = await createShelter(app);
    const pet = await createPet(app, shelter.id);
    const first = await http(app).get(`/pets/${pet.id}`).expect(200);
    expect(first.headers.etag).toMatch(/^"[^"]+"$/);
    const patched = await http(app)
      .patch(`/pets/${pet.id}`)
      .set('Authorization', TOKEN)
      .send({ name: 'Tom' })
      .expect(200);
    expect(patched.headers.etag).toMatch(/^"[^"]+"$/);
    expect(patched.headers.etag).not.toBe(first.headers.etag);
    const list = await http(app).get('/pets').expect(200);
    expect(list.headers.etag).toBeUndefined();
  });

  it('answers a GET with a matching If-None-Match with 304', async () => {
    const shelter = await createShelter(app);
    const res = await http(app).get(`/shelters/${shelter.id}`).expect(200);
    const notModified = await http(app)
      .get(`/shelters/${shelter.id}`)
      .set('If-None-Match', res.headers.etag)
      .expect(304);
    expect(notModified.text).toBe('');
    await http(app).get(`/shelters/${shelter.id}`).set('If-None-Match', '"other"').expect(200, shelter);
  });

  it.each(['put', 'patch', 'delete'] as const)(
    'refuses a %s whose If-Match no longer matches, changing nothing',
    async (method) => {
      const shelter = await createShelter(app);
      const pet = await createPet(app, shelter.id);
      const stale = (await http(app).get(`/pets/${pet.id}`)).headers.etag;
      await http(app).patch(`/pets/${pet.id}`).set('Authorization', TOKEN).send({ name: 'Tom' }).expect(200);
      const current = (await http(app).get(`/pets/${pet.id}`).expect(200)).body;
      const body = method === 'delete' ? undefined : { ...pet, id: undefined, name: 'Stale' };
      await expectResponse(
        http(app)[method](`/pets/${pet.id}`).set('Authorization', TOKEN).set('If-Match', stale).send(body),
        412,
        preconditionFailed('pet'),
      );
      await http(app).get(`/pets/${pet.id}`).expect(200, current);
    },
  );

  it('lets exactly one of several writes with the same If-Match succeed', async () => {
    const shelter = await createShelter(app);
    const etag = (await http(app).get(`/shelters/${shelter.id}`)).headers.etag;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        http(app)
          .patch(`/shelters/${shelter.id}`)
          .set('Authorization', TOKEN)
          .set('If-Match', etag)
          .send({ hours: `h${i}` }),
      ),
    );
    expect(results.map((res) => res.status).sort()).toEqual([200, ...Array(9).fill(412)]);
  });

  it('accepts a matching If-Match and *', async () => {
    const shelter = await createShelter(app);
    const etag = (await http(app).get(`/shelters/${shelter.id}`)).headers.etag;
    await http(app)
      .patch(`/shelters/${shelter.id}`)
      .set('Authorization', TOKEN)
      .set('If-Match', etag)
      .send({ hours: 'x' })
      .expect(200);
    await http(app).delete(`/shelters/${shelter.id}`).set('Authorization', TOKEN).set('If-Match', '*').expect(200);
  });
});
