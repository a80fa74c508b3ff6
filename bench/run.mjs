/**
 * `npm run bench`: in one run, on the same data (20 shelters, 10,000 pets from
 * bench/data.mjs), the same autocannon scenarios against
 *
 * - `baseline`: node:http and prepared statements (bench/baseline.mjs, or with `--postgres`
 *   bench/baseline-postgres.mjs), the ceiling of this machine;
 * - `json-server`: json-server 1.0 beta, the mock server the API was prototyped on, seeded
 *   by writing its db.json and started from its installed bin;
 * - `express` and `fastify`: the built service (dist/src/main.js) as it is run, with JSON
 *   request logs at `info` written to a file, and rate limits live but set too high to trip;
 * - `floor-express` and `floor-fastify` (SQLite only, `GET /pets/{id}` only): NestJS alone
 *   (bench/framework-floor.mjs), the most the service could reach.
 *
 * Each server gets its own copy of the data. For each scenario and server it prints
 * requests/s, p50, p99, errors, the ratios to json-server and to the baseline and the server's
 * CPU time per request, then each server's peak RSS, the 100,000-pet list's cost, and whether
 * the performance targets are met; the figures go to bench/results/.
 *
 * Options (after `npm run bench --`):
 *   --only=express,fastify,json-server   servers to run (names above)
 *   --scenario=shelters                  scenarios whose name contains this (several: comma-separated)
 *   --skip-large                         no 100,000-pet list
 *   --skip-near                          no location search over 100,000 pets in 5,000 shelters (bench/near.mjs)
 *   --skip-events                        no event latency at 200 events/s (bench/events.mjs)
 *   --postgres                           the service and the baseline on PostgreSQL (BENCH_POSTGRES_URL,
 *                                        default postgres://postgres@127.0.0.1:5432/test, names the
 *                                        server; the bench makes its own databases and drops them)
 *   --wait-quiet=30                      before each measurement, wait up to 30 s for other processes
 *                                        to leave the CPUs alone (on a shared machine)
 * BENCH_DURATION (seconds per scenario after a 1 s warm-up, default 5) and BENCH_CONNECTIONS
 * (default 50) tune a run; BENCH_KEEP=1 keeps the temporary folder (databases, server logs).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import autocannon from './autocannon.mjs';
import pg from 'pg';

import {
  buildSqlite,
  countPets,
  fillPostgres,
  migrateWithService,
  pet,
  PETS,
  petWithId,
  SHELTERS,
  shelters,
  SMALL_LIST_SHELTER,
  writeJsonServerDb,
} from './data.mjs';
import {
  cpuMeter,
  freePort,
  killAll,
  peakRssMb,
  root,
  rssMb,
  serviceEntry,
  serviceEnv,
  snapshotService,
  start,
  stop,
  waitFor,
} from './processes.mjs';
import { describeEvents, EVENTS_TARGET_P99_MS, measureEvents } from './events.mjs';
import { describeNear, measureNear, NEAR_TARGET_MS } from './near.mjs';

const { values: options } = parseArgs({
  options: {
    only: { type: 'string' },
    scenario: { type: 'string' },
    'skip-large': { type: 'boolean', default: false },
    'skip-near': { type: 'boolean', default: false },
    'skip-events': { type: 'boolean', default: false },
    postgres: { type: 'boolean', default: false },
    'wait-quiet': { type: 'string' },
  },
});

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const LARGE_LIST_PETS = 100_000;
const POSTGRES = options.postgres;
const MODE = POSTGRES ? 'postgres' : 'sqlite';

const TOKEN = 'Bearer bench';
/** Other processes using this much of a CPU during a measurement get the figure flagged. */
const BUSY_PERCENT = 15;
const work = mkdtempSync(join(tmpdir(), 'adoption-bench-'));

