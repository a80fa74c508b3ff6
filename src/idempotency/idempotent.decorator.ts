/**
 * `@Idempotent()` on a `@Created` route: a request with an `Idempotency-Key` header runs once.
 * A repeat of the same key, by the same caller (the same token, however `Authorization`
 * spells the scheme and spaces), with the same body within 24 hours gets the stored answer
 * (same status, body and id) with `Idempotent-Replayed: true` and creates nothing; the same
 * key with another body is 422, and a repeat while the first still runs is 409. Requests
 * without the header are not affected.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

import {
  applyDecorators,
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  UseInterceptors,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiHeader } from '@nestjs/swagger';
import { catchError, from, map, mergeMap, type Observable, of, throwError } from 'rxjs';

import { AuthService } from '../auth/auth.service.js';
import type { Principal } from '../auth/principal.js';
import { ValidationException } from '../common/errors/api.exception.js';
import { Messages, Rules } from '../common/errors/messages.js';
import { exposeToCors } from '../common/http/cors.js';
import { locationOf } from '../common/http/created.decorator.js';
import { etagOf, type Versioned } from '../common/resources/versioning.js';
import { ApiError } from '../common/openapi/api-error.decorator.js';
import { IdempotencyService, type KeyOfRequest } from './idempotency.service.js';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
const REPLAYED_HEADER = 'Idempotent-Replayed';

/** The header of a replayed create, for the OpenAPI document. */
export const REPLAY_HEADERS = {
  [REPLAYED_HEADER]: {
    description: '`true` when the answer is the stored one of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};
const KEY_HEADER_NAME = IDEMPOTENCY_KEY_HEADER.toLowerCase();
const MAX_KEY_LENGTH = 255;
const VISIBLE = /^[\x21-\x7e]+$/;
/** Bodies nested deeper than this are not fingerprinted (see keyOfRequest). */
const MAX_BODY_DEPTH = 32;

type Request = IncomingMessage & { raw?: IncomingMessage; body?: unknown };

@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const reply = http.getResponse<ServerResponse & { raw?: ServerResponse }>();
    const res = reply.raw ?? reply;
    if (headerOf(req) === undefined) {
      return next.handle();
    }
    // The caller as the guards resolved it (once per request), not the header's text.
    return from(this.auth.principalOf(req)).pipe(
      mergeMap((principal) => {
        const key = keyOfRequest(req, scopeOf(principal));
        return key === undefined ? next.handle() : this.once(key, context, res, next);
      }),
    );
  }

  /** Runs the create once for this key, or answers what the first run answered. */
  private once(key: KeyOfRequest, context: ExecutionContext, res: ServerResponse, next: CallHandler) {
    return from(this.idempotency.reserve(key)).pipe(
      mergeMap((stored) => {
        if (stored !== undefined) {
          res.statusCode = stored.status;
          for (const [name, value] of Object.entries(stored.headers)) {
            res.setHeader(name, value);
          }
          res.setHeader(REPLAYED_HEADER, 'true');
          exposeToCors(res, [REPLAYED_HEADER]);
          return of(stored.body);
        }
        return next.handle().pipe(
          mergeMap((resource: Versioned) => from(this.record(key, context, resource)).pipe(map(() => resource))),
          catchError((error: unknown) =>
            from(this.idempotency.release(key)).pipe(mergeMap(() => throwError(() => error))),
          ),
        );
      }),
    );
  }

  /** Stores the answer as the client receives it: the resource's body, its Location and its ETag. */
  private record(key: KeyOfRequest, context: ExecutionContext, resource: Versioned): Promise<void> {
    return this.idempotency.answer(key, {
      status: 201,
      body: JSON.parse(JSON.stringify(resource)) as unknown,
      headers: { Location: locationOf(this.reflector, context, resource), ETag: etagOf(resource) },
    });
  }
}

function headerOf(req: Request): string | string[] | undefined {
  return (req.raw ?? req).headers[KEY_HEADER_NAME];
}

/**
 * Whose keys these are: the token, by its hash (however the `Authorization` header spells the
 * scheme and spaces), or the anonymous caller.
 */
function scopeOf(principal: Principal): string {
  return principal.tokenHash === undefined ? 'anonymous' : `token:${principal.tokenHash}`;
}

/** The key, its owner and the request's fingerprint; `undefined` when there is none to keep; 400 for a malformed key. */
function keyOfRequest(req: Request, scope: string): KeyOfRequest | undefined {
  const raw = req.raw ?? req;
  const key = headerOf(req);
  if (key === undefined) {
    return undefined;
  }
  if (typeof key !== 'string' || key.length > MAX_KEY_LENGTH || !VISIBLE.test(key)) {
    throw new ValidationException([
      {
        field: IDEMPOTENCY_KEY_HEADER,
        message: Messages.invalidValue(IDEMPOTENCY_KEY_HEADER, Rules.visibleText(MAX_KEY_LENGTH)),
      },
    ]);
  }
  if (!nestsWithin(req.body, MAX_BODY_DEPTH)) {
    // No create body nests this deep: validation refuses it, and nothing is created to remember.
    return undefined;
  }
  const path = raw.url?.split('?')[0] ?? '';
  return {
    scope,
    key,
    requestHash: sha256(`${raw.method} ${path}\n${canonicalJson(req.body)}`),
  };
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Whether a JSON value nests at most `levels` arrays and objects deep (the check recurses no deeper). */
function nestsWithin(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) {
    return true;
  }
  if (levels === 0) {
    return false;
  }
  for (const inner of Object.values(value)) {
    if (!nestsWithin(inner, levels - 1)) {
      return false;
    }
  }
  return true;
}

/**
 * JSON with object keys in sorted order, so that bodies equal as JSON hash alike. Only for
 * values within MAX_BODY_DEPTH: JSON.stringify with a replacer recurses once per level and
 * exhausts the stack a few thousand levels down.
 */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

export const Idempotent = () =>
  applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: IDEMPOTENCY_KEY_HEADER,
      required: false,
      description:
        'Makes the create safe to retry: a repeat with the same key, token and body within 24 hours ' +
        'answers the stored response with `Idempotent-Replayed: true` and creates nothing. 1 to 255 visible characters.',
      schema: { type: 'string', minLength: 1, maxLength: MAX_KEY_LENGTH, pattern: VISIBLE.source },
    }),
    ApiError(409, Messages.idempotencyInProgress()),
    ApiError(422, Messages.idempotencyKeyReused()),
  );
