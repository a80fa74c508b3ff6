/**
 * Event latency: POST /shelters at 200 a second for 10 s against the service (as users run it:
 * JSON request lines, the rate limiter counting), with a webhook registered for
 * `shelter.created` on a receiver in this process. The latency of an event is from its
 * `timestamp` (taken inside the write's transaction, just before the commit) to its receipt.
 * Reports p50, p99 and max, and whether every event arrived once. Target: p99 under 1 s.
 *
 *   node bench/events.mjs [--postgres]          (after `nest build`: SQLite, and PostgreSQL with the flag; also run by `npm run bench`)
 */
import { createServer } from 'node:http';
import { join } from 'node:path';

import { migrateWithService, runAlone } from './data.mjs';
import { freePort, serviceEntry, serviceEnv, start, stop, waitFor } from './processes.mjs';

export const EVENTS_PER_SECOND = 200;
const SECONDS = 10;
export const EVENTS_TARGET_P99_MS = 1_000;
const TOKEN = 'Bearer bench';

const percentile = (sorted, fraction) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];

const shelterBody = (index) =>
  JSON.stringify({
    name: `Bench ${index}`,
    address: `${index} Main Street, Springfield`,
    phone: '+1-555-010-0000',
    email: `bench${index}@example.org`,
    hours: 'Mon-Sat 10:00-18:00',
    available_pet_count: 1,
    adoption_fee_range: '$50-$150',
  });

/** Measures on a migrated, empty database (`databaseUrl`); returns the figures. */
export async function measureEvents({ databaseUrl, work, label }) {
  await migrateWithService(databaseUrl, join(work, `events-${label}-migrate.log`), await freePort());
  const latencies = [];
  const seen = new Map();
  const receiver = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const at = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString());
      const id = req.headers['webhook-id'];
      seen.set(id, (seen.get(id) ?? 0) + 1);
      if (seen.get(id) === 1) {
        latencies.push(at - Date.parse(body.timestamp));
      }
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = await freePort();
  const child = start(serviceEntry(), [], serviceEnv(databaseUrl, 'express', port), join(work, `events-${label}.log`));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${url}/health/live`, child);
    const hook = await fetch(`${url}/webhooks`, {
      method: 'POST',
      headers: { authorization: TOKEN, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `http://127.0.0.1:${receiver.address().port}/`, events: ['shelter.created'] }),
    });
    if (hook.status !== 201) {
      throw new Error(`webhook registration answered ${hook.status}`);
    }
    const total = EVENTS_PER_SECOND * SECONDS;
    const writes = [];
    const started = Date.now();
    for (let index = 0; index < total; index++) {
      // Paced: write `index` leaves at its own moment, whatever the earlier ones are doing.
      const due = started + (index * 1000) / EVENTS_PER_SECOND;
      const wait = due - Date.now();
      if (wait > 0) {
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
      writes.push(
        fetch(`${url}/shelters`, {
          method: 'POST',
          headers: { authorization: TOKEN, 'content-type': 'application/json' },
          body: shelterBody(index),
        }).then(async (res) => {
          await res.arrayBuffer();
          return res.status;
        }),
      );
    }
    const statuses = await Promise.all(writes);
    const created = statuses.filter((status) => status === 201).length;
    const deadline = Date.now() + 30_000;
    while (seen.size < created && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    latencies.sort((a, b) => a - b);
    return {
      events: created,
      received: seen.size,
      duplicates: [...seen.values()].filter((count) => count > 1).length,
      rate_per_second: EVENTS_PER_SECOND,
      p50_ms: percentile(latencies, 0.5),
      p99_ms: percentile(latencies, 0.99),
      max_ms: latencies[latencies.length - 1],
    };
  } finally {
    await stop(child);
    await new Promise((resolve) => receiver.close(resolve));
  }
}

export function describeEvents(label, figures) {
  return (
    `event latency on ${label} (commit to receipt, ${figures.rate_per_second} events/s for ${SECONDS} s, local receiver): ` +
    `${figures.received}/${figures.events} received, ${figures.duplicates} twice; p50 ${figures.p50_ms} ms, ` +
    `p99 ${figures.p99_ms} ms, max ${figures.max_ms} ms`
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runAlone('events', measureEvents, describeEvents);
}
