/**
 * `npm run bench`: the built service on Express and on Fastify against the raw baseline
 * (bench/baseline.mjs), on copies of one SQLite database of 50 shelters and 10,000 pets,
 * with the same autocannon scenarios. Rate limits are set high, but the throttler, the auth
 * guard and the error filter stay in the pipeline as in production. `GET /pets/{id}` is also
 * run against the framework floor (bench/framework-floor.mjs): NestJS alone on each adapter,
 * reading the row as the baseline does, which bounds the ratio the service can reach.
 *
 * Prints requests/s, p50, p99, errors and the ratio to the baseline per scenario, and each
 * service's peak RSS; writes the figures to bench/results/. BENCH_DURATION (seconds per
 * scenario, default 5) and BENCH_CONNECTIONS (default 50) tune a run; BENCH_KEEP=1 keeps the
 * databases it built, and says where.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import autocannon from 'autocannon';
import Database from 'better-sqlite3';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SHELTERS = 50;
const PETS = 10_000;
const LARGE_LIST_PETS = 100_000;
const TOKEN = 'Bearer bench';
const work = mkdtempSync(join(tmpdir(), 'adoption-bench-'));

const pet = (index) => ({
  name: `Pet ${index}`,
  species: index % 2 === 0 ? 'cat' : 'dog',
  breed: ['Siamese', 'Beagle', 'Tabby', 'Collie'][index % 4],
  age_months: index % 200,
  gender: index % 3 === 0 ? 'female' : 'male',
  size: ['small', 'medium', 'large'][index % 3],
  temperament: 'calm, friendly',
  medical: { spayed_neutered: index % 2 === 0, vaccinations: ['rabies', 'fvrcp'] },
  description: 'A good companion looking for a home.',
  shelter_id: 1 + (index % SHELTERS),
  status: ['available', 'available', 'pending', 'adopted'][index % 4],
  intake_date: `2025-${String(1 + (index % 12)).padStart(2, '0')}-15`,
});

const randomId = () => 1 + Math.floor(Math.random() * PETS);
/** What HTTP clients send anyway (fetch, browsers, curl --compressed); the baseline ignores it. */
const client = { 'accept-encoding': 'gzip, deflate, br' };
const json = { ...client, 'content-type': 'application/json', authorization: TOKEN };

const SCENARIOS = [
  {
    name: 'GET /pets/{id}',
    requests: [{ method: 'GET', headers: client, setupRequest: (req) => ({ ...req, path: `/pets/${randomId()}` }) }],
  },
  {
    name: 'GET /pets?species=cat&status=available',
    requests: [{ method: 'GET', headers: client, path: '/pets?species=cat&status=available' }],
  },
  { name: 'GET /shelters', requests: [{ method: 'GET', headers: client, path: '/shelters' }] },
  {
    name: 'POST /pets',
    requests: [{ method: 'POST', path: '/pets', headers: json, body: JSON.stringify(pet(PETS + 1)) }],
  },
  {
    name: 'PATCH /pets/{id}',
    requests: [
      {
        method: 'PATCH',
        headers: json,
        setupRequest: (req) => ({
          ...req,
          path: `/pets/${randomId()}`,
          body: JSON.stringify({ age_months: randomId() % 600 }),
        }),
      },
    ],
  },
];

function start(command, args, env) {
  const child = spawn(process.execPath, [command, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  child.output = () => output;
  return child;
}

async function waitFor(url) {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(url)).ok) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer`);
}

async function stop(child) {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

/** Peak resident set size of a process, from the kernel's high-water mark. */
function peakRssMb(pid) {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : undefined;
}

function serviceEnv(file, adapter, port) {
  return {
    DATABASE_URL: `sqlite:${file}`,
    HTTP_ADAPTER: adapter,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    RATE_LIMIT_PER_MINUTE: '1000000000',
    RATE_LIMIT_PER_DAY: '1000000000000',
  };
}

/** An empty database migrated by the service itself, then filled in one transaction. */
async function buildTemplate(pets = PETS, name = 'template') {
  const file = join(work, `${name}.sqlite`);
  const service = start('dist/src/main.js', [], serviceEnv(file, 'express', 3990));
  await waitFor('http://127.0.0.1:3990/health/live');
  await stop(service);
  const db = new Database(file);
  const insertShelter = db.prepare(`INSERT INTO shelters (name, address, phone, email, hours, available_pet_count,
    adoption_fee_range, version) VALUES (?, '1 Main St', '+1-555-123-4567', 'team@example.org', 'daily', 10, '50-100', 1)`);
  const insertPet = db.prepare(`INSERT INTO pets (name, species, breed, breed_key, age_months, gender, size,
    temperament, medical_spayed_neutered, medical_vaccinations, description, shelter_id, status, intake_date, version)
    VALUES (@name, @species, @breed, @breed_key, @age_months, @gender, @size, @temperament, @spayed, @vaccinations,
    @description, @shelter_id, @status, @intake_date, 1)`);
  db.transaction(() => {
    for (let index = 1; index <= SHELTERS; index++) {
      insertShelter.run(`Shelter ${index}`);
    }
    for (let index = 1; index <= pets; index++) {
      const row = pet(index);
      insertPet.run({
        ...row,
        breed_key: row.breed.toLowerCase(),
        spayed: row.medical.spayed_neutered ? 1 : 0,
        vaccinations: JSON.stringify(row.medical.vaccinations),
      });
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return file;
}

async function measure(url, scenario) {
  const options = { url, connections: CONNECTIONS, pipelining: 1, requests: scenario.requests };
  await autocannon({ ...options, duration: 1 }); // warm-up
  const result = await autocannon({ ...options, duration: DURATION });
  return {
    requests_per_second: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** Current resident set size of a process. */
function rssMb(pid) {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round(Number(match[1]) / 1024) : undefined;
}

/** RSS growth of the service while it serves `GET /pets` over 100,000 pets, three times in a row. */
async function largeList(template, adapter, port) {
  const file = join(work, `large-${adapter}.sqlite`);
  copyFileSync(template, file);
  const child = start('dist/src/main.js', [], serviceEnv(file, adapter, port));
  await waitFor(`http://127.0.0.1:${port}/shelters`);
  const before = rssMb(child.pid);
  let peak = before;
  let bytes = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(child.pid) ?? 0)), 20);
  const started = Date.now();
  for (let round = 0; round < 3; round++) {
    const res = await fetch(`http://127.0.0.1:${port}/pets`);
    const text = await res.text();
    bytes = text.length;
    if (JSON.parse(text).length !== LARGE_LIST_PETS) {
      throw new Error('the large list is incomplete');
    }
  }
  clearInterval(sampler);
  const result = {
    rss_before_mb: before,
    rss_peak_mb: peak,
    rss_growth_mb: peak - before,
    body_mb: Math.round(bytes / 1024 / 1024),
    ms_per_list: Math.round((Date.now() - started) / 3),
  };
  await stop(child);
  return result;
}

