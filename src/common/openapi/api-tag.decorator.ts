/**
 * `@ApiTag('pets', 'Pet profiles …', TagOrder.resource)`: the controller's tag, declared in
 * the OpenAPI document with its one-line description, in the place a reader looks for it.
 */
import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

/** Where a tag stands: the main resources first, then other modules, administration, and the probes last. */
export const TagOrder = { resource: 0, module: 1, administration: 2, probe: 3 } as const;

export interface TagDeclaration {
  name: string;
  description: string;
  order: number;
}

export const TAG_DECLARATION = 'openapi:tagDeclaration';

export const ApiTag = (name: string, description: string, order: number = TagOrder.module) =>
  applyDecorators(ApiTags(name), SetMetadata(TAG_DECLARATION, { name, description, order } satisfies TagDeclaration));
