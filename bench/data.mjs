/**
 * The bench's data: one deterministic generator of shelters and pets, and the ways to load
 * it into every server measured (a SQLite file, a PostgreSQL database, json-server's
 * db.json), so that every server answers from the same rows.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import Database from 'better-sqlite3';
import pg from 'pg';

import { serviceEntry, start, stop, waitFor } from './processes.mjs';

export const SHELTERS = 20;
export const PETS = 10_000;
/**
 * The shelter of the small filtered list. Shelters differ in size (shelter i holds a share
 * of the pets proportional to i), so shelter 3 holds about 1.4% of them, and about a dozen
 * of those are small cats available for adoption.
 */
export const SMALL_LIST_SHELTER = 3;

/** A well-mixed number in [0, 1) from an index and a field number: the same on every run. */
function unit(index, field) {
  let t = Math.imul(index, 0x9e3779b1) ^ Math.imul(field + 1, 0x85ebca77);
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

const pick = (index, field, values) => values[Math.floor(unit(index, field) * values.length)];

const SHELTER_WEIGHT_TOTAL = (SHELTERS * (SHELTERS + 1)) / 2;

function shelterOf(index) {
  let remaining = unit(index, 9) * SHELTER_WEIGHT_TOTAL;
  for (let shelter = 1; shelter <= SHELTERS; shelter++) {
    remaining -= shelter;
    if (remaining < 0) {
      return shelter;
    }
  }
  return SHELTERS;
}

const NAMES = ['Biscuit', 'Luna', 'Milo', 'Pepper', 'Olive', 'Scout', 'Maple', 'Juniper', 'Otis', 'Hazel'];
const BREEDS = {
  cat: ['Domestic Shorthair', 'Siamese', 'Maine Coon', 'Tabby'],
  dog: ['Labrador Retriever', 'Beagle', 'Border Collie', 'Mixed'],
};
const VACCINATIONS = { cat: ['rabies', 'fvrcp'], dog: ['rabies', 'dhpp', 'bordetella'] };
const TEMPERAMENTS = ['calm, friendly', 'playful, curious', 'shy at first, affectionate', 'energetic, good with kids'];
const FIRST_INTAKE = Date.UTC(2024, 0, 1);

/** Pet number `index` (its id once loaded), as the API shows it without the id: fields in the contract's order. */
export function pet(index) {
  const species = unit(index, 1) < 0.5 ? 'cat' : 'dog';
  const status = unit(index, 2);
  return {
    name: `${pick(index, 3, NAMES)} ${index}`,
    species,
    breed: pick(index, 4, BREEDS[species]),
    age_months: Math.floor(unit(index, 5) * 180),
    gender: unit(index, 6) < 0.5 ? 'female' : 'male',
    size: pick(index, 7, ['small', 'medium', 'large']),
    temperament: pick(index, 8, TEMPERAMENTS),
    medical: { spayed_neutered: unit(index, 10) < 0.7, vaccinations: VACCINATIONS[species] },
    description: 'A good companion looking for a home.',
    shelter_id: shelterOf(index),
    status: status < 0.5 ? 'available' : status < 0.7 ? 'pending' : 'adopted',
    intake_date: new Date(FIRST_INTAKE + Math.floor(unit(index, 11) * 700) * 86_400_000).toISOString().slice(0, 10),
  };
}

/** Pet `index` as the API answers it: with its id last. */
export const petWithId = (index) => ({ ...pet(index), id: index });

/** The shelters as the API shows them, each with its count of available pets among `pets`. */
export function shelters(pets = PETS) {
  const available = new Array(SHELTERS + 1).fill(0);
  for (let index = 1; index <= pets; index++) {
    const row = pet(index);
    if (row.status === 'available') {
      available[row.shelter_id]++;
    }
  }
  return Array.from({ length: SHELTERS }, (_, offset) => {
    const id = offset + 1;
    return {
      name: `Shelter ${id}`,
      address: `${id} Main Street, Springfield`,
      phone: `+1-555-010-${String(id).padStart(4, '0')}`,
      email: `shelter${id}@example.org`,
      hours: 'Mon-Sat 10:00-18:00',
      available_pet_count: available[id],
      adoption_fee_range: '$50-$150',
      id,
    };
  });
}

/** Whether `row` has every field of `filter` (values compared as text, as in a query string). */
export const matches = (row, filter) =>
  Object.entries(filter).every(([field, value]) => String(row[field]) === String(value));

/** How many of the first `pets` pets have every field of `filter`. */
export function countPets(filter, pets = PETS) {
  let count = 0;
  for (let index = 1; index <= pets; index++) {
    if (matches(pet(index), filter)) {
      count++;
    }
  }
  return count;
}

/** The columns of the service's `pets` table for pet `index` (see src/database/migrations). */
function petColumns(index) {
  const row = pet(index);
  return {
    ...row,
    breed_key: row.breed.normalize('NFC').toLowerCase(),
    spayed: row.medical.spayed_neutered,
    vaccinations: JSON.stringify(row.medical.vaccinations),
  };
}

/** Lets the built service create its schema on an empty database, as it does at every start. */
export async function migrateWithService(databaseUrl, logFile, port) {
  const service = start(
    serviceEntry(),
    [],
    { DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', LOG_FORMAT: 'json' },
    logFile,
  );
  try {
    await waitFor(`http://127.0.0.1:${port}/health/live`, service);
  } finally {
    await stop(service);
  }
}

/** A SQLite database migrated by the service itself, then filled in one transaction. */
export async function buildSqlite(file, pets, logFile, port) {
  await migrateWithService(`sqlite:${file}`, logFile, port);
  const db = new Database(file);
  const insertShelter = db.prepare(`INSERT INTO shelters (name, address, phone, email, hours, available_pet_count,
    adoption_fee_range, version) VALUES (@name, @address, @phone, @email, @hours, @available_pet_count,
    @adoption_fee_range, 1)`);
  const insertPet = db.prepare(`INSERT INTO pets (name, species, breed, breed_key, age_months, gender, size,
    temperament, medical_spayed_neutered, medical_vaccinations, description, shelter_id, status, intake_date, version)
    VALUES (@name, @species, @breed, @breed_key, @age_months, @gender, @size, @temperament, @spayed, @vaccinations,
    @description, @shelter_id, @status, @intake_date, 1)`);
  db.transaction(() => {
    for (const row of shelters(pets)) {
      insertShelter.run(row);
    }
    for (let index = 1; index <= pets; index++) {
      const row = petColumns(index);
      insertPet.run({ ...row, spayed: row.spayed ? 1 : 0 });
    }
    // Each pet's first status, as creating it through the API records it.
    db.exec(`INSERT INTO pet_status_history (pet_id, status, changed_at)
      SELECT id, status, CURRENT_TIMESTAMP FROM pets ORDER BY id`);
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return file;
}

const PET_INSERT_COLUMNS = [
  'name',
  'species',
  'breed',
  'breed_key',
  'age_months',
  'gender',
  'size',
  'temperament',
  'spayed',
  'vaccinations',
  'description',
  'shelter_id',
  'status',
  'intake_date',
];

/** Fills a PostgreSQL database the service has migrated, in one transaction. */
export async function fillPostgres(databaseUrl, pets) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    for (const row of shelters(pets)) {
      await client.query(
        `INSERT INTO shelters (name, address, phone, email, hours, available_pet_count, adoption_fee_range, version)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 1)`,
        [row.name, row.address, row.phone, row.email, row.hours, row.available_pet_count, row.adoption_fee_range],
      );
    }
    const batch = 1_000;
    for (let first = 1; first <= pets; first += batch) {
      const values = [];
      const tuples = [];
      for (let index = first; index < Math.min(first + batch, pets + 1); index++) {
        const row = petColumns(index);
        const base = values.length;
        tuples.push(
          `(${PET_INSERT_COLUMNS.map((column, offset) => `$${base + offset + 1}${column === 'vaccinations' ? '::jsonb' : ''}`).join(', ')}, 1)`,
        );
        values.push(...PET_INSERT_COLUMNS.map((column) => row[column]));
      }
      await client.query(
        `INSERT INTO pets (name, species, breed, breed_key, age_months, gender, size, temperament,
          medical_spayed_neutered, medical_vaccinations, description, shelter_id, status, intake_date, version)
         VALUES ${tuples.join(', ')}`,
        values,
      );
    }
    await client.query(`INSERT INTO pet_status_history (pet_id, status, changed_at)
      SELECT id, status, CURRENT_TIMESTAMP FROM pets ORDER BY id`);
    await client.query('COMMIT');
    await client.query('ANALYZE');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

/**
 * json-server's database file, written directly (seeding it through its API would take
 * minutes): the shelters and pets as the API shows them, ids included.
 */
export function writeJsonServerDb(dir, pets) {
  const file = join(dir, 'db.json');
  const data = { shelters: shelters(pets), pets: Array.from({ length: pets }, (_, offset) => petWithId(offset + 1)) };
  writeFileSync(file, JSON.stringify(data, null, 2));
  return file;
}

/**
 * A bench script run on its own (`node bench/near.mjs [--postgres]`): measures on a SQLite file
 * and, with `--postgres`, on a PostgreSQL database of its own on BENCH_POSTGRES_URL's server
 * (dropped afterwards), and prints each result.
 */
export async function runAlone(name, measure, describe) {
  const { values } = parseArgs({ options: { postgres: { type: 'boolean', default: false } } });
  const work = mkdtempSync(join(tmpdir(), `adoption-${name}-`));
  const adminUrl = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const database = `adoption_${name}_${process.pid}`;
  const admin = async (sql) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  try {
    const sqlite = await measure({ databaseUrl: `sqlite:${join(work, `${name}.sqlite`)}`, work, label: 'sqlite' });
    console.log(describe('SQLite', sqlite));
    if (values.postgres) {
      await admin(`CREATE DATABASE "${database}"`);
      const url = new URL(adminUrl);
      url.pathname = `/${database}`;
      console.log(describe('PostgreSQL', await measure({ databaseUrl: url.toString(), work, label: 'postgres' })));
    }
  } finally {
    if (values.postgres) {
      await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => {});
    }
    rmSync(work, { recursive: true, force: true });
  }
}
