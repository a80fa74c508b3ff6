/**
 * What the raw servers of the bench share: the contract's JSON body of a pet row (SQLite
 * gives the medical fields as 1/0 and JSON text, PostgreSQL as a boolean and an array), and
 * sending and reading JSON on node:http. Used by both raw baselines and the framework floor.
 */
export function petBody(row) {
  const spayed = row.medical_spayed_neutered;
  const vaccinations = row.medical_vaccinations;
  return {
    name: row.name,
    species: row.species,
    breed: row.breed,
    age_months: row.age_months,
    gender: row.gender,
    size: row.size,
    temperament: row.temperament,
    medical: {
      spayed_neutered: spayed === true || spayed === 1,
      vaccinations: typeof vaccinations === 'string' ? JSON.parse(vaccinations) : vaccinations,
    },
    description: row.description,
    shelter_id: row.shelter_id,
    status: row.status,
    intake_date: row.intake_date,
    id: row.id,
  };
}

export function send(res, status, value) {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

export function readBody(req) {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => {
      try {
        resolve(JSON.parse(text));
      } catch (error) {
        reject(error);
      }
    });
  });
}
