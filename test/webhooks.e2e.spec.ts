/**
 * Webhooks, end to end: a real receiver on loopback that verifies every signature with the
 * `standardwebhooks` package; each event type with its payload; retries keep the webhook-id;
 * one shelter's webhook hears only that shelter; refused writes emit nothing; production
 * refuses private URLs.
 */
import type { INestApplication } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

import { createPet, createShelter, http, startApp, TOKEN, validPet } from './support/app.js';
import { eventually, Receiver } from './support/webhook-receiver.js';

describe('webhooks', () => {
  let app: INestApplication;
  const receiver = new Receiver();
  let hook = 0;

  beforeAll(async () => {
    await receiver.start();
    app = await startApp({ WEBHOOK_RETRY_SCHEDULE: '100ms,100ms,100ms,1h' });
  });
  afterAll(async () => {
    await app.close();
    await receiver.stop();
  });

  /** Registers a webhook at a path of its own on the receiver. */
  async function register(body: Record<string, unknown> = {}) {
    const path = `/hook-${++hook}`;
    const res = await http(app)
      .post('/webhooks')
      .set('Authorization', TOKEN)
      .send({ url: receiver.url(path), events: ['*'], ...body });
    expect(res.status).toBe(201);
    const created = res.body as { id: number; secret: string };
    receiver.secrets.set(path, created.secret);
    return { path, ...created };
  }

  it('registers a webhook: 201 with its secret, shown again only on rotation', async () => {
    const res = await http(app)
      .post('/webhooks')
      .set('Authorization', TOKEN)
      .send({ url: receiver.url('/crud'), events: ['pet.created'], description: 'CRM' });
    expect(res.status).toBe(201);
    const body = res.body as { id: number; secret: string };
    expect(body).toEqual({
      url: receiver.url('/crud'),
      events: ['pet.created'],
      shelter_id: null,
      description: 'CRM',
      enabled: true,
      disabled_reason: null,
      created_at: expect.any(String) as unknown,
      id: expect.any(Number) as unknown,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/) as unknown,
    });
    expect(res.headers.location).toBe(`/webhooks/${body.id}`);
    const read = await http(app).get(`/webhooks/${body.id}`).set('Authorization', TOKEN).expect(200);
    expect(read.body).not.toHaveProperty('secret');
    const rotated = await http(app).post(`/webhooks/${body.id}/rotate-secret`).set('Authorization', TOKEN).expect(200);
    expect((rotated.body as { secret: string }).secret).not.toBe(body.secret);
    const patched = await http(app)
      .patch(`/webhooks/${body.id}`)
      .set('Authorization', TOKEN)
      .send({ events: ['*'], enabled: false })
      .expect(200);
    expect(patched.body).toMatchObject({ events: ['*'], enabled: false });
    await http(app).delete(`/webhooks/${body.id}`).set('Authorization', TOKEN).expect(200);
    await http(app).get(`/webhooks/${body.id}`).set('Authorization', TOKEN).expect(404);
    expect((await http(app).get('/webhooks')).status).toBe(401);
  });

  it.each([
    [{ url: 'ftp://example.org/x', events: ['*'] }, 'url', "Invalid value for 'url'. Must be an http or https URL."],
    [{ url: 'https://example.org/x', events: [] }, 'events', 'events'],
    [{ url: 'https://example.org/x', events: ['pet.eaten'] }, 'events', 'events'],
    [
      { url: 'https://example.org/x', events: ['*'], shelter_id: 999999 },
      'shelter_id',
      "Invalid value for 'shelter_id'. Shelter with 'id' 999999 not found.",
    ],
  ])('refuses %j with 400', async (body, field, message) => {
    const res = await http(app).post('/webhooks').set('Authorization', TOKEN).send(body);
    expect(res.status).toBe(400);
    const details = (res.body as { details: { field: string; message: string }[] }).details;
    expect(details[0].field).toBe(field);
    if (message !== field) {
      expect(details[0].message).toBe(message);
    } else {
      expect(details[0].message).toMatch(
        /^Invalid value for 'events'\. Must be a non-empty array of distinct event types/,
      );
    }
  });

  it('delivers every event type, signed, with the resource as the API shows it', async () => {
    const { path, id: webhookId } = await register();
    const shelter = await createShelter(app, { name: 'Events' });
    const pet = await createPet(app, shelter.id, { name: 'Evt' });
    await http(app).patch(`/pets/${pet.id}`).set('Authorization', TOKEN).send({ status: 'pending' }).expect(200);
    const interest = (
      await http(app)
        .post(`/pets/${pet.id}/interest`)
        .set('Authorization', TOKEN)
        .send({ name: 'Ada', email: 'ada@example.org' })
        .expect(201)
    ).body as { id: number };
    await http(app)
      .patch(`/interests/${interest.id}`)
      .set('Authorization', TOKEN)
      .send({ status: 'contacted' })
      .expect(200);
    await http(app).patch(`/shelters/${shelter.id}`).set('Authorization', TOKEN).send({ hours: 'daily' }).expect(200);
    await http(app).delete(`/pets/${pet.id}`).set('Authorization', TOKEN).expect(200);
    await http(app).delete(`/shelters/${shelter.id}`).set('Authorization', TOKEN).expect(200);
    await http(app).post(`/webhooks/${webhookId}/test`).set('Authorization', TOKEN).expect(202);

    const types = [
      'shelter.created',
      'pet.created',
      'pet.updated',
      'pet.status_changed',
      'interest.created',
      'interest.updated',
      'shelter.updated',
      'pet.deleted',
      'shelter.deleted',
      'webhook.test',
    ];
    const received = await eventually(() => receiver.at(path).length >= types.length && receiver.at(path));
    expect(received.map((entry) => entry.type).sort()).toEqual([...types].sort());
    const of = (type: string) => received.find((entry) => entry.type === type)!;
    expect(of('pet.created').data).toEqual({ ...validPet(shelter.id, { name: 'Evt' }), id: pet.id });
    expect(of('pet.status_changed').data).toMatchObject({ id: pet.id, from: 'available', to: 'pending' });
    expect(of('interest.created').data).toMatchObject({ id: interest.id, pet_id: pet.id, status: 'new' });
    expect(of('interest.updated').data).toMatchObject({ id: interest.id, status: 'contacted' });
    expect(of('shelter.deleted').data).toMatchObject({ id: shelter.id, name: 'Events', hours: 'daily' });
    expect(of('webhook.test').data).toMatchObject({ webhook_id: webhookId });
    for (const entry of received) {
      expect(entry.id).toMatch(/^evt_\d+$/);
      expect(Date.parse(entry.payload.timestamp)).not.toBeNaN();
    }
  });

  it('tries again after a failure with the same webhook-id, and shows the attempts', async () => {
    const { path, id: webhookId } = await register({ events: ['shelter.created'] });
    receiver.failures.set(path, [500, 500, 500]);
    await createShelter(app, { name: 'Retry' });
    const received = await eventually(() => receiver.at(path).length === 4 && receiver.at(path));
    expect(new Set(received.map((entry) => entry.id)).size).toBe(1);

    const deliveries = await eventually(async () => {
      const res = await http(app).get(`/webhooks/${webhookId}/deliveries`).set('Authorization', TOKEN);
      const list = res.body as { attempts: number; delivered_at: string | null }[];
      return list[0]?.delivered_at ? list : undefined;
    });
    expect(deliveries).toEqual([
      {
        webhook_id: webhookId,
        event_id: received[0].id,
        type: 'shelter.created',
        attempts: 4,
        last_status: 200,
        last_error: null,
        next_attempt_at: null,
        delivered_at: expect.any(String) as unknown,
        failed_at: null,
        created_at: expect.any(String) as unknown,
        id: expect.any(Number) as unknown,
      },
    ]);
  });

  it('keeps delivering to others while a receiver hangs', async () => {
    const slow = await register({ events: ['shelter.created'] });
    receiver.hanging.add(slow.path);
    const quick = await register({ events: ['shelter.created'] });
    const started = Date.now();
    const first = await createShelter(app, { name: 'Hanging 1' });
    await eventually(() => receiver.at(quick.path).length > 0, 3_000);
    // The slow receiver still holds its first attempt (10 s timeout): later events go out meanwhile.
    const second = await createShelter(app, { name: 'Hanging 2' });
    const received = await eventually(() => receiver.at(quick.path).length > 1 && receiver.at(quick.path), 3_000);
    expect(received.map((entry) => entry.data.id)).toEqual([first.id, second.id]);
    expect(Date.now() - started).toBeLessThan(3_000);
    await http(app).delete(`/webhooks/${slow.id}`).set('Authorization', TOKEN).expect(200);
  });

  it('disables a webhook whose deliveries have all failed for three days, and enables it again on request', async () => {
    const { path, id } = await register({ events: ['shelter.updated'] });
    receiver.failures.set(path, Array<number>(100).fill(503));
    // As if its deliveries had been failing for three days already.
    const dataSource = app.get<DataSource>(getDataSourceToken());
    await dataSource
      .getRepository('Webhook')
      .update(id, { failing_since: new Date(Date.now() - 3 * 86_400_000 - 1_000) });
    const shelter = await createShelter(app, { name: 'Failing' });
    await http(app).patch(`/shelters/${shelter.id}`).set('Authorization', TOKEN).send({ hours: 'never' }).expect(200);
    const disabled = await eventually(async () => {
      const res = await http(app).get(`/webhooks/${id}`).set('Authorization', TOKEN);
      const body = res.body as { enabled: boolean; disabled_reason: string | null };
      return body.enabled ? undefined : body;
    });
    expect(disabled.disabled_reason).toBe('Every delivery failed for 3 days; the last: answered 503.');
    const enabled = await http(app)
      .patch(`/webhooks/${id}`)
      .set('Authorization', TOKEN)
      .send({ enabled: true })
      .expect(200);
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null });
  });

  it('sends a shelter webhook only that shelter’s events, and nothing for a refused write', async () => {
    const mine = await createShelter(app, { name: 'Mine' });
    const other = await createShelter(app, { name: 'Other' });
    const { path } = await register({ shelter_id: mine.id });
    await createPet(app, other.id, { name: 'NotMine' });
    await http(app)
      .post('/pets')
      .set('Authorization', TOKEN)
      .send(validPet(mine.id, { species: 'cow' }))
      .expect(400);
    await createPet(app, mine.id, { name: 'Mine' });
    const received = await eventually(() => receiver.at(path).length >= 1 && receiver.at(path));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.at(path).map((entry) => [entry.type, entry.data.name])).toEqual([['pet.created', 'Mine']]);
    expect(received[0].data.shelter_id).toBe(mine.id);
  });
});

describe('webhooks in production', () => {
  const ADMIN = 'admin-key-for-webhook-tests-0123456789abcdef';
  let app: INestApplication;

  beforeAll(async () => {
    app = await startApp({ AUTH_MODE: 'production', ADMIN_TOKEN: ADMIN });
  });
  afterAll(async () => {
    await app.close();
  });

  it.each([
    'http://example.org/hook',
    'https://127.0.0.1/hook',
    'https://10.1.2.3/hook',
    'https://169.254.169.254/latest',
    'https://[::1]/hook',
    'https://localhost/hook',
  ])('refuses %s', async (url) => {
    const res = await http(app)
      .post('/webhooks')
      .set('Authorization', `Bearer ${ADMIN}`)
      .send({ url, events: ['*'] });
    expect(res.status).toBe(400);
    expect((res.body as { details: unknown }).details).toEqual([
      { field: 'url', message: "Invalid value for 'url'. Must be an https URL of a public host." },
    ]);
  });

  it('needs the admin key', async () => {
    const res = await http(app).post('/webhooks').set('Authorization', 'Bearer not-the-key').send({});
    expect(res.status).toBe(403);
  });
});
