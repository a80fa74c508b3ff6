/**
 * The raw baseline of `npm run bench`: node:http and prepared better-sqlite3 statements on
 * the service's own schema, answering the benchmarked routes with the same JSON. No
 * framework, no validation beyond what the queries need: the ceiling for this machine.
 *
 *   node bench/baseline.mjs <sqlite file> <port>
 */
import { createServer } from 'node:http';

import { petBody as body, readBody, send } from './raw-answers.mjs';
import { filtersOf, openRaw } from './raw-pets.mjs';

const [file, port] = process.argv.slice(2);
const { petById, petsWhere, shelters, insertPet, patchAge } = openRaw(file);

createServer(async (req, res) => {
  const url = new URL(req.url, 'http://baseline');
  const id = /^\/pets\/(\d+)$/.exec(url.pathname)?.[1];
  if (req.method === 'GET' && id) {
    const row = petById.get(Number(id));
    return row ? send(res, 200, body(row)) : send(res, 404, { error: 'Not Found' });
  }
  if (req.method === 'GET' && url.pathname === '/pets') {
    const filters = filtersOf(url.searchParams);
    const values = filters.map((field) =>
      field === 'shelter_id' ? Number(url.searchParams.get(field)) : url.searchParams.get(field),
    );
    return send(res, 200, petsWhere(filters, values).map(body));
  }
  if (req.method === 'GET' && url.pathname === '/shelters') {
    return send(res, 200, shelters.all());
  }
  if (req.method === 'POST' && url.pathname === '/pets') {
    const pet = await readBody(req);
    const id = insertPet({
      ...pet,
      breed_key: pet.breed.toLowerCase(),
      spayed: pet.medical.spayed_neutered ? 1 : 0,
      vaccinations: JSON.stringify(pet.medical.vaccinations),
    });
    return send(res, 201, body(petById.get(id)));
  }
  if (req.method === 'PATCH' && id) {
    const change = await readBody(req);
    patchAge.run(change.age_months, Number(id));
    return send(res, 200, body(petById.get(Number(id))));
  }
  return send(res, 404, { error: 'Not Found' });
}).listen(Number(port), '127.0.0.1', () => process.stdout.write('baseline listening\n'));
