import { ApiProperty } from '@nestjs/swagger';

import {
  IsEmailAddress,
  IsOneOf,
  IsOptionalText,
  IsPhone,
  IsText,
  MayBeOmitted,
} from '../../common/validation/rules.js';
import { INTEREST_STATUSES } from '../interest.entity.js';

/** The body of POST /pets/{id}/interest: who is interested, and how to reach them. */
export class CreateInterestDto {
  @IsText(100)
  name!: string;

  @IsEmailAddress()
  email!: string;

  /** Optional; `""` when left out. */
  @MayBeOmitted()
  @IsPhone()
  phone?: string;

  /** Optional; `""` when left out. */
  @MayBeOmitted()
  @IsOptionalText(2000)
  message?: string;
}

/** The body of PATCH /interests/{id}: the status only. */
export class UpdateInterestDto {
  @IsOneOf(INTEREST_STATUSES)
  status!: string;
}

/** An interest as the API returns it. */
export class InterestResponse {
  @ApiProperty({ type: 'integer', minimum: 1 })
  pet_id!: number;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'The shelter the pet was in when the interest came.' })
  shelter_id!: number;

  @ApiProperty({ type: 'string', maxLength: 100 })
  name!: string;

  @ApiProperty({ type: 'string' })
  email!: string;

  @ApiProperty({ type: 'string', description: '`""` when none was given.' })
  phone!: string;

  @ApiProperty({ type: 'string', maxLength: 2000, description: '`""` when none was given.' })
  message!: string;

  @ApiProperty({ enum: INTEREST_STATUSES, description: '`new` when it comes.' })
  status!: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at!: string;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Assigned by the service; never changes.' })
  id!: number;
}
