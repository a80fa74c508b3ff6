/**
 * The bench's raw data access: prepared better-sqlite3 statements on the service's own
 * schema. Shared by the raw baseline (bench/baseline.mjs) and the framework floor
 * (bench/framework-floor.mjs).
 */
import Database from 'better-sqlite3';

const PET_COLUMNS = `name, species, breed, age_months, gender, size, temperament, medical_spayed_neutered,
  medical_vaccinations, description, shelter_id, status, intake_date, id`;

/** The list filters the bench's scenarios use, each an equality on its column. */
export const PET_FILTERS = ['species', 'status', 'size', 'shelter_id'];

/** The filters of a query string the raw servers understand, in PET_FILTERS order. */
export function filtersOf(searchParams) {
  return PET_FILTERS.filter((field) => searchParams.has(field));
}

export function openRaw(file) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  // One prepared statement per combination of filters, made on first use.
  const lists = new Map();
  const insertPet =
    db.prepare(`INSERT INTO pets (name, species, breed, breed_key, age_months, gender, size, temperament,
      medical_spayed_neutered, medical_vaccinations, description, shelter_id, status, intake_date, version)
      VALUES (@name, @species, @breed, @breed_key, @age_months, @gender, @size, @temperament, @spayed, @vaccinations,
      @description, @shelter_id, @status, @intake_date, 1)`);
  // Creating a pet through the API also records its first status.
  const insertStatus = db.prepare(
    `INSERT INTO pet_status_history (pet_id, status, changed_at) VALUES (?, ?, strftime('%Y-%m-%d %H:%M:%f', 'now'))`,
  );
  return {
    db,
    petById: db.prepare(`SELECT ${PET_COLUMNS} FROM pets WHERE id = ?`),
    /** The pets whose columns equal the given filters' values, by id. */
    petsWhere(filters, values) {
      const key = filters.join(',');
      let statement = lists.get(key);
      if (!statement) {
        const where = filters.length ? `WHERE ${filters.map((field) => `${field} = ?`).join(' AND ')}` : '';
        statement = db.prepare(`SELECT ${PET_COLUMNS} FROM pets ${where} ORDER BY id`);
        lists.set(key, statement);
      }
      return statement.all(...values);
    },
    shelters: db.prepare(
      'SELECT name, address, phone, email, hours, available_pet_count, adoption_fee_range, id FROM shelters ORDER BY id',
    ),
    /** Inserts a pet and its first status in one transaction; answers the new id. */
    insertPet: db.transaction((columns) => {
      const { lastInsertRowid } = insertPet.run(columns);
      insertStatus.run(lastInsertRowid, columns.status);
      return lastInsertRowid;
    }),
    patchAge: db.prepare('UPDATE pets SET age_months = ?, version = version + 1 WHERE id = ?'),
  };
}

export { petBody } from './raw-answers.mjs';
