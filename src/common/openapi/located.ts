/** The item type of a list that can be searched by location: the response, plus `distance` in a location search. */
import type { Type } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';

export function Located<T>(response: Type<T>, name: string) {
  class Item extends (response as Type<object>) {
    @ApiPropertyOptional({
      type: 'number',
      minimum: 0,
      example: 3.1,
      description: 'Only in a location search (`location`): miles from the location, rounded to one decimal.',
    })
    distance?: number;
  }
  // The schema's name in the OpenAPI document.
  Object.defineProperty(Item, 'name', { value: name });
  return Item as Type<T & { distance?: number }>;
}
