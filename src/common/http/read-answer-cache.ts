/**
 * Answers of the reads answered before the router (src/direct-reads.ts), kept as they were
 * sent, so that the same read of unchanged data is written again with no handler, no
 * validation and no serialising: one resource's (its body and ETag, or 304 while
 * `If-None-Match` names the tag), or a list's of up to KEPT_LIST_BYTES (its body and the
 * headers that vary). An answer is valid while the data version it was read at is current;
 * answers are kept only where every write is seen (SQLite) and list answers are kept at all
 * (`LIST_CACHE_MB` above 0). Least recently used answers go first past CACHE_BYTES.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';

import { type AppConfig, appConfig } from '../../config/app.config.js';
import { DATA_VERSION, type DataVersion, keptSize } from '../resources/list-answer-cache.js';
import { JSON_TYPE, tagged } from './answers.js';

/** A pet's answer, with its entry, is about 2 KB. */
const CACHE_BYTES = 32 * 1024 * 1024;
/** A list answer longer than this is not kept here (the list's own cache still keeps it). */
const KEPT_LIST_BYTES = 64 * 1024;
/** The headers a list answer gets besides its type and length. */
const LIST_HEADERS = ['Vary', 'Content-Encoding', 'X-Total-Count', 'Link', 'Access-Control-Expose-Headers'];

interface KeptAnswer {
  version: string;
  /** One resource's tag; a list has none. */
  etag?: string;
  headers: [string, string][];
  /** Encoded once, when kept. */
  body: Buffer;
}

@Injectable()
export class ReadAnswerCache {
  private readonly kept: LRUCache<string, KeptAnswer> | undefined;

  constructor(
    @Inject(DATA_VERSION) private readonly versions: DataVersion,
    @Inject(appConfig.KEY) config: AppConfig,
  ) {
    this.kept =
      versions.seesEveryWrite && config.listCacheBytes > 0
        ? new LRUCache({ maxSize: CACHE_BYTES, sizeCalculation: (kept, key) => keptSize(kept.body.length, key) })
        : undefined;
  }

  /** The data version to read at: an answer read now is kept under it. */
  version(): string {
    return this.kept === undefined ? '' : this.versions.dataVersion();
  }

  /** Sends the answer kept under `key` if it was read at `version`; false (nothing sent) otherwise. */
  sendKept(req: IncomingMessage, res: ServerResponse, key: string, version: string): boolean {
    const kept = this.kept?.get(key);
    if (kept === undefined || kept.version !== version) {
      return false;
    }
    if (kept.etag !== undefined && tagged(req, res, kept.etag)) {
      res.statusCode = 304;
      res.end();
      return true;
    }
    for (const [name, value] of kept.headers) {
      res.setHeader(name, value);
    }
    res.setHeader('Content-Type', JSON_TYPE);
    res.setHeader('Content-Length', kept.body.length);
    res.end(kept.body);
    return true;
  }

  /** Keeps the answer just sent on `res` with `body`: a resource's (with its tag), or a 200 list's not longer than KEPT_LIST_BYTES. */
  keep(res: ServerResponse, key: string, version: string, body: string | Buffer): void {
    if (this.kept === undefined) {
      return;
    }
    const etag = res.getHeader('ETag');
    if (typeof etag === 'string') {
      this.kept.set(key, { version, etag, headers: [], body: bytesOf(body) });
      return;
    }
    if (res.statusCode !== 200 || body.length === 0 || body.length > KEPT_LIST_BYTES) {
      return;
    }
    const headers: [string, string][] = [];
    for (const name of LIST_HEADERS) {
      const value = res.getHeader(name);
      if (value !== undefined) {
        headers.push([name, Array.isArray(value) ? value.join(', ') : String(value)]);
      }
    }
    this.kept.set(key, { version, headers, body: bytesOf(body) });
  }
}

const bytesOf = (body: string | Buffer): Buffer => (typeof body === 'string' ? Buffer.from(body) : body);
