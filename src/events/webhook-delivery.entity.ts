import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';

import { RefersTo } from '../common/resources/references.js';

/** One event on its way to one webhook: its attempts so far and what the last one got. */
@Entity({ name: 'webhook_deliveries' })
@Index('idx_webhook_deliveries_due', ['next_attempt_at'])
export class WebhookDelivery {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'integer' })
  @RefersTo('webhook', { one: 'delivery', many: 'deliveries', deletedWithParent: true })
  webhook_id!: number;

  /** The event's id: the `webhook-id` header of every attempt. */
  @Column({ type: 'integer' })
  event_id!: number;

  @Column({ type: 'text' })
  type!: string;

  @Column({ type: 'integer' })
  attempts!: number;

  @Column({ type: 'integer', nullable: true })
  last_status!: number | null;

  @Column({ type: 'text', nullable: true })
  last_error!: string | null;

  /** When the next attempt is due; null once delivered or failed. */
  @Column({ type: Date, nullable: true })
  next_attempt_at!: Date | null;

  @Column({ type: Date, nullable: true })
  delivered_at!: Date | null;

  @Column({ type: Date, nullable: true })
  failed_at!: Date | null;

  @Column({ type: Date })
  created_at!: Date;

  @VersionColumn({ type: 'integer' })
  version!: number;

  toJSON() {
    const iso = (date: Date | null) => date?.toISOString() ?? null;
    return {
      webhook_id: this.webhook_id,
      event_id: `evt_${this.event_id}`,
      type: this.type,
      attempts: this.attempts,
      last_status: this.last_status,
      last_error: this.last_error,
      next_attempt_at: iso(this.next_attempt_at),
      delivered_at: iso(this.delivered_at),
      failed_at: iso(this.failed_at),
      created_at: iso(this.created_at),
      id: this.id,
    };
  }
}
