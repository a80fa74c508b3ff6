/**
 * Clients that ask for a long list and never read it: the answer is built once and shared,
 * memory stays bounded, other clients are still served, and the stalled connections are
 * closed once nothing has moved on them for SEND_TIMEOUT_MS (their request lines say aborted).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import Database from 'better-sqlite3';

import { ServiceProcess } from '../support/server.js';

const PETS = 20_000;
const STALLED = 200;
const SEND_TIMEOUT_MS = 1_500;

/** Resident memory of a process, in megabytes. */
function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) / 1024;
}

function fill(file: string): void {
  const db = new Database(file);
  db.prepare(
    `INSERT INTO shelters (name, address, phone, email, hours, available_pet_count, adoption_fee_range, version)
     VALUES ('Happy Tails', '12 Main St', '+1-555-123-4567', 'hello@happytails.org', 'daily', 10, '75-200', 1)`,
  ).run();
  const insert = db.prepare(
    `INSERT INTO pets (name, species, breed, breed_key, age_months, gender, size, temperament,
       medical_spayed_neutered, medical_vaccinations, description, shelter_id, status, intake_date, version)
     VALUES (?, 'cat', 'Siamese', 'siamese', 18, 'female', 'small', 'calm, friendly', 1, '["rabies","fvrcp"]',
       ?, 1, 'available', '2024-02-29', 1)`,
  );
  // About 600 bytes of JSON a pet, so the whole list is about 12 MB: more than the sockets' buffers hold.
  const description = 'Loves sunny windows and long naps on the sofa; gets along with other cats. '.repeat(6);
  db.transaction(() => {
    for (let index = 1; index <= PETS; index++) {
      insert.run(`Pet ${index}`, description);
    }
  })();
  db.close();
}

/** Opens a connection, asks for the whole list and never reads the answer. */
function stalledReader(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.pause();
      socket.write('GET /pets HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Reads what is left on the connection; resolves with the bytes read once the server has closed it. */
function drain(socket: Socket): Promise<number> {
  return new Promise((resolve) => {
    let bytes = 0;
    socket.on('data', (chunk: Buffer) => (bytes += chunk.length));
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(bytes));
    socket.resume();
  });
}

describe('slow clients', () => {
  const dir = mkdtempSync(join(tmpdir(), 'adoption-slow-'));
  let service: ServiceProcess;

  beforeAll(async () => {
    service = await ServiceProcess.start({
      DATABASE_URL: `sqlite:${join(dir, 'adoption.sqlite')}`,
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'warn',
      SEND_TIMEOUT_MS: String(SEND_TIMEOUT_MS),
    });
    fill(join(dir, 'adoption.sqlite'));
  }, 60_000);

  afterAll(async () => {
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('share one answer among stalled readers, still serve others, and are cut off after the send timeout', async () => {
    const full = await service.http().get('/pets').set('Accept-Encoding', 'identity').expect(200);
    const bodyBytes = Number(full.headers['content-length']);
    expect(full.body).toHaveLength(PETS);

    const before = rssMb(service.pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(service.pid))), 50);
    const sockets = await Promise.all(Array.from({ length: STALLED }, () => stalledReader(service.port)));
    await new Promise((resolve) => setTimeout(resolve, 300));

    // Another client is served meanwhile.
    const pet = await service.http().get('/pets/1').expect(200);
    expect((pet.body as { name: string }).name).toBe('Pet 1');

    // Past the send timeout, the server has closed every stalled connection before its answer was through.
    await new Promise((resolve) => setTimeout(resolve, SEND_TIMEOUT_MS * 2));
    clearInterval(sampler);
    const received = await Promise.all(sockets.map(drain));
    expect(received.filter((bytes) => bytes >= bodyBytes)).toEqual([]);
    expect(peak - before).toBeLessThan(300);

    await new Promise((resolve) => setTimeout(resolve, 200));
    const aborted = service.log.split('\n').filter((line) => line.includes('"aborted":true'));
    expect(aborted).toHaveLength(STALLED);
    expect(JSON.parse(aborted[0])).toMatchObject({
      level: 40,
      route: '/pets',
      req: { method: 'GET', url: '/pets' },
      msg: expect.stringMatching(/^GET \/pets aborted after \d+ ms$/) as unknown,
    });
  }, 60_000);

  it('are capped when their lists are streamed: past MAX_STREAMED_LISTS the answer is 503 until a slot frees', async () => {
    // Nothing is kept here, so every whole list is streamed from the database.
    const streaming = await ServiceProcess.start({
      DATABASE_URL: `sqlite:${join(dir, 'adoption.sqlite')}`,
      LOG_LEVEL: 'silent',
      LIST_CACHE_MB: '0',
      MAX_STREAMED_LISTS: '2',
      SEND_TIMEOUT_MS: String(SEND_TIMEOUT_MS),
    });
    try {
      const sockets = await Promise.all([stalledReader(streaming.port), stalledReader(streaming.port)]);
      await new Promise((resolve) => setTimeout(resolve, 500));

      const refused = await streaming.http().get('/pets').expect(503);
      expect(refused.headers['retry-after']).toBe('1');
      expect(refused.body).toEqual({
        error: 'Service Unavailable',
        message: 'The service is temporarily unavailable. Please try again later.',
        status: 503,
        request_id: refused.headers['x-request-id'],
      });
      // A page or a single pet is no streamed list: still served.
      await streaming.http().get('/pets/1').expect(200);
      await streaming.http().get('/pets?limit=5').expect(200);

      // Once the stalled readers are cut off, their slots are free again.
      await new Promise((resolve) => setTimeout(resolve, SEND_TIMEOUT_MS * 2));
      await Promise.all(sockets.map(drain));
      const served = await streaming.http().get('/pets').expect(200);
      expect(served.body).toHaveLength(PETS);
    } finally {
      await streaming.stop();
    }
  }, 60_000);
});
