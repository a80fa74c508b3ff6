import type { INestApplication } from '@nestjs/common';

import {
  createPet,
  createShelter,
  expectResponse,
  http,
  resetDatabase,
  startApp,
  TOKEN,
  validShelter,
} from './support/app.js';

const invalid = (field: string, message: string) => ({
  error: 'Bad Request',
  message,
  status: 400,
  details: [{ field, message }],
  request_id: expect.any(String),
});
const USD = "Invalid value for 'adoption_fee_range'. Must be in USD.";
const MALFORMED = "Invalid value for 'adoption_fee_range'. Must be written as <low>-<high> in USD, for example 75-200.";

describe('shelters', () => {
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

  const post = (body: object) => http(app).post('/shelters').set('Authorization', TOKEN).send(body);

  it('creates a shelter: 201, Location, fields in contract order', async () => {
    const res = await post(validShelter()).expect(201);
    expect(res.headers.location).toBe('/shelters/1');
    expect(Object.keys(res.body)).toEqual([
      'name',
      'address',
      'phone',
      'email',
      'hours',
      'available_pet_count',
      'adoption_fee_range',
      'id',
    ]);
    expect(res.body).toEqual({ ...validShelter(), id: 1 });
  });

  it('serves one shelter at /shelters/{id} and at the alias /shelter/{id}', async () => {
    const shelter = await createShelter(app);
    await http(app).get(`/shelters/${shelter.id}`).expect(200, shelter);
    await http(app).get(`/shelter/${shelter.id}`).expect(200, shelter);
    await http(app).get('/shelters').expect(200, [shelter]);
  });

  it.each(['75-200', '$75-$200', '$75.00 - $200.00', '75-200 USD', 'usd 75-200'])(
    'accepts the fee range %p',
    async (range) => {
      const res = await post(validShelter({ adoption_fee_range: range })).expect(201);
      expect(res.body.adoption_fee_range).toBe(range);
    },
  );

  it('stores the fee range trimmed', async () => {
    const res = await post(validShelter({ adoption_fee_range: '  75-200  ' })).expect(201);
    expect(res.body.adoption_fee_range).toBe('75-200');
  });

  it.each(['€75-€200', '75-200 EUR', 'abc', '$75-€200', 'CAD 75-200', '£50-£90'])(
    'says %p is not in USD',
    async (range) => {
      await expectResponse(post(validShelter({ adoption_fee_range: range })), 400, invalid('adoption_fee_range', USD));
    },
  );

  it.each(['cheap', '200-75', '75', 'US$75-200', 123, '75-100001'])('says %p is malformed', async (range) => {
    await expectResponse(
      post(validShelter({ adoption_fee_range: range })),
      400,
      invalid('adoption_fee_range', MALFORMED),
    );
  });

  it.each([
    ['name', '', "Invalid value for 'name'. Must be a non-empty string of at most 100 characters."],
    ['address', 'x'.repeat(301), "Invalid value for 'address'. Must be a non-empty string of at most 300 characters."],
    ['phone', '555-123-4567', "Invalid value for 'phone'. Must match the format +1-XXX-XXX-XXXX."],
    ['phone', '+1-555-123-45678', "Invalid value for 'phone'. Must match the format +1-XXX-XXX-XXXX."],
    ['email', 'no-at-sign.org', "Invalid value for 'email'. Must be a valid email address."],
    ['email', 'a b@c.org', "Invalid value for 'email'. Must be a valid email address."],
    ['email', 'a@b@c.org', "Invalid value for 'email'. Must be a valid email address."],
    ['email', 'a@localhost', "Invalid value for 'email'. Must be a valid email address."],
    ['hours', ' ', "Invalid value for 'hours'. Must be a non-empty string of at most 200 characters."],
    ['available_pet_count', 100001, "Invalid value for 'available_pet_count'. Must be an integer from 0 to 100000."],
    ['available_pet_count', 2.5, "Invalid value for 'available_pet_count'. Must be an integer from 0 to 100000."],
    ['available_pet_count', null, 'Missing required field: available_pet_count'],
  ])('rejects %s = %p', async (field, value, message) => {
    await expectResponse(post(validShelter({ [field]: value })), 400, invalid(field, message));
    await http(app).get('/shelters').expect(200, []);
  });

  it('patches the given fields only, treating null as a wrong value', async () => {
    const shelter = await createShelter(app);
    await http(app)
      .patch(`/shelters/${shelter.id}`)
      .set('Authorization', TOKEN)
      .send({ hours: 'Daily 10-18' })
      .expect(200, { ...shelter, hours: 'Daily 10-18' });
    await expectResponse(
      http(app).patch(`/shelters/${shelter.id}`).set('Authorization', TOKEN).send({ adoption_fee_range: null }),
      400,
      invalid('adoption_fee_range', MALFORMED),
    );
  });

  it('replaces a shelter with PUT', async () => {
    const shelter = await createShelter(app);
    const replacement = validShelter({ name: 'North', available_pet_count: 0 });
    await http(app)
      .put(`/shelters/${shelter.id}`)
      .set('Authorization', TOKEN)
      .send(replacement)
      .expect(200, { ...replacement, id: shelter.id });
  });

  it.each([
    [1, "Shelter with 'id' 1 still has 1 pet. Move or delete them first."],
    [2, "Shelter with 'id' 1 still has 2 pets. Move or delete them first."],
  ])('refuses to delete a shelter with %i pets and deletes nothing', async (count, message) => {
    const shelter = await createShelter(app);
    for (let i = 0; i < count; i++) {
      await createPet(app, shelter.id);
    }
    await expectResponse(http(app).delete(`/shelters/${shelter.id}`).set('Authorization', TOKEN), 409, {
      error: 'Conflict',
      message,
      status: 409,
      request_id: expect.any(String),
    });
    await http(app).get(`/shelters/${shelter.id}`).expect(200, shelter);
  });

  it('deletes an empty shelter and returns it', async () => {
    const shelter = await createShelter(app);
    await http(app).delete(`/shelters/${shelter.id}`).set('Authorization', TOKEN).expect(200, shelter);
    await expectResponse(http(app).get(`/shelters/${shelter.id}`), 404, {
      error: 'Not Found',
      message: `Shelter with 'id' ${shelter.id} not found.`,
      status: 404,
      request_id: expect.any(String),
    });
  });

  it.each(['0', 'abc', '01'])('answers 400 for the shelter id %p', async (id) => {
    await expectResponse(http(app).get(`/shelters/${id}`), 400, {
      error: 'Bad Request',
      message: "Invalid shelter 'id'. Must be a positive integer.",
      status: 400,
      request_id: expect.any(String),
    });
  });
});
