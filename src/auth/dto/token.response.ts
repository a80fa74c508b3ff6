import { ApiProperty, OmitType } from '@nestjs/swagger';

import { TIERS, type Tier } from '../api-token.entity.js';

/** An issued token's metadata, as listed and as returned on revocation. */
export class TokenResponse {
  @ApiProperty({ type: 'integer', minimum: 1 })
  id!: number;

  @ApiProperty({ type: 'string' })
  name!: string;

  @ApiProperty({ type: 'string', enum: TIERS })
  tier!: Tier;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at!: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  expires_at!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  revoked_at!: string | null;
}

/** The answer to POST /auth/tokens: the only time the token itself is shown. */
export class IssuedTokenResponse extends OmitType(TokenResponse, ['revoked_at'] as const) {
  @ApiProperty({
    type: 'string',
    description: 'The bearer token. Shown once; only its hash is stored.',
    example: 'adopt_…',
  })
  token!: string;
}
