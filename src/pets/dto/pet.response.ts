import { ApiProperty } from '@nestjs/swagger';

import { Located } from '../../common/openapi/located.js';
import { STATUSES } from '../pet.entity.js';
import { CreatePetDto } from './create-pet.dto.js';

/** A pet as the API returns it: the body's fields in order, then `id`. */
export class PetResponse extends CreatePetDto {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Assigned by the service; never changes.' })
  id!: number;
}

/** An item of the list: the pet, plus `distance` in a location search. */
export class PetListItem extends Located(PetResponse, 'PetListItem') {}

/** One entry of `GET /pets/{id}/history`. */
export class PetStatusChangeResponse {
  @ApiProperty({ enum: STATUSES, description: 'The status the pet had from `changed_at` on.' })
  status!: string;

  @ApiProperty({ type: 'string', format: 'date-time', example: '2026-01-01T10:00:00.000Z' })
  changed_at!: string;
}
