import type { MigrationInterface, QueryRunner } from 'typeorm';

import { pointOfAddress } from '../../common/geo/geo.js';

/**
 * Shelters' places for location searches: the centroid of the ZIP code in the address, in two
 * indexed columns (the box prefilter reads the index), filled in for the shelters already stored.
 */
export class ShelterLocation1764000000000 implements MigrationInterface {
  name = 'ShelterLocation1764000000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    await queryRunner.query('ALTER TABLE shelters ADD COLUMN latitude double precision');
    await queryRunner.query('ALTER TABLE shelters ADD COLUMN longitude double precision');
    await queryRunner.query('CREATE INDEX idx_shelters_location ON shelters (latitude, longitude)');

    const update = postgres
      ? 'UPDATE shelters SET latitude = $1, longitude = $2 WHERE id = $3'
      : 'UPDATE shelters SET latitude = ?, longitude = ? WHERE id = ?';
    const shelters = (await queryRunner.query('SELECT id, address FROM shelters')) as { id: number; address: string }[];
    for (const { id, address } of shelters) {
      const point = await pointOfAddress(address);
      if (point !== undefined) {
        await queryRunner.query(update, [point.latitude, point.longitude, id]);
      }
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX idx_shelters_location');
    await queryRunner.query('ALTER TABLE shelters DROP COLUMN longitude');
    await queryRunner.query('ALTER TABLE shelters DROP COLUMN latitude');
  }
}
