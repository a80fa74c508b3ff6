import { type MigrationInterface, type QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/**
 * Indexes for the list filters and sort orders, pets' status history (filled with each
 * pet's current status), and the stored answers of idempotent creates.
 */
export class ListsHistoryIdempotency1763900000000 implements MigrationInterface {
  name = 'ListsHistoryIdempotency1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    const timestamp = postgres ? 'timestamptz' : 'datetime';

    for (const column of ['age_months', 'intake_date', 'name']) {
      await queryRunner.createIndex('pets', new TableIndex({ name: `idx_pets_${column}`, columnNames: [column] }));
    }
    await queryRunner.createIndex('shelters', new TableIndex({ name: 'idx_shelters_name', columnNames: ['name'] }));
    if (postgres) {
      // Names sort by code point on both databases (COLLATE "C"); substring search uses trigrams.
      await queryRunner.query('DROP INDEX idx_pets_name');
      await queryRunner.query('CREATE INDEX idx_pets_name ON pets (name COLLATE "C")');
      await queryRunner.query('DROP INDEX idx_shelters_name');
      await queryRunner.query('CREATE INDEX idx_shelters_name ON shelters (name COLLATE "C")');
      await queryRunner.query('CREATE EXTENSION IF NOT EXISTS pg_trgm');
      await queryRunner.query('CREATE INDEX idx_pets_temperament_trgm ON pets USING gin (temperament gin_trgm_ops)');
      // `q`: one expression over the four searched columns, as PetsService's search writes it.
      await queryRunner.query(
        "CREATE INDEX idx_pets_search_trgm ON pets USING gin ((name || ' ' || breed || ' ' || temperament || ' ' || description) gin_trgm_ops)",
      );
    }

    await queryRunner.createTable(
      new Table({
        name: 'pet_status_history',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'pet_id', type: 'integer' },
          { name: 'status', type: 'text' },
          { name: 'changed_at', type: timestamp },
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_pet_status_history_pet_id',
            columnNames: ['pet_id'],
            referencedTableName: 'pets',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          }),
        ],
        indices: [new TableIndex({ name: 'idx_pet_status_history_pet_id', columnNames: ['pet_id', 'id'] })],
      }),
    );
    await queryRunner.query(
      'INSERT INTO pet_status_history (pet_id, status, changed_at) SELECT id, status, CURRENT_TIMESTAMP FROM pets ORDER BY id',
    );

    await queryRunner.createTable(
      new Table({
        name: 'idempotency_keys',
        columns: [
          { name: 'scope', type: 'text', isPrimary: true },
          { name: 'key', type: 'text', isPrimary: true },
          { name: 'request_hash', type: 'text' },
          { name: 'status', type: 'integer', isNullable: true },
          { name: 'response', type: 'text', isNullable: true },
          { name: 'created_at', type: timestamp },
        ],
        indices: [new TableIndex({ name: 'idx_idempotency_keys_created_at', columnNames: ['created_at'] })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('idempotency_keys');
    await queryRunner.dropTable('pet_status_history');
    if (queryRunner.connection.driver.options.type === 'postgres') {
      await queryRunner.query('DROP INDEX idx_pets_search_trgm');
      await queryRunner.query('DROP INDEX idx_pets_temperament_trgm');
    }
    await queryRunner.dropIndex('shelters', 'idx_shelters_name');
    for (const column of ['age_months', 'intake_date', 'name']) {
      await queryRunner.dropIndex('pets', `idx_pets_${column}`);
    }
  }
}
