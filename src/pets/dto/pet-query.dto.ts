import { LocatedQuery } from '../../common/resources/near.js';
import { IsCalendarDate, IsIdText, IsIntegerText, IsOneOrMoreOf, IsText } from '../../common/validation/rules.js';
import { GENDERS, SIZES, SPECIES, STATUSES } from '../pet.entity.js';

export const PET_SORT_FIELDS = ['id', 'name', 'age_months', 'intake_date'] as const;

/**
 * Filters of GET /pets, all optional and combined with AND; values arrive as text. The
 * four enumerated fields take one value or several separated by commas (any of them).
 * `location` and `distance` search by the pets' shelters' places.
 */
export class PetQueryDto extends LocatedQuery(PET_SORT_FIELDS) {
  @IsOneOrMoreOf(SPECIES)
  species?: string;

  @IsOneOrMoreOf(STATUSES)
  status?: string;

  @IsText(100)
  breed?: string;

  @IsOneOrMoreOf(SIZES)
  size?: string;

  @IsOneOrMoreOf(GENDERS)
  gender?: string;

  @IsIdText('shelter')
  shelter_id?: string;

  /** Contained in the temperament, ignoring case. */
  @IsText(100)
  temperament?: string;

  /** Contained in the name, breed, temperament or description, ignoring case. */
  @IsText(100)
  q?: string;

  @IsIntegerText(0, 600)
  age_months_min?: string;

  @IsIntegerText(0, 600)
  age_months_max?: string;

  @IsCalendarDate(null)
  intake_date_from?: string;

  @IsCalendarDate(null)
  intake_date_to?: string;
}
