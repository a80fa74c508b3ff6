import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

import { TIER_NAMES, type TierName } from '../config/app.config.js';

export const TIERS = TIER_NAMES;
export type Tier = TierName;

/**
 * An issued API token. Date columns take each database's own timestamp type.
 * Only a SHA-256 hash of the token is stored, never the token itself.
 */
@Entity({ name: 'api_tokens' })
export class ApiToken {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'text' })
  name!: string;

  @Index('idx_api_tokens_token_hash', { unique: true })
  @Column({ type: 'text' })
  token_hash!: string;

  @Column({ type: 'text' })
  tier!: Tier;

  @CreateDateColumn()
  created_at!: Date;

  @Column()
  expires_at!: Date;

  @Column({ type: Date, nullable: true })
  revoked_at!: Date | null;

  /** The metadata a client may see: never the hash. */
  toJSON() {
    return {
      id: this.id,
      name: this.name,
      tier: this.tier,
      created_at: this.created_at,
      expires_at: this.expires_at,
      revoked_at: this.revoked_at,
    };
  }
}
