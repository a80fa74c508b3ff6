import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';

/** Adopters' interests in pets: deleted with their pet, found by pet, shelter and email. */
export class Interests1764100000000 implements MigrationInterface {
  name = 'Interests1764100000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    await queryRunner.createTable(
      new Table({
        name: 'interests',
        columns: [
          { name: 'id', type: 'integer', isPrimary: true, isGenerated: true, generationStrategy: 'increment' },
          { name: 'pet_id', type: 'integer' },
          { name: 'shelter_id', type: 'integer' },
          { name: 'name', type: 'text' },
          { name: 'email', type: 'text' },
          { name: 'email_key', type: 'text' },
          { name: 'phone', type: 'text' },
          { name: 'message', type: 'text' },
          { name: 'status', type: 'text' },
          { name: 'created_at', type: postgres ? 'timestamptz' : 'datetime' },
          { name: 'version', type: 'integer' },
        ],
        foreignKeys: [
          {
            name: 'fk_interests_pet_id',
            columnNames: ['pet_id'],
            referencedTableName: 'pets',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            // A shelter can be deleted only once it has no pets: what is left are interests in
            // pets that have moved to another shelter since; they go with the shelter they came to.
            name: 'fk_interests_shelter_id',
            columnNames: ['shelter_id'],
            referencedTableName: 'shelters',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
        indices: [
          { name: 'idx_interests_pet_id', columnNames: ['pet_id', 'email_key'] },
          { name: 'idx_interests_shelter_id', columnNames: ['shelter_id'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('interests');
  }
}
