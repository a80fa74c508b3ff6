/**
 * Graceful shutdown of the built service: on SIGTERM it stops accepting connections,
 * finishes the requests in flight, closes the database and exits 0.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { validPet, validShelter } from '../support/app.js';
import { ServiceProcess } from '../support/server.js';

const TOKEN = 'Bearer shutdown-test';
const IN_FLIGHT = 10;

interface Reply {
  status: number;
  body: unknown;
}

/** A POST whose headers and first half of the body are sent now, the rest by `finish()`. */
function startPost(port: number, path: string, body: unknown) {
  const payload = Buffer.from(JSON.stringify(body));
  const half = Math.floor(payload.length / 2);
  let req: ClientRequest;
  const reply = new Promise<Reply>((resolve, reject) => {
    req = httpRequest(
      {
        port,
        host: '127.0.0.1',
        path,
        method: 'POST',
        agent: false,
        headers: {
          Authorization: TOKEN,
          'Content-Type': 'application/json',
          'Content-Length': payload.length,
        },
      },
      (res: IncomingMessage) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) as unknown }));
      },
    );
    req.on('error', reject);
    req.flushHeaders();
    req.write(payload.subarray(0, half));
  });
  return { reply, finish: () => req.end(payload.subarray(half)) };
}

function connectionRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpRequest({ port, host: '127.0.0.1', path: '/pets', agent: false }, (res) => {
      res.resume();
      resolve(false);
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
    req.end();
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('graceful shutdown', () => {
  const dir = mkdtempSync(join(tmpdir(), 'adoption-shutdown-'));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'adoption.sqlite')}` };

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('finishes every request in flight at SIGTERM, refuses new connections, and exits 0', async () => {
    const service = await ServiceProcess.start(env);
    const shelter = await service.http().post('/shelters').set('Authorization', TOKEN).send(validShelter()).expect(201);
    const shelterId = (shelter.body as { id: number }).id;

    const posts = Array.from({ length: IN_FLIGHT }, (_, index) =>
      startPost(service.port, '/pets', validPet(shelterId, { name: `In flight ${index}` })),
    );
    await pause(300); // the service has read the headers and waits for the bodies

    const exit = service.stop('SIGTERM');
    await pause(300);
    expect(await connectionRefused(service.port)).toBe(true);

    posts.forEach((post) => post.finish());
    const replies = await Promise.all(posts.map((post) => post.reply));
    expect(replies.map((reply) => reply.status)).toEqual(posts.map(() => 201));
    expect(await exit).toEqual({ code: 0, signal: null });
    expect(service.log).toMatch(/SIGTERM received/);

    const restarted = await ServiceProcess.start(env);
    try {
      const stored = (await restarted.http().get('/pets').expect(200)).body as unknown[];
      expect(stored).toEqual(
        replies.map((reply) => reply.body).sort((a, b) => (a as { id: number }).id - (b as { id: number }).id),
      );
    } finally {
      await restarted.stop();
    }
    console.log(`shutdown test: ${IN_FLIGHT} requests in flight at SIGTERM, ${IN_FLIGHT} answered 201 and stored`);
  });

  it('closes connections still open after SHUTDOWN_TIMEOUT_MS and still exits 0', async () => {
    const service = await ServiceProcess.start({ ...env, SHUTDOWN_TIMEOUT_MS: '500' });
    const stalled = startPost(service.port, '/shelters', validShelter());
    const outcome = stalled.reply.then(
      () => 'answered',
      () => 'closed',
    );
    await pause(200);

    const started = Date.now();
    expect(await service.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await outcome).toBe('closed');
    expect(service.log).toMatch(/requests still open after 500 ms/);
  });
});
