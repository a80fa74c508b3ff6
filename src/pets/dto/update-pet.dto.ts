import { PartialType } from '@nestjs/swagger';

import { CreatePetDto } from './create-pet.dto.js';

/**
 * The body of PATCH /pets/{id}: any non-empty subset; `null` is a wrong value, not an
 * omission. `medical` may hold either nested field alone: it is merged into the stored one.
 */
export class UpdatePetDto extends PartialType(CreatePetDto, { skipNullProperties: false }) {}