const randomId = () => 1 + Math.floor(Math.random() * PETS);
/** What HTTP clients send anyway (fetch, browsers, curl --compressed); the raw servers ignore it. */
const client = { 'accept-encoding': 'gzip, deflate, br' };
const json = { ...client, 'content-type': 'application/json', authorization: TOKEN };
const listPath = (filter) => `/pets?${new URLSearchParams(Object.entries(filter).map(([k, v]) => [k, String(v)]))}`;
const SMALL_FILTER = { species: 'cat', status: 'available', size: 'small', shelter_id: SMALL_LIST_SHELTER };
const CAT_FILTER = { species: 'cat', status: 'available' };
const SMALL_LIST = `GET ${listPath(SMALL_FILTER)}`;
const CAT_LIST = `GET ${listPath(CAT_FILTER)}`;

/** The same JSON text, field order included. */
const same = (actual, expected) => JSON.stringify(actual) === JSON.stringify(expected);

/** A list answer must hold exactly the generator's pets matching `filter`, by id. */
function checkList(filter) {
  const expected = countPets(filter);
  return (body) => {
    if (!Array.isArray(body)) {
      return 'not an array';
    }
    if (body.length !== expected) {
      return `${body.length} pets instead of ${expected}`;
    }
    const wrong = body.find((item) => !same(item, petWithId(item.id)));
    return wrong ? `pet ${wrong.id} differs: ${JSON.stringify(wrong)}` : undefined;
  };
}

/**
 * Each scenario: one request, fixed (`path`, `body`) or drawn anew for every request
 * (`build`), the status it must get, and a check of the answer, run once on every server
 * before the scenario is measured. Reads come first, while the data is as generated.
 */
const SCENARIOS = [
  {
    name: 'GET /pets/{id}',
    read: true,
    method: 'GET',
    headers: client,
    build: () => ({ path: `/pets/${randomId()}` }),
    status: 200,
    check: (body, request) => {
      const expected = petWithId(Number(request.path.split('/')[2]));
      return same(body, expected) ? undefined : `answered ${JSON.stringify(body)}`;
    },
  },
  {
    name: SMALL_LIST,
    read: true,
    method: 'GET',
    headers: client,
    path: listPath(SMALL_FILTER),
    status: 200,
    check: checkList(SMALL_FILTER),
  },
  {
    name: CAT_LIST,
    read: true,
    method: 'GET',
    headers: client,
    path: listPath(CAT_FILTER),
    status: 200,
    check: checkList(CAT_FILTER),
  },
  {
    name: 'GET /shelters',
    read: true,
    method: 'GET',
    headers: client,
    path: '/shelters',
    status: 200,
    check: (body) => (same(body, shelters()) ? undefined : `answered ${JSON.stringify(body).slice(0, 300)}`),
  },
  {
    name: 'POST /pets',
    method: 'POST',
    headers: json,
    path: '/pets',
    body: JSON.stringify(pet(PETS + 1)),
    status: 201,
    // Any id: json-server makes up a random string.
    check: (body) => {
      const { id, ...fields } = body;
      return id !== undefined && same(fields, pet(PETS + 1)) ? undefined : `answered ${JSON.stringify(body)}`;
    },
  },
  {
    name: 'PATCH /pets/{id}',
    method: 'PATCH',
    headers: json,
    build: () => ({ path: `/pets/${randomId()}`, body: JSON.stringify({ age_months: randomId() % 600 }) }),
    status: 200,
    check: (body, request) => {
      const id = Number(request.path.split('/')[2]);
      const expected = { ...petWithId(id), age_months: JSON.parse(request.body).age_months };
      return same(body, expected) ? undefined : `answered ${JSON.stringify(body)}`;
    },
  },
];

/** The autocannon request of a scenario; `setupRequest` only where each request differs. */
function cannonRequest(scenario) {
  const { method, headers, path, body, build } = scenario;
  return build ? { method, headers, setupRequest: (req) => ({ ...req, ...build() }) } : { method, headers, path, body };
}

/**
 * json-server stores every id as a string ("1"); the API's ids are numbers. Compared as
 * numbers, so that its answers are checked like every other server's.
 */
