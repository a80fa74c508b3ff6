import { Rules } from '../../common/errors/messages.js';
import { IsEmailAddress, IsIntegerIn, IsPhone, IsText, Satisfies } from '../../common/validation/rules.js';
import { FEE_RANGE_PATTERN, judgeFeeRange, MAX_FEE } from '../fee-range.js';

/** The body of POST and PUT /shelters: every field, in the contract's order. */
export class CreateShelterDto {
  @IsText(100)
  name!: string;

  @IsText(300)
  address!: string;

  @IsPhone()
  phone!: string;

  @IsEmailAddress()
  email!: string;

  @IsText(200)
  hours!: string;

  @IsIntegerIn(0, 100_000)
  available_pet_count!: number;

  @Satisfies(
    'isFeeRange',
    (value) => judgeFeeRange(value) === 'valid',
    (value) => (judgeFeeRange(value) === 'other-currency' ? Rules.usd() : Rules.feeRange()),
    {
      type: 'string',
      pattern: FEE_RANGE_PATTERN,
      description:
        `${Rules.feeRange()} Each amount is digits with optional cents, optionally after \`$\`; ` +
        `spaces may surround the dash; \`USD\` may stand before or after; low ≤ high ≤ ${MAX_FEE}.`,
      example: '75-200',
    },
  )
  adoption_fee_range!: string;
}
