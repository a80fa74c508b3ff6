import { PartialType } from '@nestjs/swagger';

import { CreateShelterDto } from './create-shelter.dto.js';

/** The body of PATCH /shelters/{id}: any non-empty subset; `null` is a wrong value, not an omission. */
export class UpdateShelterDto extends PartialType(CreateShelterDto, { skipNullProperties: false }) {}
