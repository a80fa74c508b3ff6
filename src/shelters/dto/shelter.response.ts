import { ApiProperty } from '@nestjs/swagger';

import { Located } from '../../common/openapi/located.js';
import { CreateShelterDto } from './create-shelter.dto.js';

/** A shelter as the API returns it: the body's fields in order, then `id`. */
export class ShelterResponse extends CreateShelterDto {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Assigned by the service; never changes.' })
  id!: number;
}

/** An item of the list: the shelter, plus `distance` in a location search. */
export class ShelterListItem extends Located(ShelterResponse, 'ShelterListItem') {}
