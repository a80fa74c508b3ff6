import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A create sent with an `Idempotency-Key`: who sent it (a hash of the token), a hash of the
 * request, and, once it has succeeded, its answer. `status` is null while it runs.
 */
@Entity({ name: 'idempotency_keys' })
@Index('idx_idempotency_keys_created_at', ['created_at'])
export class IdempotencyKey {
  @PrimaryColumn({ type: 'text' })
  scope!: string;

  @PrimaryColumn({ type: 'text' })
  key!: string;

  @Column({ type: 'text' })
  request_hash!: string;

  @Column({ type: 'integer', nullable: true })
  status!: number | null;

  @Column({ type: 'text', nullable: true })
  response!: string | null;

  @Column({ type: Date })
  created_at!: Date;
}
