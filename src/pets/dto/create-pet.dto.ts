import {
  IsCalendarDate,
  IsIntegerIn,
  IsNestedObject,
  IsOneOf,
  IsOptionalText,
  IsPositiveInteger,
  IsText,
} from '../../common/validation/rules.js';
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
import { MEDICAL_FIELDS, MedicalDto } from './medical.dto.js';

/** The body of POST and PUT /pets: every field, in the contract's order. */
export class CreatePetDto {
  @IsText(100)
  name!: string;

  @IsOneOf(SPECIES)
  species!: Species;

  @IsText(100)
  breed!: string;

  @IsIntegerIn(0, 600)
  age_months!: number;

  @IsOneOf(GENDERS)
  gender!: Gender;

  @IsOneOf(SIZES)
  size!: Size;

  @IsOptionalText(500)
  temperament!: string;

  @IsNestedObject(() => MedicalDto, MEDICAL_FIELDS)
  medical!: MedicalDto;

  @IsOptionalText(5000)
  description!: string;

  @IsPositiveInteger()
  shelter_id!: number;

  @IsOneOf(STATUSES)
  status!: PetStatus;

  @IsCalendarDate()
  intake_date!: string;
}
