/**
 * Two built service processes on different ports, one PostgreSQL database and one Redis:
 * what a load balancer in front of several instances would see.
 */
import { createPostgresDatabase, createRedisNamespace, TEST_REDIS_URL } from '../support/database.js';
import { ServiceProcess } from '../support/server.js';
import { validPet, validShelter } from '../support/app.js';

const ADMIN = 'admin-key-for-multi-instance-tests-0123456789';
const FREE_PER_MINUTE = 10;

describe('two instances on one PostgreSQL database and one Redis', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  const redis = createRedisNamespace();
  let instances: [ServiceProcess, ServiceProcess];
  let writer: string;

  const at = (index: number) => instances[index % 2].http();

  beforeAll(async () => {
    database = await createPostgresDatabase();
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL!,
      REDIS_KEY_PREFIX: redis.prefix,
      AUTH_MODE: 'production',
      ADMIN_TOKEN: ADMIN,
      RATE_LIMIT_FREE_PER_MINUTE: String(FREE_PER_MINUTE),
    };
    // Started together on an empty database: one migrates, the other waits for it.
    const [first, second] = await Promise.all([ServiceProcess.start(env), ServiceProcess.start(env)]);
    instances = [first, second];
    writer = await issueToken('enterprise');
  }, 60_000);

  afterAll(async () => {
    await Promise.all((instances ?? []).map((instance) => instance.stop()));
    await database?.drop();
    await redis.clear();
  });

  async function issueToken(tier: string): Promise<string> {
    const res = await at(0)
      .post('/auth/tokens')
      .set('Authorization', `Bearer ${ADMIN}`)
      .send({ name: `multi-instance ${tier}`, tier })
      .expect(201);
    return `Bearer ${(res.body as { token: string }).token}`;
  }

  async function createShelter(index: number): Promise<{ id: number }> {
    const res = await at(index).post('/shelters').set('Authorization', writer).send(validShelter()).expect(201);
    return res.body as { id: number };
  }

  it('serves through one instance what was written through the other', async () => {
    const shelter = await createShelter(0);
    const created = await at(0).post('/pets').set('Authorization', writer).send(validPet(shelter.id)).expect(201);
    const pet = created.body as { id: number };

    await at(1).get(`/pets/${pet.id}`).expect(200, pet);
    await at(1)
      .get(`/shelters/${shelter.id}`)
      .expect(200, { ...validShelter(), id: shelter.id });

    await at(1).patch(`/pets/${pet.id}`).set('Authorization', writer).send({ status: 'pending' }).expect(200);
    await at(0)
      .get(`/pets/${pet.id}`)
      .expect(200, { ...pet, status: 'pending' });
  });

  it('shares one rate limit: the request after the limit is refused by either instance', async () => {
    const token = await issueToken('free');
    for (let sent = 0; sent < FREE_PER_MINUTE; sent++) {
      const res = await at(sent).get('/pets').set('Authorization', token);
      expect(res.status).toBe(200);
      expect(res.headers['x-ratelimit-remaining']).toBe(String(FREE_PER_MINUTE - sent - 1));
    }
    for (const index of [0, 1]) {
      const res = await at(index).get('/pets').set('Authorization', token);
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ error: 'Too Many Requests', status: 429 });
    }
  });

  it('loses no change when concurrent PATCHes of different fields are spread over both instances', async () => {
    const shelter = await createShelter(1);
    const created = await at(1).post('/pets').set('Authorization', writer).send(validPet(shelter.id)).expect(201);
    const pet = created.body as ReturnType<typeof validPet> & { id: number };
    const changes: Record<string, unknown>[] = [
      { name: 'Mittens' },
      { breed: 'Maine Coon' },
      { age_months: 30 },
      { gender: 'male' },
      { size: 'large' },
      { temperament: 'playful' },
      { description: 'Chases laser dots.' },
      { status: 'adopted' },
      { intake_date: '2025-01-31' },
      { medical: { vaccinations: ['rabies'] } },
    ];
    // Every change sent five times, alternating instances, all at once.
    const sends = changes.flatMap((change) => Array.from({ length: 5 }, () => change));
    const responses = await Promise.all(
      sends.map((change, index) => at(index).patch(`/pets/${pet.id}`).set('Authorization', writer).send(change)),
    );
    expect(responses.map((res) => res.status)).toEqual(sends.map(() => 200));

    const expected = {
      ...pet,
      ...Object.assign({}, ...changes),
      medical: { spayed_neutered: true, vaccinations: ['rabies'] },
    };
    await at(0).get(`/pets/${pet.id}`).expect(200, expected);
    await at(1).get(`/pets/${pet.id}`).expect(200, expected);
  });

  it('never leaves an orphan pet when a shelter is deleted through one instance while the other adds pets', async () => {
    for (let round = 0; round < 5; round++) {
      const shelter = await createShelter(round);
      const adds = Array.from({ length: 10 }, (_, index) =>
        at(1)
          .post('/pets')
          .set('Authorization', writer)
          .send(validPet(shelter.id, { name: `Pet ${index}` })),
      );
      const deletes = Array.from({ length: 3 }, () =>
        at(0).delete(`/shelters/${shelter.id}`).set('Authorization', writer),
      );
      const [added, deleted] = await Promise.all([Promise.all(adds), Promise.all(deletes)]);

      for (const res of added) {
        expect([201, 400]).toContain(res.status);
      }
      for (const res of deleted) {
        expect([200, 404, 409]).toContain(res.status);
      }
      const shelterGone = (await at(0).get(`/shelters/${shelter.id}`)).status === 404;
      const pets = (await at(1).get('/pets').query({ shelter_id: shelter.id })).body as unknown;
      if (shelterGone) {
        // Deleted: no pet was created for it, and none points at it.
        expect(added.filter((res) => res.status === 201)).toEqual([]);
        const all = (await at(0).get('/pets')).body as { shelter_id: number }[];
        expect(all.filter((p) => p.shelter_id === shelter.id)).toEqual([]);
      } else {
        // Kept: every pet that got a 201 is there.
        const createdIds = added.filter((res) => res.status === 201).map((res) => (res.body as { id: number }).id);
        expect((pets as { id: number }[]).map((p) => p.id).sort((a, b) => a - b)).toEqual(
          createdIds.sort((a, b) => a - b),
        );
      }
    }
  });
});
