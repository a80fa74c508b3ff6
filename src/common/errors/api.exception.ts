/** The error every client mistake becomes: a status, one sentence and, for validation, its details. */
import { HttpException, HttpStatus } from '@nestjs/common';

import { Messages, type ResourceName } from './messages.js';

export interface ErrorDetail {
  field: string;
  message: string;
}

/** What an error answer carries beyond its body's status and message. */
export interface ErrorExtra {
  /** Seconds until a retry may succeed: `Retry-After`, and `retry_after` in a 429's body. */
  retry_after?: number;
  /** Headers of the answer, such as `WWW-Authenticate`. */
  headers?: Record<string, string>;
}

export class ApiException extends HttpException {
  constructor(
    status: HttpStatus,
    message: string,
    readonly details?: ErrorDetail[],
    readonly extra?: ErrorExtra,
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

/** The challenge of every 401: a bearer token is what the API takes (RFC 6750). */
export const BEARER_CHALLENGE = 'Bearer';

export class UnauthorizedException extends ApiException {
  constructor() {
    super(HttpStatus.UNAUTHORIZED, Messages.tokenRequired(), undefined, {
      headers: { 'WWW-Authenticate': BEARER_CHALLENGE },
    });
  }
}

/**
 * A token the service refuses (`invalid_token`: unknown, expired or revoked), or one that may
 * not do this (`insufficient_scope`: a token, not the admin key, on token management in
 * production; the admin key on anything else). The contract answers both 403; the challenge
 * tells them apart (RFC 6750 §3.1).
 */
export class ForbiddenException extends ApiException {
  constructor(reason: 'invalid_token' | 'insufficient_scope') {
    super(HttpStatus.FORBIDDEN, Messages.tokenRejected(), undefined, {
      headers: { 'WWW-Authenticate': `${BEARER_CHALLENGE} error="${reason}"` },
    });
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
