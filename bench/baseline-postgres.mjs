/**
 * The raw baseline of `npm run bench -- --postgres`: node:http and pg with named
 * (server-side prepared) parameterised statements on the service's own schema, answering the
 * benchmarked routes with the same JSON. A pool of 10 connections, as the service has. No
 * framework, no validation beyond what the queries need: the ceiling for this machine.
 *
 *   node bench/baseline-postgres.mjs <postgres url> <port>
 */
import { createServer } from 'node:http';

import pg from 'pg';

import { petBody as body, readBody, send } from './raw-answers.mjs';
import { filtersOf } from './raw-pets.mjs';

const [url, port] = process.argv.slice(2);

// `date` columns as their text (YYYY-MM-DD), which is what the API shows.
const DATE_OID = 1082;
pg.types.setTypeParser(DATE_OID, (text) => text);

const pool = new pg.Pool({ connectionString: url, max: 10 });

const PET_COLUMNS = `name, species, breed, age_months, gender, size, temperament, medical_spayed_neutered,
  medical_vaccinations, description, shelter_id, status, intake_date, id`;

const PET_BY_ID = `SELECT ${PET_COLUMNS} FROM pets WHERE id = $1`;
const SHELTERS = `SELECT name, address, phone, email, hours, available_pet_count, adoption_fee_range, id
  FROM shelters ORDER BY id`;
// The pet and its first status in one statement, so in one transaction.
const INSERT_PET = `WITH pet AS (
    INSERT INTO pets (name, species, breed, breed_key, age_months, gender, size, temperament,
      medical_spayed_neutered, medical_vaccinations, description, shelter_id, status, intake_date, version)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11, $12, $13, $14, 1)
    RETURNING ${PET_COLUMNS}
  ), history AS (
    INSERT INTO pet_status_history (pet_id, status, changed_at) SELECT id, status, now() FROM pet
  )
  SELECT * FROM pet`;
const PATCH_AGE = `UPDATE pets SET age_months = $1, version = version + 1 WHERE id = $2 RETURNING ${PET_COLUMNS}`;

/** The list statement of a combination of filters, each an equality. */
const listStatement = (filters) =>
  `SELECT ${PET_COLUMNS} FROM pets ${
    filters.length ? `WHERE ${filters.map((field, index) => `${field} = $${index + 1}`).join(' AND ')}` : ''
  } ORDER BY id`;

/** Named, so each pooled connection prepares it once and then only executes it. */
const run = (name, text, values = []) => pool.query({ name, text, values });

async function handle(req, res) {
  const url = new URL(req.url, 'http://baseline');
  const id = /^\/pets\/(\d+)$/.exec(url.pathname)?.[1];
  if (req.method === 'GET' && id) {
    const { rows } = await run('pet-by-id', PET_BY_ID, [Number(id)]);
    return rows.length ? send(res, 200, body(rows[0])) : send(res, 404, { error: 'Not Found' });
  }
  if (req.method === 'GET' && url.pathname === '/pets') {
    const filters = filtersOf(url.searchParams);
    const values = filters.map((field) =>
      field === 'shelter_id' ? Number(url.searchParams.get(field)) : url.searchParams.get(field),
    );
    const { rows } = await run(`pets-by-${filters.join('-')}`, listStatement(filters), values);
    return send(res, 200, rows.map(body));
  }
  if (req.method === 'GET' && url.pathname === '/shelters') {
    return send(res, 200, (await run('shelters', SHELTERS)).rows);
  }
  if (req.method === 'POST' && url.pathname === '/pets') {
    const pet = await readBody(req);
    const { rows } = await run('insert-pet', INSERT_PET, [
      pet.name,
      pet.species,
      pet.breed,
      pet.breed.toLowerCase(),
      pet.age_months,
      pet.gender,
      pet.size,
      pet.temperament,
      pet.medical.spayed_neutered,
      JSON.stringify(pet.medical.vaccinations),
      pet.description,
      pet.shelter_id,
      pet.status,
      pet.intake_date,
    ]);
    return send(res, 201, body(rows[0]));
  }
  if (req.method === 'PATCH' && id) {
    const change = await readBody(req);
    const { rows } = await run('patch-age', PATCH_AGE, [change.age_months, Number(id)]);
    return rows.length ? send(res, 200, body(rows[0])) : send(res, 404, { error: 'Not Found' });
  }
  return send(res, 404, { error: 'Not Found' });
}

createServer((req, res) => {
  handle(req, res).catch((error) => {
    process.stderr.write(`${error.stack ?? error}\n`);
    if (!res.headersSent) {
      send(res, 500, { error: 'Internal Server Error' });
    }
  });
}).listen(Number(port), '127.0.0.1', () => process.stdout.write('postgres baseline listening\n'));
