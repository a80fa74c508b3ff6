/**
 * `@ResourceId('pet')` hands a handler its path id, or fails with the resource's
 * "Invalid … 'id'" 400. It runs while the route's arguments are extracted, so a bad id is
 * reported before anything about the body, as the contract's order of checks asks.
 */
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiExtension, ApiParam } from '@nestjs/swagger';

import { InvalidIdException } from '../errors/api.exception.js';
import type { ResourceName } from '../errors/messages.js';
import { idSchema, isIdText } from '../validation/rules.js';

const pathId = createParamDecorator(
  ({ resource, param }: { resource: ResourceName; param: string }, context: ExecutionContext): string => {
    const id = context.switchToHttp().getRequest<{ params: Record<string, string> }>().params[param];
    if (!isIdText(id)) {
      throw new InvalidIdException(resource);
    }
    return id;
  },
);

/**
 * The `{id}` path parameter of a resource (or another of its path, `{delivery_id}`); it also
 * describes the parameter to OpenAPI.
 */
export function ResourceId(resource: ResourceName, param = 'id'): ParameterDecorator {
  return (target, key, index) => {
    pathId({ resource, param })(target, key, index);
    const descriptor = Object.getOwnPropertyDescriptor(target, key!)!;
    const { description, ...schema } = idSchema(resource);
    ApiParam({ name: param, description, schema, example: 1 })(target, key!, descriptor);
    // Read by the OpenAPI builder to word the operation's 400 and 404 examples.
    ApiExtension(RESOURCE_EXTENSION, resource)(target, key, descriptor);
  };
}

export const RESOURCE_EXTENSION = 'x-resource';