function numericIds(value) {
  if (Array.isArray(value)) {
    return value.map(numericIds);
  }
  if (value && typeof value === 'object' && typeof value.id === 'string' && /^\d+$/.test(value.id)) {
    return { ...value, id: Number(value.id) };
  }
  return value;
}

/** Sends one request of the scenario and says what is wrong with the answer, if anything. */
async function checkScenario(url, scenario) {
  const request = { path: scenario.path, body: scenario.body, ...scenario.build?.() };
  try {
    const res = await fetch(url + request.path, {
      method: scenario.method,
      headers: scenario.headers,
      body: request.body,
    });
    const text = await res.text();
    if (res.status !== scenario.status) {
      return `status ${res.status} instead of ${scenario.status}: ${text.slice(0, 300)}`;
    }
    return scenario.check(numericIds(JSON.parse(text)), request);
  } catch (error) {
    return String(error);
  }
}

async function measure(child, url, scenario) {
  const settings = { url, connections: CONNECTIONS, pipelining: 1, requests: [cannonRequest(scenario)] };
  await autocannon({ ...settings, duration: 1 }); // warm-up
  const meter = cpuMeter(child.pid, OWN_DATABASES);
  const result = await autocannon({ ...settings, duration: DURATION });
  const cpu = meter();
  const completed = result.requests.total;
  return {
    requests_per_second: Number(result.requests.average.toFixed(result.requests.average < 100 ? 1 : 0)),
    requests: completed,
    p50_ms: completed ? result.latency.p50 : null,
    p99_ms: completed ? result.latency.p99 : null,
    errors: result.errors + result.timeouts + result.non2xx,
    non_2xx: result.non2xx,
    cpu_us_per_request: completed ? Math.round(cpu.server_micros / completed) : null,
    ...(OWN_DATABASES
      ? { database_cpu_us_per_request: completed ? Math.round(cpu.database_micros / completed) : null }
      : {}),
    // Each in % of one CPU over the measurement.
    server_cpu_percent: cpu.server,
    ...(OWN_DATABASES ? { database_cpu_percent: cpu.database } : {}),
    bench_cpu_percent: cpu.self,
    kernel_threads_cpu_percent: cpu.kernel,
    other_processes_cpu_percent: cpu.others,
  };
}

/**
 * With --wait-quiet=<s>: waits, up to that long, until other processes use less than
 * BUSY_PERCENT of a CPU (measured over a second), so that a measurement does not start
 * beside a busy neighbour.
 */
async function waitQuiet(pid) {
  const limit = Date.now() + Number(options['wait-quiet'] ?? 0) * 1000;
  let told = false;
  while (Date.now() < limit) {
    const meter = cpuMeter(pid, OWN_DATABASES);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const { others } = meter();
    if (others < BUSY_PERCENT) {
      return;
    }
    if (!told) {
      process.stdout.write(` (waiting: other processes use ${others}% of a CPU)`);
      told = true;
    }
  }
}

/** Which source the built service comes from, as far as git can tell (dist/ itself is not tracked). */
function buildInfo() {
  const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  try {
    return {
      commit: git('rev-parse', '--short', 'HEAD'),
      changed_src_files: git('status', '--porcelain', '--', 'src').split('\n').filter(Boolean).length,
    };
  } catch {
    return { commit: 'unknown', changed_src_files: 0 };
  }
}

// PostgreSQL: the bench's own databases, all dropped at the end.
const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const databasePrefix = `adoption_bench_${process.pid}`;
/** The PostgreSQL backends of the bench's databases: their CPU time is the database's share of a request. */
const OWN_DATABASES = POSTGRES ? databasePrefix : undefined;
const createdDatabases = new Set();

function databaseUrl(name) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin(sql) {
  const db = new pg.Client({ connectionString: adminUrl });
  await db.connect();
  try {
    await db.query(sql);
  } finally {
    await db.end();
  }
}

