/** GET /pets/{id}/history: a pet's creation and every change of its status, oldest first. */
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { createPet, createShelter, expectResponse, http, startApp, TOKEN, validPet } from './support/app.js';

interface Change {
  status: string;
  changed_at: string;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('status history', () => {
  let app: INestApplication;
  let shelterId: number;

  beforeAll(async () => {
    app = await startApp();
    shelterId = (await createShelter(app)).id;
  });
  afterAll(async () => {
    await app.close();
  });

  const history = async (id: number) => (await http(app).get(`/pets/${id}/history`).expect(200)).body as Change[];
  const patch = (id: number, body: object) =>
    http(app).patch(`/pets/${id}`).set('Authorization', TOKEN).send(body).expect(200);

  it('lists each status a pet went through, oldest first, with the time it was set', async () => {
    const before = Date.now();
    const pet = await createPet(app, shelterId, { status: 'available' });
    await patch(pet.id, { status: 'pending' });
    await patch(pet.id, { name: 'Renamed' }); // not a status change
    await patch(pet.id, { status: 'pending' }); // the same status again: no change
    await patch(pet.id, { status: 'available' });
    await http(app)
      .put(`/pets/${pet.id}`)
      .set('Authorization', TOKEN)
      .send(validPet(shelterId, { status: 'adopted' }))
      .expect(200);
    const after = Date.now();

    const changes = await history(pet.id);
    expect(changes.map((change) => change.status)).toEqual(['available', 'pending', 'available', 'adopted']);
    for (const change of changes) {
      expect(Object.keys(change)).toEqual(['status', 'changed_at']);
      expect(change.changed_at).toMatch(ISO_TIME);
      expect(Date.parse(change.changed_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(Date.parse(change.changed_at)).toBeLessThanOrEqual(after + 1000);
    }
    const times = changes.map((change) => Date.parse(change.changed_at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('records nothing for a refused change', async () => {
    const pet = await createPet(app, shelterId, { status: 'available' });
    await http(app)
      .patch(`/pets/${pet.id}`)
      .set('Authorization', TOKEN)
      .send({ status: 'pending', shelter_id: 9999 })
      .expect(400);
    await http(app)
      .patch(`/pets/${pet.id}`)
      .set('Authorization', TOKEN)
      .set('If-Match', '"0"')
      .send({ status: 'pending' })
      .expect(412);
    await http(app).patch(`/pets/${pet.id}`).set('Authorization', TOKEN).send({ status: 'sold' }).expect(400);
    expect((await history(pet.id)).map((change) => change.status)).toEqual(['available']);
  });

  it('answers 404 for an unknown pet and 400 for a malformed id', async () => {
    await expectResponse(http(app).get('/pets/999999/history'), 404, {
      error: 'Not Found',
      message: "Pet with 'id' 999999 not found.",
      status: 404,
      request_id: expect.any(String) as unknown,
    });
    await expectResponse(http(app).get('/pets/abc/history'), 400, {
      error: 'Bad Request',
      message: "Invalid pet 'id'. Must be a positive integer.",
      status: 400,
      request_id: expect.any(String) as unknown,
    });
  });

  it('is deleted with the pet', async () => {
    const pet = await createPet(app, shelterId);
    await patch(pet.id, { status: 'pending' });
    await http(app).delete(`/pets/${pet.id}`).set('Authorization', TOKEN).expect(200);
    await http(app).get(`/pets/${pet.id}/history`).expect(404);
    const rows = await app
      .get(DataSource)
      .query<unknown[]>(`SELECT * FROM pet_status_history WHERE pet_id = ${Number(pet.id)}`);
    expect(rows).toEqual([]);
  });
});
