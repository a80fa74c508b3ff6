import { Column, Entity, Index, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';

import { RefersTo } from '../common/resources/references.js';

export const INTEREST_STATUSES = ['new', 'contacted', 'approved', 'declined', 'withdrawn'] as const;
/** The statuses of an interest still being handled: a second one from the same email is refused meanwhile. */
export const OPEN_STATUSES = ['new', 'contacted'] as const;

/**
 * An adopter's interest in a pet. It goes with its pet (deleting the pet deletes it) and keeps
 * the shelter the pet was in when it came. It holds personal data: only token holders read it.
 */
@Entity({ name: 'interests' })
@Index('idx_interests_pet_id', ['pet_id', 'email_key'])
@Index('idx_interests_shelter_id', ['shelter_id'])
export class Interest {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'integer' })
  @RefersTo('pet', { one: 'interest', many: 'interests', deletedWithParent: true })
  pet_id!: number;

  @Column({ type: 'integer' })
  @RefersTo('shelter', { one: 'interest', many: 'interests', deletedWithParent: true })
  shelter_id!: number;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  email!: string;

  /** The email as compared for duplicates: lower case. */
  @Column({ type: 'text' })
  email_key!: string;

  @Column({ type: 'text' })
  phone!: string;

  @Column({ type: 'text' })
  message!: string;

  @Column({ type: 'text' })
  status!: string;

  @Column({ type: Date })
  created_at!: Date;

  @VersionColumn({ type: 'integer' })
  version!: number;

  toJSON() {
    const { pet_id, shelter_id, name, email, phone, message, status, created_at, id } = this;
    return { pet_id, shelter_id, name, email, phone, message, status, created_at: created_at.toISOString(), id };
  }
}