async function createDatabase(name, template) {
  createdDatabases.add(name);
  await admin(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
  return databaseUrl(name);
}

async function dropDatabases() {
  for (const name of createdDatabases) {
    try {
      await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      createdDatabases.delete(name);
    } catch (error) {
      process.stderr.write(`could not drop database ${name}: ${String(error)}\n`);
    }
  }
}

let cleaned = false;
async function cleanUp() {
  if (cleaned) {
    return;
  }
  cleaned = true;
  killAll();
  await dropDatabases();
  if (process.env.BENCH_KEEP) {
    console.log(`temporary files kept in ${work}`);
  } else {
    rmSync(work, { recursive: true, force: true });
  }
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    process.stderr.write(`\n${signal}: stopping the servers and removing the bench's data\n`);
    void cleanUp().finally(() => process.exit(130));
  });
}

const jsonServerPackage = join(root, 'node_modules', 'json-server', 'package.json');

/** The servers, in the order they run; each is launched on its own copy of the data (see copyData). */
const TARGETS = [
  POSTGRES
    ? {
        name: 'baseline',
        launch: ({ url }, port, log) => start('bench/baseline-postgres.mjs', [url, String(port)], {}, log),
      }
    : { name: 'baseline', launch: ({ file }, port, log) => start('bench/baseline.mjs', [file, String(port)], {}, log) },
  {
    name: 'json-server',
    ownData: true,
    launch: (_data, port, log) => {
      const { bin, version } = JSON.parse(readFileSync(jsonServerPackage, 'utf8'));
      const dir = join(work, 'json-server');
      mkdirSync(dir, { recursive: true });
      writeJsonServerDb(dir, PETS);
      const child = start(
        join(root, 'node_modules', 'json-server', typeof bin === 'string' ? bin : bin['json-server']),
        ['--port', String(port), '--host', '127.0.0.1', 'db.json'],
        {},
        log,
        dir,
      );
      child.version = version;
      return child;
    },
  },
  ...['express', 'fastify'].map((adapter) => ({
    name: adapter,
    launch: ({ url }, port, log) => start(serviceEntry(), [], serviceEnv(url, adapter, port), log),
  })),
  // As `npm start` runs it: request lines in the pretty format.
  ...['express', 'fastify'].map((adapter) => ({
    name: `${adapter}-pretty`,
    only: ['GET /pets/{id}'],
    launch: ({ url }, port, log) =>
      start(serviceEntry(), [], { ...serviceEnv(url, adapter, port), LOG_FORMAT: 'pretty' }, log),
  })),
  // NestJS alone, reading the row as the baseline does: the most the service could reach.
  ...(POSTGRES ? [] : ['express', 'fastify']).map((adapter) => ({
    name: `floor-${adapter}`,
    only: ['GET /pets/{id}'],
    launch: ({ file }, port, log) => start('bench/framework-floor.mjs', [file, String(port), adapter], {}, log),
  })),
  // The long list's bytes sent with no work at all: the most the load generator lets through.
  {
    name: 'kept-bytes',
    ownData: true,
    only: [CAT_LIST],
    launch: (_data, port, log) => start('bench/kept-bytes.mjs', [String(port), JSON.stringify(CAT_FILTER)], {}, log),
  },
];

const onlyTargets = options.only?.split(',').map((name) => name.trim());
const unknown = onlyTargets?.filter((name) => !TARGETS.some((target) => target.name === name)) ?? [];
if (unknown.length) {
  console.error(`unknown --only name(s): ${unknown.join(', ')}; known: ${TARGETS.map((t) => t.name).join(', ')}`);
  process.exit(2);
}
const scenarioFilters = options.scenario?.split(',').map((text) => text.trim().toLowerCase());
const scenarios = SCENARIOS.filter(
  (scenario) => !scenarioFilters || scenarioFilters.some((text) => scenario.name.toLowerCase().includes(text)),
);
const targets = TARGETS.filter(
  (target) =>
    (!onlyTargets || onlyTargets.includes(target.name)) &&
    scenarios.some((scenario) => !target.only || target.only.includes(scenario.name)),
);
const scenariosOf = (target) => scenarios.filter((scenario) => !target.only || target.only.includes(scenario.name));
const runLarge = !options['skip-large'] && targets.some((target) => ['express', 'fastify'].includes(target.name));

