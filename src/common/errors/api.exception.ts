/** The error every client mistake becomes: a status, one sentence and, for validation, its details. */
import { HttpException, HttpStatus } from '@nestjs/common';

import { Messages, type ResourceName } from './messages.js';

export interface ErrorDetail {
  field: string;
  message: string;
}

export class ApiException extends HttpException {
  constructor(
    status: HttpStatus,
    message: string,
    readonly details?: ErrorDetail[],
    readonly extra?: { retry_after?: number },
  ) {
    super(message, status);
  }
}

/** A validation failure: `message` repeats the first detail, as the contract asks. */
export class ValidationException extends ApiException {
  constructor(details: ErrorDetail[], message = details[0].message) {
    super(HttpStatus.BAD_REQUEST, message, details);
  }
}

export class BadRequestException extends ApiException {
  constructor(message: string) {
    super(HttpStatus.BAD_REQUEST, message);
  }
}

export class InvalidIdException extends ApiException {
  constructor(resource: ResourceName) {
    super(HttpStatus.BAD_REQUEST, Messages.invalidId(resource));
  }
}

export class ResourceNotFoundException extends ApiException {
  constructor(resource: ResourceName, id: string | number) {
    super(HttpStatus.NOT_FOUND, Messages.notFound(resource, String(id)));
  }
}

export class EndpointNotFoundException extends ApiException {
  constructor() {
    super(HttpStatus.NOT_FOUND, Messages.endpointNotFound());
  }
}

export class PreconditionFailedException extends ApiException {
  constructor(resource: ResourceName) {
    super(HttpStatus.PRECONDITION_FAILED, Messages.preconditionFailed(resource));
  }
}

export class UnauthorizedException extends ApiException {
  constructor() {
    super(HttpStatus.UNAUTHORIZED, Messages.tokenRequired());
  }
}

export class ForbiddenException extends ApiException {
  constructor() {
    super(HttpStatus.FORBIDDEN, Messages.tokenRejected());
  }
}

export class RateLimitExceededException extends ApiException {
  constructor(readonly retryAfter: number) {
    super(HttpStatus.TOO_MANY_REQUESTS, Messages.rateLimited(retryAfter), undefined, { retry_after: retryAfter });
  }
}

export class ServiceUnavailableException extends ApiException {
  /** With `retryAfter`, the answer says when to try again (`Retry-After`). */
  constructor(retryAfter?: number) {
    super(
      HttpStatus.SERVICE_UNAVAILABLE,
      Messages.unavailable(),
      undefined,
      retryAfter === undefined ? undefined : { retry_after: retryAfter },
    );
  }
}
