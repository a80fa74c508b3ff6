import { ApiProperty } from '@nestjs/swagger';

import { CreateShelterDto } from './create-shelter.dto.js';

/** A shelter as the API returns it: the body's fields in order, then `id`. */
export class ShelterResponse extends CreateShelterDto {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Assigned by the service; never changes.' })
  id!: number;
}
