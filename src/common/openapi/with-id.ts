/** The response type of a resource: its create DTO's fields in order, then the `id` the service assigned. */
import type { Type } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

export function WithId<T>(dto: Type<T>, description = 'Assigned by the service; never changes.') {
  class Response extends (dto as Type<object>) {
    @ApiProperty({ type: 'integer', minimum: 1, description })
    id!: number;
  }
  return Response as Type<T & { id: number }>;
}