/** The data every server starts from: a SQLite file or a PostgreSQL template database. */
async function buildData(pets, name) {
  const log = join(work, `${name}-migrate.log`);
  if (POSTGRES) {
    const url = await createDatabase(`${databasePrefix}_${name}`);
    await migrateWithService(url, log, await freePort());
    await fillPostgres(url, pets);
    return `${databasePrefix}_${name}`;
  }
  return buildSqlite(join(work, `${name}.sqlite`), pets, log, await freePort());
}

/** A copy of the template for one server: its own database (`url`) or SQLite file (`file`, and its `url`). */
async function copyData(template, name) {
  if (POSTGRES) {
    return { url: await createDatabase(`${databasePrefix}_${name.replace(/-/g, '_')}`, template) };
  }
  const file = join(work, `${name}.sqlite`);
  copyFileSync(template, file);
  return { file, url: `sqlite:${file}` };
}

/** RSS growth of the service while it serves `GET /pets` over 100,000 pets, three times in a row. */
async function largeList(template, adapter) {
  const data = POSTGRES ? databaseUrl(template) : (await copyData(template, `large-${adapter}`)).url;
  const port = await freePort();
  const child = start(serviceEntry(), [], serviceEnv(data, adapter, port), join(work, `large-${adapter}.log`));
  try {
    await waitFor(`http://127.0.0.1:${port}/shelters`, child);
    const before = rssMb(child.pid);
    let peak = before;
    let bytes = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(child.pid) ?? 0)), 20);
    const started = Date.now();
    try {
      for (let round = 0; round < 3; round++) {
        const res = await fetch(`http://127.0.0.1:${port}/pets`);
        const text = await res.text();
        bytes = text.length;
        if (JSON.parse(text).length !== LARGE_LIST_PETS) {
          throw new Error('the large list is incomplete');
        }
      }
    } finally {
      clearInterval(sampler);
    }
    return {
      rss_before_mb: before,
      rss_peak_mb: peak,
      rss_growth_mb: peak - before,
      body_mb: Math.round(bytes / 1024 / 1024),
      ms_per_list: Math.round((Date.now() - started) / 3),
    };
  } finally {
    await stop(child);
  }
}

const thousands = (value) => (value === undefined || value === null ? '-' : Math.round(value).toLocaleString('en'));
const perSecond = (value) => (value < 10 ? value.toFixed(1) : thousands(value));
function ratio(value, reference) {
  if (reference === undefined) {
    return '-';
  }
  if (reference === 0) {
    return value > 0 ? '∞' : '-';
  }
  return (value / reference).toFixed(value / reference >= 10 ? 1 : 2);
}

function printTable(results) {
  const head = [
    'server',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    '× json-server',
    '× baseline',
    'CPU µs/req',
    ...(OWN_DATABASES ? ['DB µs/req'] : []),
    'others',
    'answer',
  ];
  const widths = [14, 9, 7, 7, 7, 13, 11, 11, ...(OWN_DATABASES ? [10] : []), 7, 7];
  const line = (cells) =>
    cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' ');
  for (const scenario of scenarios) {
    const rows = targets.filter((target) => results[target.name]?.scenarios[scenario.name]);
    if (!rows.length) {
      continue;
    }
    console.log(`\n${scenario.name}`);
    console.log(`  ${line(head)}`);
    const reference = (name) => results[name]?.scenarios[scenario.name]?.requests_per_second;
    for (const target of rows) {
      const figures = results[target.name].scenarios[scenario.name];
      console.log(
        `  ${line([
          target.name,
          perSecond(figures.requests_per_second),
          String(figures.p50_ms ?? '-'),
          String(figures.p99_ms ?? '-'),
          thousands(figures.errors),
          ratio(figures.requests_per_second, reference('json-server')),
          ratio(figures.requests_per_second, reference('baseline')),
          thousands(figures.cpu_us_per_request),
          // json-server keeps its data in its own process.
          ...(OWN_DATABASES ? [target.ownData ? '-' : thousands(figures.database_cpu_us_per_request)] : []),
          `${figures.other_processes_cpu_percent}%`,
          figures.check_error ? 'WRONG' : 'ok',
        ])}`,
      );
    }
  }
}

