/**
 * A list answer already written as JSON: whole (so it can be kept and served again) or
 * as a stream of chunks (a list too long to hold). `JsonListInterceptor` sends it, gzip
 * compressed when the client accepts that.
 */
import { pipeline, Readable } from 'node:stream';
import { promisify } from 'node:util';
import { createGzip, gzip } from 'node:zlib';

const gzipBytes = promisify(gzip);

/** Bodies shorter than this are sent as they are: compressing them saves nothing. */
export const COMPRESS_FROM_BYTES = 1024;

export class JsonList {
  private gzipped?: Promise<Buffer>;

  private constructor(
    private readonly bytes: Buffer | undefined,
    private readonly chunks: (() => AsyncIterable<string>) | undefined,
  ) {}

  static whole(bytes: Buffer): JsonList {
    return new JsonList(bytes, undefined);
  }

  static streamed(chunks: () => AsyncIterable<string>): JsonList {
    return new JsonList(undefined, chunks);
  }

  /** The body's length when it is whole; a stream's is not known in advance. */
  get length(): number | undefined {
    return this.bytes?.length;
  }

  get compressible(): boolean {
    return this.bytes === undefined || this.bytes.length >= COMPRESS_FROM_BYTES;
  }

  /** The body as it is. */
  identity(): Buffer | Readable {
    return this.bytes ?? Readable.from(this.chunks!());
  }

  /** The body gzip compressed; a whole one is compressed once and kept with it. */
  async gzip(): Promise<Buffer | Readable> {
    if (this.bytes === undefined) {
      const zipped = createGzip();
      // pipeline passes a failure of the source on to the compressed stream the client reads.
      pipeline(Readable.from(this.chunks!()), zipped, () => undefined);
      return zipped;
    }
    this.gzipped ??= gzipBytes(this.bytes);
    return this.gzipped;
  }
}
