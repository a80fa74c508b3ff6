import { type MigrationInterface, type QueryRunner, Table, TableForeignKey, TableIndex } from 'typeorm';

/** Shelters, pets and API tokens. Written with TypeORM's schema API so it runs on SQLite and PostgreSQL. */
export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const timestamp = queryRunner.connection.driver.options.type === 'postgres' ? 'timestamptz' : 'datetime';
    const id = {
      name: 'id',
      type: 'integer',
      isPrimary: true,
      isGenerated: true,
      generationStrategy: 'increment' as const,
    };
    const text = (name: string) => ({ name, type: 'text' });
    const integer = (name: string) => ({ name, type: 'integer' });

    await queryRunner.createTable(
      new Table({
        name: 'shelters',
        columns: [
          id,
          text('name'),
          text('address'),
          text('phone'),
          text('email'),
          text('hours'),
          integer('available_pet_count'),
          text('adoption_fee_range'),
          integer('version'),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'pets',
        columns: [
          id,
          text('name'),
          text('species'),
          text('breed'),
          text('breed_key'),
          integer('age_months'),
          text('gender'),
          text('size'),
          text('temperament'),
          { name: 'medical_spayed_neutered', type: 'boolean' },
          { name: 'medical_vaccinations', type: 'jsonb' },
          text('description'),
          integer('shelter_id'),
          text('status'),
          { name: 'intake_date', type: 'date' },
          integer('version'),
        ],
        foreignKeys: [
          new TableForeignKey({
            name: 'fk_pets_shelter_id',
            columnNames: ['shelter_id'],
            referencedTableName: 'shelters',
            referencedColumnNames: ['id'],
            onDelete: 'RESTRICT',
            onUpdate: 'NO ACTION',
          }),
        ],
        indices: [
          new TableIndex({ name: 'idx_pets_shelter_id', columnNames: ['shelter_id'] }),
          new TableIndex({ name: 'idx_pets_species_status', columnNames: ['species', 'status'] }),
          new TableIndex({ name: 'idx_pets_breed_key', columnNames: ['breed_key'] }),
        ],
      }),
    );

    await queryRunner.createTable(
      new Table({
        name: 'api_tokens',
        columns: [
          id,
          text('name'),
          text('token_hash'),
          text('tier'),
          { name: 'created_at', type: timestamp, default: 'CURRENT_TIMESTAMP' },
          { name: 'expires_at', type: timestamp },
          { name: 'revoked_at', type: timestamp, isNullable: true },
        ],
        indices: [new TableIndex({ name: 'idx_api_tokens_token_hash', columnNames: ['token_hash'], isUnique: true })],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('api_tokens');
    await queryRunner.dropTable('pets');
    await queryRunner.dropTable('shelters');
  }
}
