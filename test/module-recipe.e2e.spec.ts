/**
 * The module recipe (docs/adding-a-module.md), proven: the worked example in
 * test/fixtures/volunteers gets the whole contract from the shared pieces.
 */
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';

import { Volunteers1790000000000 } from './fixtures/volunteers/1790000000000-volunteers.js';
import { VolunteersModule } from './fixtures/volunteers/volunteers.module.js';
import { createPet, createShelter, expectResponse, http, startApp, TOKEN } from './support/app.js';

const error = (status: number, name: string, message: string, extra: Record<string, unknown> = {}) => ({
  error: name,
  message,
  status,
  ...extra,
  request_id: expect.any(String) as unknown,
});

describe('a module added by the recipe', () => {
  let app: INestApplication;
  let shelterId: number;
  beforeAll(async () => {
    app = await startApp({}, [VolunteersModule]);
    const runner = app.get(DataSource).createQueryRunner();
    await new Volunteers1790000000000().up(runner);
    await runner.release();
    shelterId = (await createShelter(app)).id;
  });
  afterAll(async () => {
    await app.close();
  });

  const volunteer = (fields: Record<string, unknown> = {}) => ({
    name: 'Ada',
    email: 'ada@example.org',
    hours_per_week: 6,
    shelter_id: shelterId,
    ...fields,
  });
  let ada: ReturnType<typeof volunteer>;
  beforeAll(() => {
    ada = volunteer();
  });

  it('creates, reads, updates and deletes with the API conventions', async () => {
    const created = await http(app).post('/volunteers').set('Authorization', TOKEN).send(ada).expect(201);
    expect(created.body).toEqual({ ...ada, id: 1 });
    expect(created.headers.location).toBe('/volunteers/1');

    const read = await http(app)
      .get('/volunteers/1')
      .expect(200, { ...ada, id: 1 });
    expect(read.headers.etag).toBe('"1.1"');
    expect(read.headers['x-ratelimit-limit']).toBe('1000000');
    await http(app).get('/volunteers/1').set('If-None-Match', '"1.1"').expect(304);

    await http(app)
      .patch('/volunteers/1')
      .set('Authorization', TOKEN)
      .set('If-Match', '"1.1"')
      .send({ hours_per_week: 8 })
      .expect(200, { ...ada, hours_per_week: 8, id: 1 });
    await expectResponse(
      http(app).delete('/volunteers/1').set('Authorization', TOKEN).set('If-Match', '"1.1"'),
      412,
      error(412, 'Precondition Failed', 'The volunteer was modified by another request. Fetch it again and retry.'),
    );
    await http(app).delete('/volunteers/1').set('Authorization', TOKEN).expect(200);
    await http(app).get('/volunteers').expect(200, []);
  });

  it('answers mistakes with the contract messages', async () => {
    await expectResponse(
      http(app).post('/volunteers').send(ada),
      401,
      error(401, 'Unauthorized', 'Authentication token is required for this operation.'),
    );
    const email = "Invalid value for 'email'. Must be a valid email address.";
    await expectResponse(
      http(app)
        .post('/volunteers')
        .set('Authorization', TOKEN)
        .send({ ...ada, email: 'nope', age: 3 }),
      400,
      error(400, 'Bad Request', "Unknown field: 'age'.", {
        details: [
          { field: 'age', message: "Unknown field: 'age'." },
          { field: 'email', message: email },
        ],
      }),
    );
    await expectResponse(
      http(app).get('/volunteers/abc'),
      400,
      error(400, 'Bad Request', "Invalid volunteer 'id'. Must be a positive integer."),
    );
    await expectResponse(
      http(app).get('/volunteers/9'),
      404,
      error(404, 'Not Found', "Volunteer with 'id' 9 not found."),
    );
    const options = await http(app).options('/volunteers/9').expect(204);
    expect(options.headers.allow).toBe('GET, HEAD, PUT, PATCH, DELETE, OPTIONS');
  });

  it('appears in the OpenAPI document with its rules and errors', async () => {
    const document = (await http(app).get('/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, { properties: Record<string, { description?: string }> }> };
    };
    expect(Object.keys(document.paths['/volunteers/{id}']).sort()).toEqual([
      'delete',
      'get',
      'head',
      'options',
      'patch',
      'put',
    ]);
    expect(Object.keys(document.paths['/volunteers/{id}'].patch.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404', '412', '413', '415', '429', '503']),
    );
    expect(document.components.schemas.CreateVolunteerDto.properties.hours_per_week.description).toBe(
      'Must be an integer from 0 to 60.',
    );
  });

  it('refers to its shelter: 400 for an unknown one in a body, 404 in a filter, and the shelter keeps it (409)', async () => {
    const other = await createShelter(app, { name: 'Second Chance' });
    const created = await http(app)
      .post('/volunteers')
      .set('Authorization', TOKEN)
      .send(volunteer({ shelter_id: other.id }))
      .expect(201);
    const id = (created.body as { id: number }).id;

    const unknown = "Invalid value for 'shelter_id'. Shelter with 'id' 999 not found.";
    await expectResponse(
      http(app)
        .post('/volunteers')
        .set('Authorization', TOKEN)
        .send(volunteer({ shelter_id: 999 })),
      400,
      error(400, 'Bad Request', unknown, { details: [{ field: 'shelter_id', message: unknown }] }),
    );
    await expectResponse(
      http(app).patch(`/volunteers/${id}`).set('Authorization', TOKEN).send({ shelter_id: 999 }),
      400,
      error(400, 'Bad Request', unknown, { details: [{ field: 'shelter_id', message: unknown }] }),
    );
    await expectResponse(
      http(app).get('/volunteers?shelter_id=999'),
      404,
      error(404, 'Not Found', "Shelter with 'id' 999 not found."),
    );
    await http(app)
      .get(`/volunteers?shelter_id=${other.id}`)
      .expect(200, [{ ...volunteer({ shelter_id: other.id }), id }]);

    await createPet(app, other.id);
    await createPet(app, other.id, { name: 'Mittens' });
    await expectResponse(
      http(app).delete(`/shelters/${other.id}`).set('Authorization', TOKEN),
      409,
      error(
        409,
        'Conflict',
        `Shelter with 'id' ${other.id} still has 2 pets and 1 volunteer. Move or delete them first.`,
      ),
    );
    await http(app).get(`/shelters/${other.id}`).expect(200);
  });

  it('pages its list and replays an idempotent create', async () => {
    const send = (key: string, name: string) =>
      http(app).post('/volunteers').set('Authorization', TOKEN).set('Idempotency-Key', key).send(volunteer({ name }));
    const first = await send('recipe-key-1', 'Grace').expect(201);
    const again = await send('recipe-key-1', 'Grace').expect(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    await send('recipe-key-2', 'Hedy').expect(201);

    const page = await http(app).get(`/volunteers?shelter_id=${shelterId}&limit=1&sort=-name`).expect(200);
    expect(page.body).toEqual([expect.objectContaining({ name: 'Hedy' })]);
    expect(page.headers['x-total-count']).toBe('2');
    expect(page.headers.link).toContain('rel="next"');
  });
});
