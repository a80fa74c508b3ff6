/**
 * The bench's raw data access: prepared better-sqlite3 statements on the service's own
 * schema, and the contract's JSON body of a pet row. Shared by the raw baseline
 * (bench/baseline.mjs) and the framework floor (bench/framework-floor.mjs).
 */
import Database from 'better-sqlite3';

const PET_COLUMNS = `name, species, breed, age_months, gender, size, temperament, medical_spayed_neutered,
  medical_vaccinations, description, shelter_id, status, intake_date, id`;

export function openRaw(file) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  return {
    db,
    petById: db.prepare(`SELECT ${PET_COLUMNS} FROM pets WHERE id = ?`),
    petsBySpeciesStatus: db.prepare(`SELECT ${PET_COLUMNS} FROM pets WHERE species = ? AND status = ? ORDER BY id`),
    shelters: db.prepare(
      'SELECT name, address, phone, email, hours, available_pet_count, adoption_fee_range, id FROM shelters ORDER BY id',
    ),
    insertPet: db.prepare(`INSERT INTO pets (name, species, breed, breed_key, age_months, gender, size, temperament,
      medical_spayed_neutered, medical_vaccinations, description, shelter_id, status, intake_date, version)
      VALUES (@name, @species, @breed, @breed_key, @age_months, @gender, @size, @temperament, @spayed, @vaccinations,
      @description, @shelter_id, @status, @intake_date, 1)`),
    patchAge: db.prepare('UPDATE pets SET age_months = ?, version = version + 1 WHERE id = ?'),
  };
}

export function petBody(row) {
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
