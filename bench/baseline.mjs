/**
 * The raw baseline of `npm run bench`: node:http and prepared better-sqlite3 statements on
 * the service's own schema, answering the benchmarked routes with the same JSON. No
 * framework, no validation beyond what the queries need: the ceiling for this machine.
 *
 *   node bench/baseline.mjs <sqlite file> <port>
 */
import { createServer } from 'node:http';

import Database from 'better-sqlite3';

const [file, port] = process.argv.slice(2);
const db = new Database(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('foreign_keys = ON');

const PET_COLUMNS = `name, species, breed, age_months, gender, size, temperament, medical_spayed_neutered,
  medical_vaccinations, description, shelter_id, status, intake_date, id`;
const petById = db.prepare(`SELECT ${PET_COLUMNS} FROM pets WHERE id = ?`);
const petsBySpeciesStatus = db.prepare(`SELECT ${PET_COLUMNS} FROM pets WHERE species = ? AND status = ? ORDER BY id`);
const shelters = db.prepare(
  'SELECT name, address, phone, email, hours, available_pet_count, adoption_fee_range, id FROM shelters ORDER BY id',
);
const insertPet = db.prepare(`INSERT INTO pets (name, species, breed, breed_key, age_months, gender, size, temperament,
  medical_spayed_neutered, medical_vaccinations, description, shelter_id, status, intake_date, version)
  VALUES (@name, @species, @breed, @breed_key, @age_months, @gender, @size, @temperament, @spayed, @vaccinations,
  @description, @shelter_id, @status, @intake_date, 1)`);
const patchAge = db.prepare('UPDATE pets SET age_months = ?, version = version + 1 WHERE id = ?');

function body(row) {
  return {
    name: row.name,
    species: row.species,
    breed: row.breed,
    age_months: row.age_months,
    gender: row.gender,
    size: row.size,
    temperament: row.temperament,
    medical: { spayed_neutered: row.medical_spayed_neutered === 1, vaccinations: JSON.parse(row.medical_vaccinations) },
    description: row.description,
    shelter_id: row.shelter_id,
    status: row.status,
    intake_date: row.intake_date,
    id: row.id,
  };
}

function send(res, status, value) {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

function readBody(req) {
  return new Promise((resolve) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => resolve(JSON.parse(text)));
  });
}

createServer(async (req, res) => {
  const url = new URL(req.url, 'http://baseline');
  const id = /^\/pets\/(\d+)$/.exec(url.pathname)?.[1];
  if (req.method === 'GET' && id) {
    const row = petById.get(Number(id));
    return row ? send(res, 200, body(row)) : send(res, 404, { error: 'Not Found' });
  }
  if (req.method === 'GET' && url.pathname === '/pets') {
    const rows = petsBySpeciesStatus.all(url.searchParams.get('species'), url.searchParams.get('status'));
    return send(res, 200, rows.map(body));
  }
  if (req.method === 'GET' && url.pathname === '/shelters') {
    return send(res, 200, shelters.all());
  }
  if (req.method === 'POST' && url.pathname === '/pets') {
    const pet = await readBody(req);
    const { lastInsertRowid } = insertPet.run({
      ...pet,
      breed_key: pet.breed.toLowerCase(),
      spayed: pet.medical.spayed_neutered ? 1 : 0,
      vaccinations: JSON.stringify(pet.medical.vaccinations),
    });
    return send(res, 201, body(petById.get(lastInsertRowid)));
  }
  if (req.method === 'PATCH' && id) {
    const change = await readBody(req);
    patchAge.run(change.age_months, Number(id));
    return send(res, 200, body(petById.get(Number(id))));
  }
  return send(res, 404, { error: 'Not Found' });
}).listen(Number(port), '127.0.0.1', () => process.stdout.write('baseline listening\n'));
