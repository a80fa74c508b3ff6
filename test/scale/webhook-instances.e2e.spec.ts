/**
 * Two instances on one PostgreSQL database share the outbox: 500 events, each delivered once,
 * none lost, while the receiver answers 2xx.
 */
import { validShelter } from '../support/app.js';
import { createPostgresDatabase } from '../support/database.js';
import { ServiceProcess } from '../support/server.js';
import { eventually, Receiver } from '../support/webhook-receiver.js';

const TOKEN = 'Bearer webhook-instances-test';
const EVENTS = 500;

describe('webhooks from two instances on PostgreSQL', () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  const instances: ServiceProcess[] = [];
  const receiver = new Receiver();

  beforeAll(async () => {
    database = await createPostgresDatabase();
    await receiver.start();
    instances.push(await ServiceProcess.start({ DATABASE_URL: database.url }));
    instances.push(await ServiceProcess.start({ DATABASE_URL: database.url }));
  });

  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await receiver.stop();
    await database?.drop();
  });

  it(`delivers ${EVENTS} events once each, whichever instance made them`, async () => {
    const hook = await instances[0]
      .http()
      .post('/webhooks')
      .set('Authorization', TOKEN)
      .send({ url: receiver.url('/hook'), events: ['shelter.created'] })
      .expect(201);
    receiver.secrets.set('/hook', (hook.body as { secret: string }).secret);

    const ids: number[] = [];
    for (let first = 0; first < EVENTS; first += 25) {
      const batch = await Promise.all(
        Array.from({ length: 25 }, (_, offset) =>
          instances[(first + offset) % 2]
            .http()
            .post('/shelters')
            .set('Authorization', TOKEN)
            .send(validShelter({ name: `Shelter ${first + offset}` }))
            .expect(201),
        ),
      );
      ids.push(...batch.map((res) => (res.body as { id: number }).id));
    }

    await eventually(() => receiver.at('/hook').length >= EVENTS, 30_000);
    // Time for a second delivery of any event to arrive, were one sent twice.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const received = receiver.at('/hook');
    expect(received).toHaveLength(EVENTS);
    expect(new Set(received.map((entry) => entry.id)).size).toBe(EVENTS);
    expect(received.map((entry) => entry.data.id as number).sort((a, b) => a - b)).toEqual(
      [...ids].sort((a, b) => a - b),
    );
  }, 60_000);
});
