import { IsBool, IsTextList } from '../../common/validation/rules.js';

export const MEDICAL_FIELDS = ['spayed_neutered', 'vaccinations'] as const;

export class MedicalDto {
  @IsBool()
  spayed_neutered!: boolean;

  @IsTextList(50, 100)
  vaccinations!: string[];
}
