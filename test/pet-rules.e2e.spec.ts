import type { INestApplication } from '@nestjs/common';

import {
  createPet,
  createShelter,
  expectResponse,
  http,
  resetDatabase,
  startApp,
  TOKEN,
  validPet,
} from './support/app.js';

const bad = (message: string, details?: Array<{ field: string; message: string }>) => ({
  error: 'Bad Request',
  message,
  status: 400,
  ...(details ? { details } : {}),
  request_id: expect.any(String),
});
const invalid = (field: string, message: string) => bad(message, [{ field, message }]);

describe('pets', () => {
  let app: INestApplication;
  let shelterId: number;

  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    await resetDatabase(app);
    shelterId = (await createShelter(app)).id;
  });

  const post = (body: unknown) =>
    http(app)
      .post('/pets')
      .set('Authorization', TOKEN)
      .send(body as object);
  const patch = (id: number | string, body: unknown) =>
    http(app)
      .patch(`/pets/${id}`)
      .set('Authorization', TOKEN)
      .send(body as object);

  it('creates a pet: 201, Location, the body in contract order with id last', async () => {
    const res = await post(validPet(shelterId)).expect(201);
    expect(res.headers.location).toBe(`/pets/${res.body.id}`);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Object.keys(res.body)).toEqual([
      'name',
      'species',
      'breed',
      'age_months',
      'gender',
      'size',
      'temperament',
      'medical',
      'description',
      'shelter_id',
      'status',
      'intake_date',
      'id',
    ]);
    expect(Object.keys(res.body.medical)).toEqual(['spayed_neutered', 'vaccinations']);
    expect(res.body).toEqual({ ...validPet(shelterId), id: 1 });
  });

  it('lists pets ordered by id', async () => {
    const a = await createPet(app, shelterId, { name: 'A' });
    const b = await createPet(app, shelterId, { name: 'B' });
    await http(app).get('/pets').expect(200, [a, b]);
  });

  it.each([
    ['name', '', "Invalid value for 'name'. Must be a non-empty string of at most 100 characters."],
    ['name', '   ', "Invalid value for 'name'. Must be a non-empty string of at most 100 characters."],
    ['name', 'x'.repeat(101), "Invalid value for 'name'. Must be a non-empty string of at most 100 characters."],
    ['name', 7, "Invalid value for 'name'. Must be a non-empty string of at most 100 characters."],
    ['species', 'Cat', "Invalid value for 'species'. Must be one of the allowed values (cat, dog)."],
    ['breed', '', "Invalid value for 'breed'. Must be a non-empty string of at most 100 characters."],
    ['age_months', -1, "Invalid value for 'age_months'. Must be an integer from 0 to 600."],
    ['age_months', 601, "Invalid value for 'age_months'. Must be an integer from 0 to 600."],
    ['age_months', 1.5, "Invalid value for 'age_months'. Must be an integer from 0 to 600."],
    ['age_months', '12', "Invalid value for 'age_months'. Must be an integer from 0 to 600."],
    ['gender', 'other', "Invalid value for 'gender'. Must be one of the allowed values (male, female)."],
    ['size', 'huge', "Invalid value for 'size'. Must be one of the allowed values (small, medium, large)."],
    ['temperament', 'x'.repeat(501), "Invalid value for 'temperament'. Must be a string of at most 500 characters."],
    ['medical', [], "Invalid value for 'medical'. Must be an object with 'spayed_neutered' and 'vaccinations'."],
    ['medical', 'healthy', "Invalid value for 'medical'. Must be an object with 'spayed_neutered' and 'vaccinations'."],
    ['description', 'x'.repeat(5001), "Invalid value for 'description'. Must be a string of at most 5000 characters."],
    ['shelter_id', 0, "Invalid value for 'shelter_id'. Must be a positive integer."],
    ['shelter_id', '1', "Invalid value for 'shelter_id'. Must be a positive integer."],
    ['status', 'sold', "Invalid value for 'status'. Must be one of the allowed values (available, pending, adopted)."],
    ['intake_date', '2023-02-29', "Invalid value for 'intake_date'. Must be a date in YYYY-MM-DD format."],
    ['intake_date', '2024/01/01', "Invalid value for 'intake_date'. Must be a date in YYYY-MM-DD format."],
  ])('rejects %s = %p and stores nothing', async (field, value, message) => {
    await expectResponse(post(validPet(shelterId, { [field]: value })), 400, invalid(field, message));
    await http(app).get('/pets').expect(200, []);
  });

  it.each([
    [
      { spayed_neutered: 'yes', vaccinations: [] },
      'medical.spayed_neutered',
      "Invalid value for 'medical.spayed_neutered'. Must be true or false.",
    ],
    [
      { spayed_neutered: true, vaccinations: 'rabies' },
      'medical.vaccinations',
      "Invalid value for 'medical.vaccinations'. Must be an array of at most 50 non-empty strings.",
    ],
    [
      { spayed_neutered: true, vaccinations: [''] },
      'medical.vaccinations',
      "Invalid value for 'medical.vaccinations'. Must be an array of at most 50 non-empty strings.",
    ],
    [
      { spayed_neutered: true, vaccinations: Array(51).fill('x') },
      'medical.vaccinations',
      "Invalid value for 'medical.vaccinations'. Must be an array of at most 50 non-empty strings.",
    ],
    [{ spayed_neutered: true }, 'medical.vaccinations', 'Missing required field: medical.vaccinations'],
    [{ vaccinations: [] }, 'medical.spayed_neutered', 'Missing required field: medical.spayed_neutered'],
    [{ spayed_neutered: true, vaccinations: [], color: 'x' }, 'medical.color', "Unknown field: 'medical.color'."],
  ])('checks medical %p', async (medical, field, message) => {
    await expectResponse(post(validPet(shelterId, { medical })), 400, invalid(field, message));
  });

  it('accepts numbers by value and lengths in code points', async () => {
    const res = await post(validPet(shelterId, { age_months: 1e2, name: '🐱'.repeat(100) })).expect(201);
    expect(res.body.age_months).toBe(100);
    await post({ ...validPet(shelterId), name: '🐱'.repeat(101) }).expect(400);
    const raw = JSON.stringify(validPet(shelterId)).replace('"age_months":18', '"age_months":18.0');
    const res2 = await http(app)
      .post('/pets')
      .set('Authorization', TOKEN)
      .set('Content-Type', 'application/json')
      .send(raw)
      .expect(201);
    expect(res2.body.age_months).toBe(18);
  });

  it.each([
    ['U+0000', '"Whis\\u0000kers"'],
    ['a lone surrogate', '"Whis\\ud800kers"'],
  ])('rejects a name holding %s', async (_what, json) => {
    const raw = JSON.stringify(validPet(shelterId)).replace('"Whiskers"', json);
    const message = "Invalid value for 'name'. Must be a non-empty string of at most 100 characters.";
    await expectResponse(
      http(app).post('/pets').set('Authorization', TOKEN).set('Content-Type', 'application/json').send(raw),
      400,
      invalid('name', message),
    );
  });

  it('treats null as missing on POST and reports every problem, unknown fields first', async () => {
    const body = { color: 'red', ...validPet(shelterId), name: null, species: 'bird', size: 'huge', flavor: 1 };
    await expectResponse(
      post(body),
      400,
      bad("Unknown field: 'color'.", [
        { field: 'color', message: "Unknown field: 'color'." },
        { field: 'flavor', message: "Unknown field: 'flavor'." },
        { field: 'name', message: 'Missing required field: name' },
        { field: 'species', message: "Invalid value for 'species'. Must be one of the allowed values (cat, dog)." },
        {
          field: 'size',
          message: "Invalid value for 'size'. Must be one of the allowed values (small, medium, large).",
        },
      ]),
    );
  });

  it('ignores a client-sent id', async () => {
    const res = await post({ ...validPet(shelterId), id: 99 }).expect(201);
    expect(res.body.id).toBe(1);
  });

  it('rejects a pet whose shelter does not exist', async () => {
    const message = "Invalid value for 'shelter_id'. Shelter with 'id' 999 not found.";
    await expectResponse(post(validPet(999)), 400, invalid('shelter_id', message));
    await http(app).get('/pets').expect(200, []);
  });

  it.each([
    [[], 'Request body must be a JSON object.'],
    ['"text"', 'Request body must be a JSON object.'],
  ])('rejects the body %p', async (body, message) => {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    await expectResponse(
      http(app).post('/pets').set('Authorization', TOKEN).set('Content-Type', 'application/json').send(raw),
      400,
      bad(message),
    );
  });

  it.each(['0', '-1', 'abc', '1.5', '1e3', '01', '+1'])('answers 400 for the pet id %p', async (id) => {
    await expectResponse(http(app).get(`/pets/${id}`), 400, bad("Invalid pet 'id'. Must be a positive integer."));
  });

  it.each(['42', '9999999999999999'])('answers 404 for the absent pet id %p, repeating it', async (id) => {
    const notFound = {
      error: 'Not Found',
      message: `Pet with 'id' ${id} not found.`,
      status: 404,
      request_id: expect.any(String),
    };
    await expectResponse(http(app).get(`/pets/${id}`), 404, notFound);
    await expectResponse(http(app).delete(`/pets/${id}`).set('Authorization', TOKEN), 404, notFound);
  });

  it('replaces a pet with PUT, requiring every field', async () => {
    const pet = await createPet(app, shelterId);
    const replacement = validPet(shelterId, {
      name: 'Tom',
      species: 'dog',
      medical: { spayed_neutered: false, vaccinations: [] },
    });
    await http(app)
      .put(`/pets/${pet.id}`)
      .set('Authorization', TOKEN)
      .send(replacement)
      .expect(200, { ...replacement, id: pet.id });
    const { breed: _breed, ...incomplete } = replacement;
    await expectResponse(
      http(app).put(`/pets/${pet.id}`).set('Authorization', TOKEN).send(incomplete),
      400,
      invalid('breed', 'Missing required field: breed'),
    );
  });

  it('checks existence before the shelter reference on PUT', async () => {
    await expectResponse(http(app).put('/pets/42').set('Authorization', TOKEN).send(validPet(999)), 404, {
      error: 'Not Found',
      message: "Pet with 'id' 42 not found.",
      status: 404,
      request_id: expect.any(String),
    });
  });

  it('patches only the given fields and merges medical', async () => {
    const pet = await createPet(app, shelterId);
    const res = await patch(pet.id, { status: 'adopted', medical: { vaccinations: ['rabies'] } }).expect(200);
    expect(res.body).toEqual({
      ...pet,
      status: 'adopted',
      medical: { spayed_neutered: true, vaccinations: ['rabies'] },
    });
    await http(app).get(`/pets/${pet.id}`).expect(200, res.body);
  });

  it.each([[{}], [{ id: 5 }], [{ medical: {} }]])('rejects the empty PATCH %p', async (body) => {
    const pet = await createPet(app, shelterId);
    await expectResponse(patch(pet.id, body), 400, bad('Request body must contain at least one field.'));
  });

  it.each([
    ['name', "Invalid value for 'name'. Must be a non-empty string of at most 100 characters."],
    ['medical', "Invalid value for 'medical'. Must be an object with 'spayed_neutered' and 'vaccinations'."],
  ])('treats null as a wrong value in a PATCH of %s', async (field, message) => {
    const pet = await createPet(app, shelterId);
    await expectResponse(patch(pet.id, { [field]: null }), 400, invalid(field, message));
    await http(app).get(`/pets/${pet.id}`).expect(200, pet);
  });

  it('deletes a pet and returns it as it was', async () => {
    const pet = await createPet(app, shelterId);
    await http(app).delete(`/pets/${pet.id}`).set('Authorization', TOKEN).expect(200, pet);
    await http(app).get(`/pets/${pet.id}`).expect(404);
  });

  it('loses no change when 40 PATCHes of different fields race', async () => {
    const pet = await createPet(app, shelterId);
    const names = Array.from({ length: 20 }, (_, i) => `name-${i}`);
    const descriptions = Array.from({ length: 20 }, (_, i) => `description-${i}`);
    const responses = await Promise.all([
      ...names.map((name) => patch(pet.id, { name })),
      ...descriptions.map((description) => patch(pet.id, { description })),
    ]);
    expect(responses.map((res) => res.status)).toEqual(Array(40).fill(200));
    const final = (await http(app).get(`/pets/${pet.id}`).expect(200)).body;
    expect(names).toContain(final.name);
    expect(descriptions).toContain(final.description);
    expect(final).toEqual({ ...pet, name: final.name, description: final.description });
  });
});
