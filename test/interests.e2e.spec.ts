/** Adopters' interest in pets: the rules and messages of POST /pets/{id}/interest, reads that need a token, status changes. */
import type { INestApplication } from '@nestjs/common';

import { apiError, createPet, createShelter, expectResponse, http, startApp, TOKEN } from './support/app.js';

describe('interests', () => {
  let app: INestApplication;
  let shelterId: number;
  let petId: number;

  beforeAll(async () => {
    app = await startApp();
    shelterId = (await createShelter(app)).id;
  });
  beforeEach(async () => {
    petId = (await createPet(app, shelterId)).id;
  });
  afterAll(async () => {
    await app.close();
  });

  const post = (id: number | string, body: unknown) =>
    http(app)
      .post(`/pets/${id}/interest`)
      .set('Authorization', TOKEN)
      .send(body as object);
  const ada = { name: 'Ada Lovelace', email: 'ada@example.org' };

  it('registers an interest: 201, Location, the body in order with "" for what was left out', async () => {
    const res = await post(petId, ada);
    expect(res.status).toBe(201);
    const body = res.body as { id: number; created_at: string };
    expect(Object.keys(body)).toEqual([
      'pet_id',
      'shelter_id',
      'name',
      'email',
      'phone',
      'message',
      'status',
      'created_at',
      'id',
    ]);
    expect(body).toEqual({
      pet_id: petId,
      shelter_id: shelterId,
      name: 'Ada Lovelace',
      email: 'ada@example.org',
      phone: '',
      message: '',
      status: 'new',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as unknown,
      id: expect.any(Number) as unknown,
    });
    expect(res.headers.location).toBe(`/interests/${body.id}`);
    expect(res.headers.etag).toBe(`"${body.id}.1"`);
    await expectResponse(http(app).get(`/interests/${body.id}`).set('Authorization', TOKEN), 200, res.body);
  });

  it('keeps the phone and message sent', async () => {
    const res = await post(petId, { ...ada, phone: '+1-503-555-0100', message: 'We have a garden.' }).expect(201);
    expect(res.body).toMatchObject({ phone: '+1-503-555-0100', message: 'We have a garden.' });
  });

  it.each([
    [{ email: 'a@b.org' }, [{ field: 'name', message: 'Missing required field: name' }]],
    [
      { name: '  ', email: 'a@b.org' },
      [{ field: 'name', message: "Invalid value for 'name'. Must be a non-empty string of at most 100 characters." }],
    ],
    [
      { name: 'n'.repeat(101), email: 'a@b.org' },
      [{ field: 'name', message: "Invalid value for 'name'. Must be a non-empty string of at most 100 characters." }],
    ],
    [
      { name: 'Ada', email: 'not-an-email' },
      [{ field: 'email', message: "Invalid value for 'email'. Must be a valid email address." }],
    ],
    [
      { name: 'Ada', email: 'a@b.org', phone: '555-0100' },
      [{ field: 'phone', message: "Invalid value for 'phone'. Must match the format +1-XXX-XXX-XXXX." }],
    ],
    [
      { name: 'Ada', email: 'a@b.org', message: 'm'.repeat(2001) },
      [{ field: 'message', message: "Invalid value for 'message'. Must be a string of at most 2000 characters." }],
    ],
    [
      { name: 'Ada', email: 'a@b.org', phone: null },
      [{ field: 'phone', message: "Invalid value for 'phone'. Must match the format +1-XXX-XXX-XXXX." }],
    ],
    [{ name: 'Ada', email: 'a@b.org', status: 'approved' }, [{ field: 'status', message: "Unknown field: 'status'." }]],
  ])('refuses body #%# (%j) with 400 and stores nothing', async (body, details) => {
    const res = await post(petId, body);
    expect(res.status).toBe(400);
    expect((res.body as { details: unknown }).details).toEqual(details);
    await expectResponse(http(app).get(`/pets/${petId}/interests`).set('Authorization', TOKEN), 200, []);
  });

  it('answers 404 for an unknown pet, 409 for an adopted one and for a second open interest from one email', async () => {
    await expectResponse(post(999999, ada), 404, apiError(404, "Pet with 'id' 999999 not found."));
    const adopted = await createPet(app, shelterId, { status: 'adopted' });
    await expectResponse(
      post(adopted.id, ada),
      409,
      apiError(409, `Pet with 'id' ${adopted.id} has been adopted and takes no more interest.`),
    );
    const first = (await post(petId, ada).expect(201)).body as { id: number };
    await expectResponse(
      post(petId, { ...ada, email: 'ADA@example.org' }),
      409,
      apiError(409, `An open interest from this email in pet ${petId} already exists (id ${first.id}).`),
    );
    // Once it is closed, the same email may come again.
    await http(app)
      .patch(`/interests/${first.id}`)
      .set('Authorization', TOKEN)
      .send({ status: 'withdrawn' })
      .expect(200);
    await post(petId, ada).expect(201);
  });

  it('needs a token for every read and every write', async () => {
    const { id } = (await post(petId, ada).expect(201)).body as { id: number };
    for (const path of ['/interests', `/interests/${id}`, `/pets/${petId}/interests`]) {
      const res = await http(app).get(path);
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
    expect((await http(app).post(`/pets/${petId}/interest`).send(ada)).status).toBe(401);
    expect((await http(app).patch(`/interests/${id}`).send({ status: 'contacted' })).status).toBe(401);
  });

  it('lists and filters by pet, shelter and status, with paging', async () => {
    const other = (await createPet(app, shelterId)).id;
    const a = (await post(petId, ada).expect(201)).body as { id: number };
    const b = (await post(petId, { name: 'Bo', email: 'bo@example.org' }).expect(201)).body as { id: number };
    const c = (await post(other, ada).expect(201)).body as { id: number };
    await http(app).patch(`/interests/${b.id}`).set('Authorization', TOKEN).send({ status: 'contacted' }).expect(200);
    const ids = async (path: string) =>
      ((await http(app).get(path).set('Authorization', TOKEN).expect(200)).body as { id: number }[]).map((i) => i.id);
    expect(await ids(`/pets/${petId}/interests`)).toEqual([a.id, b.id]);
    expect(await ids(`/interests?pet_id=${other}`)).toEqual([c.id]);
    expect(await ids(`/pets/${petId}/interests?status=contacted`)).toEqual([b.id]);
    expect((await ids(`/interests?shelter_id=${shelterId}&sort=-id`)).slice(0, 3)).toEqual([c.id, b.id, a.id]);
    const page = await http(app).get(`/interests?pet_id=${petId}&limit=1`).set('Authorization', TOKEN).expect(200);
    expect(page.headers['x-total-count']).toBe('2');
    await expectResponse(
      http(app).get('/interests?pet_id=999999').set('Authorization', TOKEN),
      404,
      apiError(404, "Pet with 'id' 999999 not found."),
    );
    await expectResponse(
      http(app).get('/pets/999999/interests').set('Authorization', TOKEN),
      404,
      apiError(404, "Pet with 'id' 999999 not found."),
    );
  });

  it('changes the status only, with If-Match', async () => {
    const { id } = (await post(petId, ada).expect(201)).body as { id: number };
    const patch = (body: unknown, ifMatch?: string) => {
      const req = http(app).patch(`/interests/${id}`).set('Authorization', TOKEN);
      return (ifMatch ? req.set('If-Match', ifMatch) : req).send(body as object);
    };
    expect((await patch({ name: 'Eve' })).status).toBe(400);
    const wrong = await patch({ status: 'maybe' });
    expect((wrong.body as { details: unknown }).details).toEqual([
      {
        field: 'status',
        message:
          "Invalid value for 'status'. Must be one of the allowed values (new, contacted, approved, declined, withdrawn).",
      },
    ]);
    await expectResponse(
      patch({ status: 'approved' }, '"0.0"'),
      412,
      apiError(412, 'The interest was modified by another request. Fetch it again and retry.'),
    );
    const res = await patch({ status: 'approved' }, `"${id}.1"`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'approved', name: 'Ada Lovelace', id });
    expect(res.headers.etag).toBe(`"${id}.2"`);
  });

  it('goes with its pet: deleting the pet deletes its interests, with no 409', async () => {
    const { id } = (await post(petId, ada).expect(201)).body as { id: number };
    await http(app).delete(`/pets/${petId}`).set('Authorization', TOKEN).expect(200);
    await expectResponse(
      http(app).get(`/interests/${id}`).set('Authorization', TOKEN),
      404,
      apiError(404, `Interest with 'id' ${id} not found.`),
    );
  });

  it('replays an idempotent create', async () => {
    const send = () => post(petId, ada).set('Idempotency-Key', `interest-${petId}`);
    const first = await send().expect(201);
    const again = await send().expect(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });
});