/** The performance targets of the project, each met or not with its figures. */
function targetChecks(results) {
  const figures = (target, scenario) => results[target]?.scenarios[scenario];
  const rate = (target, scenario) => figures(target, scenario)?.requests_per_second;
  const checks = [];
  const add = (name, met, detail) => checks.push({ name, met, detail });
  const versus = (name, target, scenario, reference, referenceScenario, minimum) => {
    const value = rate(target, scenario);
    const base = rate(reference, referenceScenario);
    if (value === undefined || base === undefined) {
      return add(name, null, 'not measured');
    }
    if (figures(target, scenario).check_error || figures(reference, referenceScenario).check_error) {
      return add(name, null, 'not comparable: a wrong answer');
    }
    if (base === 0) {
      return add(name, value > 0, `${reference} completed no request in ${DURATION} s; ${perSecond(value)} req/s`);
    }
    add(
      name,
      value >= minimum * base,
      `${(value / base).toFixed(2)}× (${perSecond(value)} vs ${perSecond(base)} req/s)`,
    );
  };
  const Adapter = { express: 'Express', fastify: 'Fastify' };
  const idLookup = 'GET /pets/{id}';
  const minimums = { fastify: 2, express: 0.8 };
  for (const adapter of ['fastify', 'express']) {
    versus(
      `${idLookup}: ${Adapter[adapter]} ≥ ${minimums[adapter]}× json-server`,
      adapter,
      idLookup,
      'json-server',
      idLookup,
      minimums[adapter],
    );
  }
  for (const adapter of ['fastify', 'express']) {
    versus(
      `small filtered list: ${Adapter[adapter]} ≥ 10× json-server`,
      adapter,
      SMALL_LIST,
      'json-server',
      SMALL_LIST,
      10,
    );
  }
  versus(`small filtered list: Fastify ≥ its own ${idLookup} rate`, 'fastify', SMALL_LIST, 'fastify', idLookup, 1);
  for (const adapter of ['fastify', 'express']) {
    versus(
      `GET /shelters: ${Adapter[adapter]} ≥ ${minimums[adapter]}× json-server`,
      adapter,
      'GET /shelters',
      'json-server',
      'GET /shelters',
      minimums[adapter],
    );
  }
  for (const adapter of ['fastify', 'express']) {
    versus(`POST /pets: ${Adapter[adapter]} ≥ 10× json-server`, adapter, 'POST /pets', 'json-server', 'POST /pets', 10);
  }
  const maxima = { fastify: 25, express: 50 };
  for (const adapter of ['fastify', 'express']) {
    const reads = SCENARIOS.filter((scenario) => scenario.read && figures(adapter, scenario.name));
    const name = `p99 < ${maxima[adapter]} ms on ${Adapter[adapter]}, every read scenario`;
    if (!reads.length) {
      add(name, null, 'not measured');
      continue;
    }
    const missing = SCENARIOS.filter((scenario) => scenario.read).length - reads.length;
    const p99 = (target, scenario) => figures(target, scenario.name)?.p99_ms;
    const bound = (scenario) =>
      p99('kept-bytes', scenario) === undefined ? '' : ` (kept-bytes, no work: ${p99('kept-bytes', scenario)} ms)`;
    add(
      name,
      reads.every((scenario) => p99(adapter, scenario) < maxima[adapter]),
      reads.map((scenario) => `${scenario.name} ${p99(adapter, scenario)} ms${bound(scenario)}`).join('; ') +
        (missing ? ` (${missing} read scenario(s) not measured)` : ''),
    );
  }
  for (const adapter of ['fastify', 'express']) {
    versus(
      `${idLookup}: ${Adapter[adapter]} with pretty logs (npm start) within 15% of JSON logs`,
      `${adapter}-pretty`,
      idLookup,
      adapter,
      idLookup,
      0.85,
    );
  }
  const near = results.location_search;
  add(
    `location search median < ${NEAR_TARGET_MS} ms (100,000 pets in 5,000 shelters, distance=50, limit=20)`,
    near ? near.median_ms < NEAR_TARGET_MS : null,
    near ? `median ${near.median_ms} ms, p99 ${near.p99_ms} ms` : 'not measured (--skip-near)',
  );
  const events = results.event_latency;
  add(
    `event latency p99 < ${EVENTS_TARGET_P99_MS} ms at 200 events/s, every event once`,
    events
      ? events.p99_ms < EVENTS_TARGET_P99_MS && events.received === events.events && events.duplicates === 0
      : null,
    events
      ? `p99 ${events.p99_ms} ms, ${events.received}/${events.events} received, ${events.duplicates} twice`
      : 'not measured (--skip-events)',
  );
  const service = figures('fastify', idLookup)?.cpu_us_per_request;
  const floor = figures('floor-fastify', idLookup)?.cpu_us_per_request;
  const pipeline = 'pipeline CPU per request on Fastify (service − framework floor, GET /pets/{id}) ≤ 40 µs';
  if (service === undefined || service === null || floor === undefined || floor === null) {
    add(pipeline, null, POSTGRES ? 'not measured (the framework floor runs on SQLite only)' : 'not measured');
  } else {
    add(pipeline, service - floor <= 40, `${service} − ${floor} = ${service - floor} µs`);
  }
  return checks;
}

