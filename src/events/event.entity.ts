import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One event of the outbox, written in the same transaction as the change that causes it.
 * `payload` is the Standard Webhooks body: `{ "type", "timestamp", "data" }`.
 */
@Entity({ name: 'events' })
export class OutboxEvent {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'text' })
  type!: string;

  /** The shelter the event concerns (a shelter, its pets, their interests), for webhooks of one shelter. */
  @Column({ type: 'integer', nullable: true })
  shelter_id!: number | null;

  @Column({ type: 'text' })
  payload!: string;

  @Column({ type: Date })
  created_at!: Date;

  /** When it was published to the message broker; null while it waits (only with EVENTS_AMQP_URL). */
  @Column({ type: Date, nullable: true })
  published_at!: Date | null;
}
