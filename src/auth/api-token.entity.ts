import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export const TIERS = ['free', 'standard', 'premium', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

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
}
