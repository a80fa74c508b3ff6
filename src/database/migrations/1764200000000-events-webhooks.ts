import { type MigrationInterface, type QueryRunner, Table } from 'typeorm';

/** The event outbox, webhooks and their deliveries (each delivery goes with its webhook and its event). */
export class EventsWebhooks1764200000000 implements MigrationInterface {
  name = 'EventsWebhooks1764200000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    const postgres = queryRunner.connection.driver.options.type === 'postgres';
    const timestamp = postgres ? 'timestamptz' : 'datetime';
    const id = {
      name: 'id',
      type: 'integer',
      isPrimary: true,
      isGenerated: true,
      generationStrategy: 'increment',
    } as const;
    await queryRunner.createTable(
      new Table({
        name: 'events',
        columns: [
          id,
          { name: 'type', type: 'text' },
          { name: 'shelter_id', type: 'integer', isNullable: true },
          { name: 'payload', type: 'text' },
          { name: 'created_at', type: timestamp },
          // When it was published to the message broker (EVENTS_AMQP_URL); null while it waits.
          { name: 'published_at', type: timestamp, isNullable: true },
        ],
        indices: [{ name: 'idx_events_unpublished', columnNames: ['published_at', 'id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhooks',
        columns: [
          id,
          { name: 'url', type: 'text' },
          { name: 'events', type: 'text' },
          { name: 'shelter_id', type: 'integer', isNullable: true },
          { name: 'description', type: 'text' },
          { name: 'secret', type: 'text' },
          { name: 'enabled', type: 'boolean' },
          { name: 'disabled_reason', type: 'text', isNullable: true },
          { name: 'failing_since', type: timestamp, isNullable: true },
          { name: 'created_at', type: timestamp },
          { name: 'version', type: 'integer' },
        ],
        foreignKeys: [
          {
            name: 'fk_webhooks_shelter_id',
            columnNames: ['shelter_id'],
            referencedTableName: 'shelters',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
        indices: [{ name: 'idx_webhooks_shelter_id', columnNames: ['shelter_id'] }],
      }),
    );
    await queryRunner.createTable(
      new Table({
        name: 'webhook_deliveries',
        columns: [
          id,
          { name: 'webhook_id', type: 'integer' },
          { name: 'event_id', type: 'integer' },
          { name: 'type', type: 'text' },
          { name: 'attempts', type: 'integer' },
          { name: 'last_status', type: 'integer', isNullable: true },
          { name: 'last_error', type: 'text', isNullable: true },
          { name: 'next_attempt_at', type: timestamp, isNullable: true },
          { name: 'delivered_at', type: timestamp, isNullable: true },
          { name: 'failed_at', type: timestamp, isNullable: true },
          { name: 'created_at', type: timestamp },
          { name: 'version', type: 'integer' },
        ],
        foreignKeys: [
          {
            name: 'fk_webhook_deliveries_webhook_id',
            columnNames: ['webhook_id'],
            referencedTableName: 'webhooks',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
          {
            name: 'fk_webhook_deliveries_event_id',
            columnNames: ['event_id'],
            referencedTableName: 'events',
            referencedColumnNames: ['id'],
            onDelete: 'CASCADE',
          },
        ],
        indices: [
          { name: 'idx_webhook_deliveries_due', columnNames: ['next_attempt_at'] },
          { name: 'idx_webhook_deliveries_webhook_id', columnNames: ['webhook_id', 'id'] },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('webhook_deliveries');
    await queryRunner.dropTable('webhooks');
    await queryRunner.dropTable('events');
  }
}
