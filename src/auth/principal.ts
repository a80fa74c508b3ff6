/** Who is calling: read once per request from the `Authorization` header and shared by the guards. */
import type { Tier } from './api-token.entity.js';

export type PrincipalStatus =
  /** No usable bearer token: the header is absent, empty, another scheme, or the token is empty. */
  | 'anonymous'
  /** A token the service accepts. */
  | 'accepted'
  /** A token the service refuses (expired, revoked, or unknown in production). */
  | 'rejected'
  /** The admin key: token management only (in production it writes nothing else). */
  | 'admin';

export interface Principal {
  status: PrincipalStatus;
  /** SHA-256 of the token, when there is one; the raw token is never kept. */
  tokenHash?: string;
  /** The rate-limit tier: an issued token's own, otherwise the anonymous tier. */
  tier: Tier | 'anonymous';
}

/** The token of an `Authorization: Bearer <token>` header (scheme in any case), or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^\s*bearer\s+(\S.*?)\s*$/i.exec(header ?? '');
  return match?.[1];
}
