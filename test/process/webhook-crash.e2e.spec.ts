/**
 * The outbox across a crash: a write answered 201, the service killed with SIGKILL before its
 * event could be delivered (the receiver is down), and the event delivered after a restart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { validShelter } from '../support/app.js';
import { freePort, ServiceProcess } from '../support/server.js';
import { eventually, Receiver } from '../support/webhook-receiver.js';

const TOKEN = 'Bearer webhook-crash-test';

describe('webhook deliveries across a crash', () => {
  const dir = mkdtempSync(join(tmpdir(), 'adoption-webhook-crash-'));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'adoption.sqlite')}`, WEBHOOK_RETRY_SCHEDULE: '200ms' };
  const receiver = new Receiver();

  afterAll(async () => {
    await receiver.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it('delivers after a restart the event of a write acknowledged before a SIGKILL', async () => {
    const port = await freePort();
    const first = await ServiceProcess.start(env);
    const hook = await first
      .http()
      .post('/webhooks')
      .set('Authorization', TOKEN)
      .send({ url: `http://127.0.0.1:${port}/hook`, events: ['shelter.created'] })
      .expect(201);
    receiver.secrets.set('/hook', (hook.body as { secret: string }).secret);
    const shelter = await first
      .http()
      .post('/shelters')
      .set('Authorization', TOKEN)
      .send(validShelter({ name: 'Survivor' }))
      .expect(201);
    // Nobody listens on the receiver's port yet: every attempt so far failed.
    expect(await first.stop('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });

    await receiver.start(port);
    const second = await ServiceProcess.start(env);
    try {
      const [received] = await eventually(() => receiver.at('/hook').length > 0 && receiver.at('/hook'), 15_000);
      expect(received.type).toBe('shelter.created');
      expect(received.data).toEqual({ ...validShelter({ name: 'Survivor' }), id: (shelter.body as { id: number }).id });
    } finally {
      await second.stop();
    }
  });
});
