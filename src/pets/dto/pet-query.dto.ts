import { Messages } from '../../common/errors/messages.js';
import { IsIdText, IsOneOf, IsText } from '../../common/validation/rules.js';
import {
  GENDERS,
  type Gender,
  type PetStatus,
  SIZES,
  type Size,
  SPECIES,
  type Species,
  STATUSES,
} from '../pet.entity.js';

/** Filters of GET /pets, all optional and combined with AND; values arrive as text. */
export class PetQueryDto {
  @IsOneOf(SPECIES)
  species?: Species;

  @IsOneOf(STATUSES)
  status?: PetStatus;

  @IsText(100)
  breed?: string;

  @IsOneOf(SIZES)
  size?: Size;

  @IsOneOf(GENDERS)
  gender?: Gender;

  @IsIdText(Messages.invalidId('shelter'))
  shelter_id?: string;
}
