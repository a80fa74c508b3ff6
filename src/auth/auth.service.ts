import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';

import { type AppConfig, appConfig } from '../config/app.config.js';
import { ApiToken } from './api-token.entity.js';
import { bearerToken, type Principal } from './principal.js';

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const ANONYMOUS: Principal = Object.freeze({ status: 'anonymous', tier: 'anonymous' });

@Injectable()
export class AuthService {
  private readonly principals = new WeakMap<IncomingMessage, Promise<Principal>>();

  constructor(
    @InjectRepository(ApiToken) private readonly tokens: Repository<ApiToken>,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
  ) {}

  /** The caller when it is known without a lookup (no token: anonymous); undefined when a token must be looked up. */
  principalNow(request: IncomingMessage & { raw?: IncomingMessage }): Principal | undefined {
    const req = request.raw ?? request;
    return bearerToken(req.headers.authorization) === undefined ? ANONYMOUS : undefined;
  }

  /** The caller of this request, resolved once however many guards ask. */
  principalOf(request: IncomingMessage & { raw?: IncomingMessage }): Promise<Principal> {
    // Keyed by Node's own request, which Fastify wraps and keeps as `raw`.
    const req = request.raw ?? request;
    let principal = this.principals.get(req);
    if (!principal) {
      principal = this.resolve(bearerToken(req.headers.authorization));
      this.principals.set(req, principal);
    }
    return principal;
  }

  private async resolve(token: string | undefined): Promise<Principal> {
    if (token === undefined) {
      return ANONYMOUS;
    }
    const tokenHash = hashToken(token);
    if (this.isAdminKey(token)) {
      return { status: 'admin', tokenHash, tier: 'enterprise' };
    }
    const issued = await this.tokens.findOneBy({ token_hash: tokenHash });
    const usable = issued !== null && issued.revoked_at === null && issued.expires_at.getTime() > Date.now();
    if (usable) {
      return { status: 'accepted', tokenHash, tier: issued.tier };
    }
    // Development accepts any token it did not issue; an issued one that expired or was revoked is refused.
    if (issued === null && this.config.authMode === 'development') {
      return { status: 'accepted', tokenHash, tier: 'anonymous' };
    }
    return { status: 'rejected', tokenHash, tier: 'anonymous' };
  }

  /** Compared as fixed-length hashes, in constant time. */
  private isAdminKey(token: string): boolean {
    const adminToken = this.config.adminToken;
    if (adminToken === undefined) {
      return false;
    }
    const digest = (value: string) => createHash('sha256').update(value).digest();
    return timingSafeEqual(digest(token), digest(adminToken));
  }
}
