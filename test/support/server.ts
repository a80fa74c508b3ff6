/**
 * The built service (`dist/src/main.js`, built first when the sources are newer) as a separate process, for tests about processes: several instances, crashes,
 * signals and lost dependencies.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

import request from 'supertest';

import { ensureBuilt } from './build.js';

const MAIN = join(process.cwd(), 'dist', 'src', 'main.js');
const START_TIMEOUT_MS = 20_000;

/**
 * Ports for spawned services come from below the kernel's ephemeral range (32768 and up on
 * Linux), in a block of 1,000 per Jest worker: a port handed out there can be taken meanwhile
 * by no client socket of the many the specs open, nor by another worker's service.
 */
const PORT_BLOCK = 20_000 + (Number(process.env.JEST_WORKER_ID ?? 1) % 10) * 1_000;
let nextPort = 0;

/** A port of this worker's block that nobody listens on right now. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < 1_000; tries++) {
    const port = PORT_BLOCK + (nextPort++ % 1_000);
    const server = createServer();
    const listening = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (listening) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      return port;
    }
  }
  throw new Error(`No free port from ${PORT_BLOCK}`);
}

export class ServiceProcess {
  private output = '';
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  /** Starts the built service with `env` on a free port and waits until it answers. */
  static async start(env: Record<string, string>): Promise<ServiceProcess> {
    await ensureBuilt();
    const port = await freePort();
    const child = spawn(process.execPath, [MAIN], {
      // The adapter under test (HTTP_ADAPTER) applies to the spawned service too.
      env: {
        PATH: process.env.PATH,
        LOG_LEVEL: 'info',
        HTTP_ADAPTER: process.env.HTTP_ADAPTER ?? 'express',
        ...env,
        PORT: String(port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const service = new ServiceProcess(child, port);
    await service.waitUntilAnswering();
    return service;
  }

  /** The service's process id. */
  get pid(): number {
    return this.child.pid!;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Everything the process printed so far. */
  get log(): string {
    return this.output;
  }

  http() {
    return request(this.url);
  }

  /** Sends a signal and waits for the process to end. */
  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill(signal);
    }
    return this.exited;
  }

  /** Resolves when the process ends on its own. */
  waitForExit(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    return this.exited;
  }

  private async waitUntilAnswering(): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    let exited = false;
    void this.exited.then(() => (exited = true));
    while (Date.now() < deadline && !exited) {
      try {
        await request(this.url).get('/health/live').timeout(1_000);
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    this.child.kill('SIGKILL');
    throw new Error(`The service did not start on port ${this.port}:\n${this.output}`);
  }
}
