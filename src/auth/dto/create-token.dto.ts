import { IsIntegerIn, IsOneOf, IsText, MayBeOmitted } from '../../common/validation/rules.js';
import { type Tier, TIERS } from '../api-token.entity.js';

export const DEFAULT_EXPIRY_DAYS = 90;
export const DEFAULT_TIER: Tier = 'standard';

/** The body of POST /auth/tokens. Defaults apply only when a field is absent; `null` is a wrong value. */
export class CreateTokenDto {
  @IsText(100)
  name!: string;

  @MayBeOmitted()
  @IsIntegerIn(1, 365)
  expires_in_days?: number;

  @MayBeOmitted()
  @IsOneOf(TIERS)
  tier?: Tier;
}
