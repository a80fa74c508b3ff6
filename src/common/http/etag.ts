/**
 * `@IfMatch()`: the request's `If-Match` header for a handler (strong ETags and the check
 * itself are in resources/versioning.ts).
 */
import type { IncomingMessage } from 'node:http';

import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';

const ifMatchHeader = createParamDecorator((_: unknown, context: ExecutionContext): string | undefined => {
  const value = context.switchToHttp().getRequest<IncomingMessage>().headers['if-match'];
  return typeof value === 'string' ? value : undefined;
});

/**
 * The request's `If-Match` header, for services to check before they write. It also
 * documents the header (and so the operation's 412) in the OpenAPI document.
 */
export function IfMatch(): ParameterDecorator {
  return (target, key, index) => {
    ifMatchHeader()(target, key, index);
    ApiHeader({
      name: 'If-Match',
      required: false,
      description: 'Write only if the resource still has this ETag (or any, with `*`); otherwise 412.',
    })(target, key!, Object.getOwnPropertyDescriptor(target, key!)!);
  };
}
