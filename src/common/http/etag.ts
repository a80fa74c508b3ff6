/**
 * Strong ETags from a row's version column (API.md §9): `"<id>.<version>"`. Every write bumps
 * the version, so the tag changes with the representation, and a conditional write can be
 * checked by the database itself (`UPDATE … WHERE version = ?`).
 */
import type { IncomingMessage } from 'node:http';

import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';

import { type ApiException, PreconditionFailedException, ResourceNotFoundException } from '../errors/api.exception.js';
import type { ResourceName } from '../errors/messages.js';

export interface Versioned {
  id: number;
  version: number;
}

export function etagOf(resource: Versioned): string {
  return `"${resource.id}.${resource.version}"`;
}

export function isVersioned(value: unknown): value is Versioned {
  return typeof (value as Versioned | null)?.id === 'number' && typeof (value as Versioned).version === 'number';
}

/** True when an `If-Match` / `If-None-Match` list names this tag (or is `*`). Weak tags never match. */
export function listMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) {
    return false;
  }
  return header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag === etag;
  });
}

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

/** 412 unless the `If-Match` header (when sent) names the resource's current tag. */
export function assertIfMatch(resource: Versioned, ifMatch: string | undefined, name: ResourceName): void {
  if (ifMatch !== undefined && !listMatches(ifMatch, etagOf(resource))) {
    throw new PreconditionFailedException(name);
  }
}

/**
 * The WHERE of a write: with `If-Match`, also the version that was checked, so that the check
 * and the write are one atomic step (0 rows affected means another write came first).
 */
export function conditionOn(resource: Versioned, ifMatch: string | undefined): Partial<Versioned> {
  return ifMatch === undefined ? { id: resource.id } : { id: resource.id, version: resource.version };
}

/**
 * The answer when a write guarded by `conditionOn` touched no row: with `If-Match`, another
 * write came first (412); without it, another request deleted the resource meanwhile (404).
 */
export function missedWrite(name: ResourceName, id: string, ifMatch: string | undefined): ApiException {
  return ifMatch === undefined ? new ResourceNotFoundException(name, id) : new PreconditionFailedException(name);
}
