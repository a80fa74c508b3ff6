import { Column, Entity, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';

import { RefersTo } from '../common/resources/references.js';

/** A receiver of events. Its `secret` signs every delivery and is shown only when made. */
@Entity({ name: 'webhooks' })
export class Webhook {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'text' })
  url!: string;

  /** Event types, or `["*"]` for all. */
  @Column({ type: 'simple-json' })
  events!: string[];

  /** Only this shelter's events (the shelter, its pets, their interests); null for all. */
  @Column({ type: 'integer', nullable: true })
  @RefersTo('shelter', { one: 'webhook', many: 'webhooks', deletedWithParent: true })
  shelter_id!: number | null;

  @Column({ type: 'text' })
  description!: string;

  @Column({ type: 'text' })
  secret!: string;

  @Column({ type: 'boolean' })
  enabled!: boolean;

  /** Why the service disabled it (deliveries failing for three days), or null. */
  @Column({ type: 'text', nullable: true })
  disabled_reason!: string | null;

  /** When its deliveries started failing without a success since, or null. */
  @Column({ type: Date, nullable: true })
  failing_since!: Date | null;

  @Column({ type: Date })
  created_at!: Date;

  @VersionColumn({ type: 'integer' })
  version!: number;

  /** Whether it takes an event of this type about this shelter. */
  wants(type: string, shelterId: number | null): boolean {
    const typed = type === 'webhook.test' || this.events.includes('*') || this.events.includes(type);
    return this.enabled && typed && (this.shelter_id === null || this.shelter_id === shelterId);
  }

  toJSON() {
    const { url, events, shelter_id, description, enabled, disabled_reason, created_at, id } = this;
    return { url, events, shelter_id, description, enabled, disabled_reason, created_at: created_at.toISOString(), id };
  }
}
