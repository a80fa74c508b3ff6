/**
 * Versions of stored rows and what follows from them: the strong ETag `"<id>.<version>"`
 * (every write bumps the version, so the tag changes with the representation), the `If-Match`
 * check done by the write itself (`UPDATE … WHERE version = ?`), and which stored ids can exist.
 */
import { type ApiException, PreconditionFailedException, ResourceNotFoundException } from '../errors/api.exception.js';
import type { ResourceName } from '../errors/messages.js';

/** Ids beyond the databases' 32-bit integer columns cannot exist; they are looked up as "not found". */
export const MAX_STORED_ID = 2_147_483_647;

/** The numeric id to look up, or undefined when no stored row can have it. */
export function storedId(id: string | number): number | undefined {
  const value = Number(id);
  return Number.isSafeInteger(value) && value >= 1 && value <= MAX_STORED_ID ? value : undefined;
}

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
