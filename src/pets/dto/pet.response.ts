import { ApiProperty } from '@nestjs/swagger';

import { CreatePetDto } from './create-pet.dto.js';

/** A pet as the API returns it: the body's fields in order, then `id`. */
export class PetResponse extends CreatePetDto {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Assigned by the service; never changes.' })
  id!: number;
}