try {
  console.log(
    `adoption-service bench (${MODE}): ${SHELTERS} shelters, ${PETS.toLocaleString('en')} pets; ` +
      `${CONNECTIONS} connections, ${DURATION} s per scenario after a 1 s warm-up; ${cpus().length} CPUs, node ${process.version}`,
  );
  console.log(
    `small filtered list (shelter ${SMALL_LIST_SHELTER}): ${countPets(SMALL_FILTER)} pets; ` +
      `GET ${listPath(CAT_FILTER)}: ${countPets(CAT_FILTER).toLocaleString('en')} pets`,
  );
  console.log(`servers: ${targets.map((target) => target.name).join(', ')}`);
  snapshotService(work);
  const build = buildInfo();
  console.log(
    `service: dist/ of ${build.commit}${build.changed_src_files ? ` + ${build.changed_src_files} changed file(s) in src/` : ''}`,
  );
  const template = await buildData(PETS, 'template');
  const results = {};
  for (const target of targets) {
    const data = target.ownData ? {} : await copyData(template, target.name);
    const port = await freePort();
    const child = target.launch(data, port, join(work, `${target.name}.log`));
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitFor(`${url}/shelters`, child);
      results[target.name] = { scenarios: {}, ...(child.version ? { version: child.version } : {}) };
      for (const scenario of scenariosOf(target)) {
        const problem = await checkScenario(url, scenario);
        if (problem) {
          console.log(`${target.name}, ${scenario.name}: WRONG ANSWER: ${problem}`);
        }
        process.stdout.write(`${target.name}: ${scenario.name} ...`);
        await waitQuiet(child.pid);
        const measured = await measure(child, url, scenario);
        results[target.name].scenarios[scenario.name] = { ...measured, ...(problem ? { check_error: problem } : {}) };
        process.stdout.write(
          ` ${perSecond(measured.requests_per_second)} req/s` +
            (measured.other_processes_cpu_percent >= BUSY_PERCENT
              ? ` (other processes used ${measured.other_processes_cpu_percent}% of a CPU meanwhile)`
              : '') +
            '\n',
        );
      }
      results[target.name].peak_rss_mb = peakRssMb(child.pid);
    } finally {
      await stop(child);
    }
  }

  if (runLarge) {
    const large = await buildData(LARGE_LIST_PETS, 'large');
    results.large_list = {};
    for (const adapter of ['express', 'fastify'].filter((name) => targets.some((target) => target.name === name))) {
      results.large_list[adapter] = await largeList(large, adapter);
    }
  }

  if (!options['skip-near']) {
    const databaseUrl = POSTGRES
      ? await createDatabase(`${databasePrefix}_near`)
      : `sqlite:${join(work, 'near.sqlite')}`;
    results.location_search = await measureNear({ databaseUrl, work, label: MODE });
  }
  if (!options['skip-events']) {
    const databaseUrl = POSTGRES
      ? await createDatabase(`${databasePrefix}_events`)
      : `sqlite:${join(work, 'events.sqlite')}`;
    results.event_latency = await measureEvents({ databaseUrl, work, label: MODE });
  }

  console.log(
    `\nResults (${MODE}): ratios are of requests/s; "CPU µs/req" is the server's user + system time per ` +
      `request${OWN_DATABASES ? ', "DB µs/req" PostgreSQL\'s' : ''}; "others" is the CPU other processes ` +
      'used meanwhile, in % of one CPU',
  );
  printTable(results);
  console.log('');
  for (const target of targets) {
    console.log(`${target.name}: peak RSS ${results[target.name].peak_rss_mb} MB`);
  }
  for (const [adapter, figures] of Object.entries(results.large_list ?? {})) {
    console.log(
      `${adapter}: GET /pets over ${LARGE_LIST_PETS.toLocaleString('en')} pets (${figures.body_mb} MB) in ` +
        `${figures.ms_per_list} ms; RSS ${figures.rss_before_mb} -> ${figures.rss_peak_mb} MB ` +
        `(growth ${figures.rss_growth_mb} MB)`,
    );
  }
  if (results.location_search) {
    console.log(describeNear(POSTGRES ? 'PostgreSQL' : 'SQLite', results.location_search));
  }
  if (results.event_latency) {
    console.log(describeEvents(POSTGRES ? 'PostgreSQL' : 'SQLite', results.event_latency));
  }
  const wrong = targets.flatMap((target) =>
    Object.entries(results[target.name].scenarios)
      .filter(([, figures]) => figures.check_error)
      .map(([scenario, figures]) => `${target.name}, ${scenario}: ${figures.check_error}`),
  );
  if (wrong.length) {
    console.log(`\nWrong answers (their figures do not count):\n  ${wrong.join('\n  ')}`);
  }
  const busy = targets.flatMap((target) =>
    Object.entries(results[target.name].scenarios)
      .filter(([, figures]) => figures.other_processes_cpu_percent >= BUSY_PERCENT)
      .map(([scenario]) => `${target.name} ${scenario}`),
  );
  if (busy.length) {
    console.log(
      `\nOther processes used ${BUSY_PERCENT}% of a CPU or more (column "others") during ${busy.length} ` +
        `measurement(s); those figures are lower than this machine gives: ${busy.join(', ')}. ` +
        '--wait-quiet=<seconds> waits for a quiet machine before each measurement.',
    );
  }

  const checks = targetChecks(results);
  console.log('\nTargets:');
  for (const check of checks) {
    const verdict = check.met === null ? check.detail : `${check.met ? 'met' : 'NOT met'} (${check.detail})`;
    console.log(`  ${check.name}: ${verdict}`);
  }

  const outDir = join(root, 'bench', 'results');
  mkdirSync(outDir, { recursive: true });
  const out = join(outDir, `bench-${MODE}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    out,
    JSON.stringify(
      {
        mode: MODE,
        build,
        node: process.version,
        cpus: cpus().length,
        duration_s: DURATION,
        connections: CONNECTIONS,
        pets: PETS,
        shelters: SHELTERS,
        small_list: { shelter_id: SMALL_LIST_SHELTER, pets: countPets(SMALL_FILTER) },
        scenarios: scenarios.map((scenario) => scenario.name),
        results,
        targets: checks,
      },
      null,
      2,
    ),
  );
  console.log(`\nresults: ${out}`);
} finally {
  await cleanUp();
}
