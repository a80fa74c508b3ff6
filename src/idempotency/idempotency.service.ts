/**
 * Stored answers of creates sent with an `Idempotency-Key`, in the database so that they
 * hold across restarts and instances. A key is reserved by inserting its row (the primary
 * key lets one request win), answered by recording the response, and released when the
 * request fails, so that the client can correct it and send it again with the same key.
 */
import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, LessThan, type Repository } from 'typeorm';

import { ApiException } from '../common/errors/api.exception.js';
import { isUniqueViolation } from '../common/errors/database-errors.js';
import { Messages } from '../common/errors/messages.js';
import { Transactions } from '../database/transactions.js';
import { IdempotencyKey } from './idempotency-key.entity.js';

/** How long a key and its answer are kept. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** A reservation this old without an answer belongs to a request that never finished (the process stopped). */
const ABANDONED_AFTER_MS = 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;

export interface StoredAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export interface KeyOfRequest {
  scope: string;
  key: string;
  requestHash: string;
}

@Injectable()
export class IdempotencyService {
  private purgedAt = 0;

  constructor(
    @InjectRepository(IdempotencyKey) private readonly keys: Repository<IdempotencyKey>,
    private readonly transactions: Transactions,
  ) {}

  /**
   * Reserves the key for this request (`undefined`: go ahead), or returns the answer stored
   * for the same request. 422 when the key came with another request, 409 while the first
   * request with it is still running.
   */
  async reserve({ scope, key, requestHash }: KeyOfRequest): Promise<StoredAnswer | undefined> {
    await this.purgeExpired();
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await this.transactions.run((manager) =>
          manager.insert(IdempotencyKey, {
            scope,
            key,
            request_hash: requestHash,
            status: null,
            response: null,
            created_at: new Date(),
          }),
        );
        return undefined;
      } catch (error) {
        if (!isUniqueViolation(error)) {
          throw error;
        }
      }
      const existing = await this.keys.findOneBy({ scope, key });
      if (existing === null) {
        continue; // released meanwhile
      }
      const age = Date.now() - existing.created_at.getTime();
      if (age > KEY_LIFETIME_MS || (existing.status === null && age > ABANDONED_AFTER_MS)) {
        await this.forget(scope, key, existing.created_at);
        continue;
      }
      if (existing.request_hash !== requestHash) {
        throw new ApiException(HttpStatus.UNPROCESSABLE_ENTITY, Messages.idempotencyKeyReused());
      }
      if (existing.status === null || existing.response === null) {
        throw new ApiException(HttpStatus.CONFLICT, Messages.idempotencyInProgress());
      }
      return { status: existing.status, ...(JSON.parse(existing.response) as Omit<StoredAnswer, 'status'>) };
    }
    throw new ApiException(HttpStatus.CONFLICT, Messages.idempotencyInProgress());
  }

  /** Records the answer of the request that reserved the key. */
  async answer({ scope, key }: KeyOfRequest, answer: StoredAnswer): Promise<void> {
    const { status, ...rest } = answer;
    await this.transactions.run((manager) =>
      manager.update(IdempotencyKey, { scope, key }, { status, response: JSON.stringify(rest) }),
    );
  }

  /** Frees the key of a request that failed. */
  async release({ scope, key }: KeyOfRequest): Promise<void> {
    await this.transactions.run((manager) => manager.delete(IdempotencyKey, { scope, key, status: IsNull() }));
  }

  private async forget(scope: string, key: string, createdAt: Date): Promise<void> {
    await this.transactions.run((manager) =>
      manager.delete(IdempotencyKey, { scope, key, created_at: LessThan(new Date(createdAt.getTime() + 1)) }),
    );
  }

  /** Drops expired keys, at most once an hour. */
  private async purgeExpired(): Promise<void> {
    const now = Date.now();
    if (now - this.purgedAt < PURGE_EVERY_MS) {
      return;
    }
    this.purgedAt = now;
    await this.transactions.run((manager) =>
      manager.delete(IdempotencyKey, { created_at: LessThan(new Date(now - KEY_LIFETIME_MS)) }),
    );
  }
}