const TARGETS = [
  { name: 'baseline', command: 'bench/baseline.mjs', args: (file, port) => [file, String(port)] },
  { name: 'express', command: 'dist/src/main.js', adapter: 'express' },
  { name: 'fastify', command: 'dist/src/main.js', adapter: 'fastify' },
  // NestJS alone, reading the row as the baseline does: the most the service could reach.
  ...['express', 'fastify'].map((adapter) => ({
    name: `floor-${adapter}`,
    command: 'bench/framework-floor.mjs',
    args: (file, port) => [file, String(port), adapter],
    only: ['GET /pets/{id}'],
  })),
];
const scenariosOf = (target) => SCENARIOS.filter((scenario) => !target.only || target.only.includes(scenario.name));

try {
  const template = await buildTemplate();
  const results = {};
  for (const [index, target] of TARGETS.entries()) {
    const port = 3991 + index;
    const file = join(work, `${target.name}.sqlite`);
    copyFileSync(template, file);
    const child = target.adapter
      ? start(target.command, [], serviceEnv(file, target.adapter, port))
      : start(target.command, target.args(file, port), {});
    await waitFor(`http://127.0.0.1:${port}/shelters`);
    results[target.name] = { scenarios: {} };
    for (const scenario of scenariosOf(target)) {
      results[target.name].scenarios[scenario.name] = await measure(`http://127.0.0.1:${port}`, scenario);
    }
    results[target.name].peak_rss_mb = peakRssMb(child.pid);
    await stop(child);
  }

  const large = await buildTemplate(LARGE_LIST_PETS, 'large');
  results.large_list = {};
  for (const [index, adapter] of ['express', 'fastify'].entries()) {
    results.large_list[adapter] = await largeList(large, adapter, 3998 + index);
  }

  const rows = [];
  for (const scenario of SCENARIOS) {
    const base = results.baseline.scenarios[scenario.name].requests_per_second;
    for (const target of TARGETS.filter((candidate) => scenariosOf(candidate).includes(scenario))) {
      const figures = results[target.name].scenarios[scenario.name];
      figures.ratio_to_baseline = Number((figures.requests_per_second / base).toFixed(2));
      rows.push({ scenario: scenario.name, target: target.name, ...figures });
    }
  }
  console.table(rows);
  for (const target of TARGETS) {
    console.log(`${target.name}: peak RSS ${results[target.name].peak_rss_mb} MB`);
  }
  for (const [adapter, figures] of Object.entries(results.large_list)) {
    console.log(
      `${adapter}: GET /pets over ${LARGE_LIST_PETS.toLocaleString('en')} pets (${figures.body_mb} MB) in ` +
        `${figures.ms_per_list} ms; RSS ${figures.rss_before_mb} -> ${figures.rss_peak_mb} MB ` +
        `(growth ${figures.rss_growth_mb} MB)`,
    );
  }
  const outDir = join(root, 'bench', 'results');
  mkdirSync(outDir, { recursive: true });
  const out = join(outDir, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    out,
    JSON.stringify(
      { duration_s: DURATION, connections: CONNECTIONS, pets: PETS, shelters: SHELTERS, results },
      null,
      2,
    ),
  );
  console.log(`results: ${out}`);
} finally {
  if (process.env.BENCH_KEEP) {
    console.log(`databases kept in ${work}`);
  } else {
    rmSync(work, { recursive: true, force: true });
  }
}
