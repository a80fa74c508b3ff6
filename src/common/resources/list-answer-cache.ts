/**
 * Whole list answers (`GET /pets`, `GET /shelters`, any filter or page), kept per instance
 * with their gzip form, so every request for the same data sends the same bytes: no query, no
 * JSON, no compression. An answer is valid while the data version it was read at is current
 * (see `DataVersion`) and, where other instances may write unseen, for at most
 * `LIST_CACHE_TTL_MS`. `LIST_CACHE_MB` bounds the bytes kept (least recently used go first).
 * Concurrent requests for an answer not yet kept share one build.
 */
import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';

import { type AppConfig, appConfig } from '../../config/app.config.js';
import type { ListPage } from './paging.js';

/** Says whether the stored data may have changed since an earlier call: a different token means it may have. */
export interface DataVersion {
  dataVersion(): string;
  /** False where other processes may write without this one being able to tell (PostgreSQL). */
  readonly seesEveryWrite: boolean;
}

export const DATA_VERSION = Symbol('DataVersion');

/**
 * What a kept answer costs beyond its bytes and its key (the objects around it), counted
 * against the cache's size, so that answers of a few bytes (an empty list for each of many
 * different filters) cannot fill memory with entries the byte count barely sees.
 */
export const KEPT_ENTRY_OVERHEAD_BYTES = 1024;

/** The bytes counted for a kept answer of `bytes` under `key`. */
export const keptSize = (bytes: number, key: string): number => bytes + 2 * key.length + KEPT_ENTRY_OVERHEAD_BYTES;

interface Kept {
  version: string;
  expiresAt: number;
  answer: ListPage;
}

/** A build's outcome: an answer to keep, or one for this request only (a streamed list). */
export interface Built {
  answer: ListPage;
  keep: boolean;
}

@Injectable()
export class ListAnswerCache {
  private readonly kept: LRUCache<string, Kept> | undefined;
  private readonly building = new Map<string, Promise<Built>>();
  private readonly ttlMs: number;
  /** The longest answer that can be kept; a longer list is streamed instead. */
  readonly maxAnswerBytes: number;

  constructor(
    @Inject(appConfig.KEY) config: AppConfig,
    @Inject(DATA_VERSION) private readonly versions: DataVersion,
  ) {
    this.maxAnswerBytes = config.listCacheBytes;
    this.ttlMs = versions.seesEveryWrite ? Infinity : config.listCacheTtlMs;
    this.kept =
      config.listCacheBytes === 0 || this.ttlMs === 0
        ? undefined
        : new LRUCache({
            maxSize: config.listCacheBytes,
            sizeCalculation: (kept, key) => keptSize(kept.answer.list.bytes, key),
          });
  }

  /** The kept answer for `key`, or the one `build` makes (kept when it says so). */
  async answer(key: string, build: () => Promise<Built>): Promise<ListPage> {
    if (this.kept === undefined) {
      return (await build()).answer;
    }
    const version = this.versions.dataVersion();
    const kept = this.kept.get(key);
    if (kept !== undefined && kept.version === version && kept.expiresAt > Date.now()) {
      return kept.answer;
    }
    const flight = `${version}\n${key}`;
    let pending = this.building.get(flight);
    if (pending === undefined) {
      const started = Date.now();
      pending = build().finally(() => this.building.delete(flight));
      this.building.set(flight, pending);
      const built = await pending;
      if (built.keep) {
        this.kept.set(key, { version, expiresAt: started + this.ttlMs, answer: built.answer });
      }
      return built.answer;
    }
    const shared = await pending;
    // A streamed answer belongs to the request that asked first; the others build their own.
    return shared.keep ? shared.answer : (await build()).answer;
  }
}
