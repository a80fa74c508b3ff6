/**
 * `npm run bench:stalled`: what clients that ask for a long list and never read the answer
 * do to the service. Starts the built service as in production (AUTH_MODE=production, JSON
 * request logs at `info` written to a file, rate limits set too high for the clients here to
 * trip) on a SQLite database of 20 shelters and 20,000 pets, opens 300 TCP connections that
 * each send `GET /pets` and then never read a byte, and meanwhile measures `GET /pets/1`
 * with autocannon (10 connections, 10 s) and samples the service's RSS from /proc.
 *
 * Prints the RSS before, at its peak and the growth, `GET /pets/1` p50 and p99, and how many
 * of the stalled connections the service had closed by the end (seen from the service's side
 * in /proc: a paused client never notices). SEND_TIMEOUT_MS, when set in the environment,
 * is passed to the service. Targets: RSS growth < 300 MB, `GET /pets/1` p99 < 100 ms.
 *
 *   node bench/stalled-readers.mjs [--adapter=express|fastify] [--stalled=300] [--duration=10]
 *     [--rss-limit=4096]
 *
 * --rss-limit (MB) stops the run early should the service's RSS pass it, so that a service
 * that buffers every answer does not take the machine down. BENCH_KEEP=1 keeps the
 * temporary folder (database, service log).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import autocannon from './autocannon.mjs';

import { buildSqlite } from './data.mjs';
import {
  freePort,
  killAll,
  tcpConnections,
  root,
  rssMb,
  serviceEntry,
  snapshotService,
  start,
  stop,
  waitFor,
} from './processes.mjs';

const { values: options } = parseArgs({
  options: {
    adapter: { type: 'string', default: 'express' },
    stalled: { type: 'string', default: '300' },
    duration: { type: 'string', default: '10' },
    'rss-limit': { type: 'string', default: '4096' },
  },
});
const ADAPTER = options.adapter;
if (!['express', 'fastify'].includes(ADAPTER)) {
  console.error('--adapter must be express or fastify');
  process.exit(2);
}
const STALLED = Number(options.stalled);
const DURATION = Number(options.duration);
const RSS_LIMIT_MB = Number(options['rss-limit']);
const PETS = 20_000;
const PROBE_CONNECTIONS = 10;
const TARGET_GROWTH_MB = 300;
const TARGET_P99_MS = 100;

const work = mkdtempSync(join(tmpdir(), 'adoption-stalled-'));
const sockets = [];
let cleaned = false;

async function cleanUp() {
  if (cleaned) {
    return;
  }
  cleaned = true;
  for (const socket of sockets) {
    socket.destroy();
  }
  killAll();
  if (process.env.BENCH_KEEP) {
    console.log(`temporary files kept in ${work}`);
  } else {
    rmSync(work, { recursive: true, force: true });
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    void cleanUp().finally(() => process.exit(130));
  });
}

/**
 * A connection that asks for the whole list and never reads: paused before it connects, so
 * Node never starts reading from it and the answer piles up in the kernel's buffers and
 * then in the server. Resolves with the connection's local port once the request is sent.
 */
function stalledReader(port) {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.pause();
    sockets.push(socket);
    socket.once('error', reject);
    socket.once('connect', () => {
      socket.write(`GET /pets HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: application/json\r\n\r\n`, () => {
        socket.removeListener('error', reject);
        // A reset seen later is the server giving up on the connection: nothing to report here.
        socket.on('error', () => {});
        resolve(socket.localPort);
      });
    });
  });
}

/**
 * Once everything is measured: the first line of what each stalled connection received
 * (`HTTP/1.1 200 OK`, a refusal, or nothing), counted. Reads one chunk from each, then
 * closes it.
 */
async function statusLines() {
  const lines = await Promise.all(
    sockets.map(
      (socket) =>
        new Promise((resolve) => {
          const timer = setTimeout(() => resolve('nothing received'), 2000);
          const done = (line) => {
            clearTimeout(timer);
            socket.destroy();
            resolve(line);
          };
          socket.once('data', (chunk) => done(chunk.toString('latin1').split('\r\n')[0]));
          socket.once('end', () => done('closed, nothing received'));
          socket.once('close', () => done('closed, nothing received'));
          socket.resume();
        }),
    ),
  );
  const counts = {};
  for (const line of lines) {
    counts[line] = (counts[line] ?? 0) + 1;
  }
  return counts;
}

