/**
 * `@ApiError(409, Messages.stillReferenced(…))`: documents an operation's own error answer.
 * Several for one status (two different 409s, say) are all kept, as examples of that answer.
 */
import { STATUS_CODES } from 'node:http';

import { ApiResponse } from '@nestjs/swagger';

import { errorContent, errorExample } from './error-examples.js';

/** The messages documented so far, by status, on the operation (or controller). */
const API_ERRORS = 'adoption:apiErrors';

export const ApiError =
  (status: number, message: string): MethodDecorator & ClassDecorator =>
  (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    const holder = (descriptor?.value as object | undefined) ?? target;
    const known = (Reflect.getMetadata(API_ERRORS, holder) ?? {}) as Record<number, string[]>;
    const messages = [...(known[status] ?? []), message];
    Reflect.defineMetadata(API_ERRORS, { ...known, [status]: messages }, holder);
    // @nestjs/swagger replaces the content of a status documented again (and joins descriptions):
    // each time, the content holds every message so far, and the description is given once.
    ApiResponse({
      status,
      description: messages.length === 1 ? STATUS_CODES[status] : '',
      content: errorContent(messages.map((text) => errorExample(status, text))),
    })(target, key!, descriptor!);
  };
