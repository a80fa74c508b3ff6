import { randomBytes } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';

import { ResourceNotFoundException } from '../common/errors/api.exception.js';
import { storedId } from '../common/resources/versioning.js';
import { ApiToken } from './api-token.entity.js';
import { hashToken } from './auth.service.js';
import { type CreateTokenDto, DEFAULT_EXPIRY_DAYS, DEFAULT_TIER } from './dto/create-token.dto.js';

/** Issued tokens start with this prefix, so that one found in a log or a repository is recognisable. */
export const TOKEN_PREFIX = 'adopt_';
const DAY_MS = 86_400_000;

export interface IssuedToken {
  id: number;
  name: string;
  tier: string;
  token: string;
  created_at: Date;
  expires_at: Date;
}

@Injectable()
export class ApiTokensService {
  constructor(@InjectRepository(ApiToken) private readonly tokens: Repository<ApiToken>) {}

  /** Issues a token; its plaintext is returned here once and never stored. */
  async issue(dto: CreateTokenDto): Promise<IssuedToken> {
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const createdAt = new Date();
    const saved = await this.tokens.save(
      this.tokens.create({
        name: dto.name,
        tier: dto.tier ?? DEFAULT_TIER,
        token_hash: hashToken(token),
        created_at: createdAt,
        expires_at: new Date(createdAt.getTime() + (dto.expires_in_days ?? DEFAULT_EXPIRY_DAYS) * DAY_MS),
        revoked_at: null,
      }),
    );
    return {
      id: saved.id,
      name: saved.name,
      tier: saved.tier,
      token,
      created_at: saved.created_at,
      expires_at: saved.expires_at,
    };
  }

  list(): Promise<ApiToken[]> {
    return this.tokens.find({ order: { id: 'ASC' } });
  }

  async revoke(id: string): Promise<ApiToken> {
    const key = storedId(id);
    const token = key === undefined ? null : await this.tokens.findOneBy({ id: key });
    if (!token) {
      throw new ResourceNotFoundException('token', id);
    }
    if (token.revoked_at === null) {
      token.revoked_at = new Date();
      await this.tokens.update({ id: token.id }, { revoked_at: token.revoked_at });
    }
    return token;
  }
}