try {
  snapshotService(work);
  const file = await buildSqlite(join(work, 'stalled.sqlite'), PETS, join(work, 'migrate.log'), await freePort());
  const port = await freePort();
  const env = {
    DATABASE_URL: `sqlite:${file}`,
    HTTP_ADAPTER: ADAPTER,
    PORT: String(port),
    HOST: '127.0.0.1',
    AUTH_MODE: 'production',
    ADMIN_TOKEN: randomBytes(20).toString('hex'),
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    // Every client here comes from 127.0.0.1: limits high enough that none is refused.
    RATE_LIMIT_PER_MINUTE: '1000000000',
    RATE_LIMIT_PER_DAY: '1000000000000',
    SHUTDOWN_TIMEOUT_MS: '2000',
    ...(process.env.SEND_TIMEOUT_MS ? { SEND_TIMEOUT_MS: process.env.SEND_TIMEOUT_MS } : {}),
  };
  const service = start(serviceEntry(), [], env, join(work, 'service.log'));
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/pets/1`, service);
  console.log(
    `stalled readers: ${ADAPTER}, ${PETS.toLocaleString('en')} pets, ${STALLED} connections reading nothing, ` +
      `GET /pets/1 over ${PROBE_CONNECTIONS} connections for ${DURATION} s` +
      (env.SEND_TIMEOUT_MS
        ? `, SEND_TIMEOUT_MS=${env.SEND_TIMEOUT_MS}`
        : ", SEND_TIMEOUT_MS not set (the service's default applies)"),
  );

  // Warm-up: the id lookup and the whole list once, read to the end.
  await autocannon({ url: `${url}/pets/1`, connections: PROBE_CONNECTIONS, duration: 2 });
  const list = await fetch(`${url}/pets`);
  const listBytes = (await list.arrayBuffer()).byteLength;
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const before = rssMb(service.pid);

  let peak = before;
  let aborted = false;
  const sampler = setInterval(() => {
    const rss = rssMb(service.pid);
    if (rss === undefined) {
      return;
    }
    peak = Math.max(peak, rss);
    if (rss > RSS_LIMIT_MB && !aborted) {
      aborted = true;
      console.log(`RSS passed ${RSS_LIMIT_MB} MB: stopping the run`);
      for (const socket of sockets) {
        socket.destroy();
      }
    }
  }, 100);

  const ports = [];
  for (let first = 0; first < STALLED; first += 50) {
    const batch = Array.from({ length: Math.min(50, STALLED - first) }, () => stalledReader(port));
    ports.push(...(await Promise.all(batch)));
  }
  const probe = await autocannon({ url: `${url}/pets/1`, connections: PROBE_CONNECTIONS, duration: DURATION });
  clearInterval(sampler);
  const stalledPorts = new Set(ports);
  const serverSide = aborted ? [] : tcpConnections(service.pid).filter((c) => stalledPorts.has(c.remotePort));
  const stillOpen = aborted ? undefined : serverSide.length;
  // Bytes of answers the service has handed to the kernel and nobody has read: in the
  // service's send queues and in the stalled clients' receive queues.
  const clientSide = tcpConnections(process.pid).filter((c) => stalledPorts.has(c.localPort));
  const queued = [...serverSide.map((c) => c.sendQueue), ...clientSide.map((c) => c.receiveQueue)];
  const answered = new Set(clientSide.filter((c) => c.receiveQueue > 0).map((c) => c.localPort)).size;
  const queuedMb = queued.reduce((sum, bytes) => sum + bytes, 0) / 1024 / 1024;
  const after = rssMb(service.pid);
  const statuses = aborted ? {} : await statusLines();
  for (const socket of sockets) {
    socket.destroy();
  }
  await stop(service);

  const result = {
    adapter: ADAPTER,
    pets: PETS,
    list_bytes: listBytes,
    stalled_connections: STALLED,
    send_timeout_ms: env.SEND_TIMEOUT_MS ?? null,
    rss_before_mb: before,
    rss_peak_mb: peak,
    rss_growth_mb: peak - before,
    rss_end_mb: after,
    aborted_at_rss_limit: aborted,
    probe: {
      requests_per_second: Math.round(probe.requests.average),
      p50_ms: probe.latency.p50,
      p99_ms: probe.latency.p99,
      errors: probe.errors + probe.timeouts + probe.non2xx,
    },
    stalled_closed_by_server: stillOpen === undefined ? null : STALLED - stillOpen,
    stalled_status_lines: statuses,
    stalled_with_answer_bytes: answered,
    kernel_queued_mb: Number(queuedMb.toFixed(1)),
  };

  console.log(`GET /pets answer: ${(listBytes / 1024 / 1024).toFixed(1)} MB uncompressed`);
  console.log(
    `RSS: before ${before} MB, peak ${peak} MB, growth ${result.rss_growth_mb} MB, at the end ${after} MB` +
      (aborted ? ' (stopped at the RSS limit)' : ''),
  );
  console.log(
    `GET /pets/1 beside them: ${result.probe.requests_per_second.toLocaleString('en')} req/s, ` +
      `p50 ${result.probe.p50_ms} ms, p99 ${result.probe.p99_ms} ms, errors ${result.probe.errors}`,
  );
  console.log(
    `stalled connections with answer bytes waiting unread: ${answered} of ${STALLED} ` +
      `(${queuedMb.toFixed(1)} MB in the kernel's socket queues, not in the service's RSS)`,
  );
  console.log(
    `what the stalled connections had been answered (read after the measurement): ` +
      (Object.entries(statuses)
        .map(([line, count]) => `${line} ×${count}`)
        .join(', ') || 'not read (run stopped)'),
  );
  console.log(
    `stalled connections closed by the service by the end: ` +
      (stillOpen === undefined ? 'not counted (run stopped)' : `${result.stalled_closed_by_server} of ${STALLED}`),
  );
  const growthMet = !aborted && result.rss_growth_mb < TARGET_GROWTH_MB;
  const p99Met = result.probe.p99_ms < TARGET_P99_MS;
  console.log('Targets:');
  console.log(`  RSS growth < ${TARGET_GROWTH_MB} MB: ${growthMet ? 'met' : 'NOT met'} (${result.rss_growth_mb} MB)`);
  console.log(`  GET /pets/1 p99 < ${TARGET_P99_MS} ms: ${p99Met ? 'met' : 'NOT met'} (${result.probe.p99_ms} ms)`);
  result.targets = { rss_growth_met: growthMet, p99_met: p99Met };

  const outDir = join(root, 'bench', 'results');
  mkdirSync(outDir, { recursive: true });
  const out = join(outDir, `stalled-${ADAPTER}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(out, JSON.stringify(result, null, 2));
  console.log(`results: ${out}`);
} finally {
  await cleanUp();
}
