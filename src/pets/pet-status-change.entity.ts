import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** One entry of a pet's status history: its status from `changed_at` on. */
@Entity({ name: 'pet_status_history' })
@Index('idx_pet_status_history_pet_id', ['pet_id', 'id'])
export class PetStatusChange {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'integer' })
  pet_id!: number;

  @Column({ type: 'text' })
  status!: string;

  @Column({ type: Date })
  changed_at!: Date;

  toJSON(): { status: string; changed_at: string } {
    return { status: this.status, changed_at: this.changed_at.toISOString() };
  }
}
