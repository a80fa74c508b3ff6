/**
 * Location search speed: 100,000 pets in 5,000 shelters spread over the US (each at a ZIP code
 * of the offline table the service uses), and `GET /pets?location=<zip>&distance=50&limit=20`
 * for 300 different ZIP codes, one request at a time, so that every answer is computed (none
 * is a kept list answer). Reports the median and p99 latency on SQLite and, with `--postgres`
 * or from `npm run bench -- --postgres`, on PostgreSQL. The service runs as users run it:
 * JSON request lines, the rate limiter counting.
 *
 *   node bench/near.mjs [--postgres]          (after `nest build`; also run by `npm run bench`)
 */
import { join } from 'node:path';

import Database from 'better-sqlite3';
import pg from 'pg';
import { codes } from 'zipcodes';

import { migrateWithService, pet, runAlone } from './data.mjs';
import { freePort, serviceEntry, serviceEnv, start, stop, waitFor } from './processes.mjs';

export const NEAR_SHELTERS = 5_000;
export const NEAR_PETS = 100_000;
const QUERIES = 300;
const MILES = 50;
export const NEAR_TARGET_MS = 20;

/** 5,000 ZIP codes of the contiguous US, evenly spaced through the table: the shelters' places. */
function shelterZips() {
  const zips = Object.values(codes)
    .filter(
      (entry) =>
        entry.country === 'US' && !['AK', 'HI', 'PR', 'VI', 'GU', 'AS', 'MP', 'AE', 'AP', 'AA'].includes(entry.state),
    )
    .sort((a, b) => a.zip.localeCompare(b.zip));
  const step = zips.length / NEAR_SHELTERS;
  return Array.from({ length: NEAR_SHELTERS }, (_, index) => zips[Math.floor(index * step)]);
}

function shelterRow(entry, index) {
  return [
    `Shelter ${index + 1}`,
    `${index + 1} Main Street, ${entry.city}, ${entry.state} ${entry.zip}`,
    `+1-555-010-${String(index % 10_000).padStart(4, '0')}`,
    `shelter${index + 1}@example.org`,
    'Mon-Sat 10:00-18:00',
    20,
    '$50-$150',
    entry.latitude,
    entry.longitude,
  ];
}

const SHELTER_INSERT =
  'INSERT INTO shelters (name, address, phone, email, hours, available_pet_count, adoption_fee_range, latitude, longitude, version)';

function petValues(index) {
  const row = pet(index);
  return [
    row.name,
    row.species,
    row.breed,
    row.breed.toLowerCase(),
    row.age_months,
    row.gender,
    row.size,
    row.temperament,
    row.medical.spayed_neutered,
    JSON.stringify(row.medical.vaccinations),
    row.description,
    1 + (index % NEAR_SHELTERS),
    row.status,
    row.intake_date,
  ];
}

const PET_INSERT = `INSERT INTO pets (name, species, breed, breed_key, age_months, gender, size, temperament,
  medical_spayed_neutered, medical_vaccinations, description, shelter_id, status, intake_date, version)`;

async function fillSqlite(file, zips) {
  const db = new Database(file);
  const shelter = db.prepare(`${SHELTER_INSERT} VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)`);
  const insertPet = db.prepare(`${PET_INSERT} VALUES (${Array(14).fill('?').join(', ')}, 1)`);
  db.transaction(() => {
    zips.forEach((entry, index) => shelter.run(...shelterRow(entry, index)));
    for (let index = 1; index <= NEAR_PETS; index++) {
      const values = petValues(index);
      values[8] = values[8] ? 1 : 0;
      insertPet.run(...values);
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

async function fillPostgres(url, zips) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    for (let first = 0; first < zips.length; first += 500) {
      const rows = zips.slice(first, first + 500).map((entry, offset) => shelterRow(entry, first + offset));
      await client.query(
        `${SHELTER_INSERT} VALUES ${rows.map((_, row) => `(${Array.from({ length: 9 }, (_, column) => `$${row * 9 + column + 1}`).join(', ')}, 1)`).join(', ')}`,
        rows.flat(),
      );
    }
    for (let first = 1; first <= NEAR_PETS; first += 1_000) {
      const rows = [];
      for (let index = first; index < Math.min(first + 1_000, NEAR_PETS + 1); index++) {
        rows.push(petValues(index));
      }
      await client.query(
        `${PET_INSERT} VALUES ${rows.map((_, row) => `(${Array.from({ length: 14 }, (_, column) => `$${row * 14 + column + 1}${column === 9 ? '::jsonb' : ''}`).join(', ')}, 1)`).join(', ')}`,
        rows.flat(),
      );
    }
    await client.query('COMMIT');
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}

const percentile = (sorted, fraction) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];

/**
 * Builds the data on one database (`databaseUrl`: `sqlite:<file>` or a PostgreSQL database the
 * caller created and drops), starts the service on it and measures. Returns the figures.
 */
export async function measureNear({ databaseUrl, work, label }) {
  const zips = shelterZips();
  const started = Date.now();
  await migrateWithService(databaseUrl, join(work, `near-${label}-migrate.log`), await freePort());
  if (databaseUrl.startsWith('sqlite:')) {
    await fillSqlite(databaseUrl.slice('sqlite:'.length), zips);
  } else {
    await fillPostgres(databaseUrl, zips);
  }
  const seededSeconds = Math.round((Date.now() - started) / 100) / 10;
  const port = await freePort();
  const child = start(serviceEntry(), [], serviceEnv(databaseUrl, 'express', port), join(work, `near-${label}.log`));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitFor(`${url}/shelters?limit=1`, child);
    const asked = Array.from({ length: QUERIES }, (_, index) => zips[(index * 7919) % zips.length].zip);
    // Warm-up: connections, statement caches, the ZIP table (not measured; other ZIP codes).
    for (const zip of zips.slice(0, 20).map((entry) => entry.zip)) {
      await fetch(`${url}/pets?location=${zip}&distance=${MILES}&limit=20`).then((res) => res.arrayBuffer());
    }
    const latencies = [];
    let totals = 0;
    for (const zip of asked) {
      const begin = process.hrtime.bigint();
      const res = await fetch(`${url}/pets?location=${zip}&distance=${MILES}&limit=20`);
      const items = await res.json();
      latencies.push(Number(process.hrtime.bigint() - begin) / 1e6);
      if (res.status !== 200 || !Array.isArray(items) || items.some((item) => item.distance > MILES)) {
        throw new Error(`wrong answer for ${zip}: ${res.status} ${JSON.stringify(items).slice(0, 200)}`);
      }
      totals += Number(res.headers.get('x-total-count'));
    }
    latencies.sort((a, b) => a - b);
    return {
      shelters: NEAR_SHELTERS,
      pets: NEAR_PETS,
      queries: QUERIES,
      seeded_s: seededSeconds,
      mean_matching_pets: Math.round(totals / QUERIES),
      median_ms: Math.round(percentile(latencies, 0.5) * 100) / 100,
      p99_ms: Math.round(percentile(latencies, 0.99) * 100) / 100,
    };
  } finally {
    await stop(child);
  }
}

export function describeNear(label, figures) {
  return (
    `GET /pets?location=<zip>&distance=${MILES}&limit=20 on ${label} (${figures.pets.toLocaleString('en')} pets in ` +
    `${figures.shelters.toLocaleString('en')} shelters, ${figures.queries} ZIP codes one at a time, ` +
    `${figures.mean_matching_pets} matching pets on average): median ${figures.median_ms} ms, p99 ${figures.p99_ms} ms`
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await runAlone('near', measureNear, describeNear);
}
