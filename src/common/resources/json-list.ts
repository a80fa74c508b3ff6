/**
 * A list answer already written as JSON: whole (kept with its gzip form, made once, so it
 * can be sent again as it is) or as a stream of chunks (a list too long to keep).
 * `payloadOf` (common/http/answers.ts) sends it, gzip compressed when the client accepts that.
 */
import { pipeline, Readable } from 'node:stream';
import { promisify } from 'node:util';
import { createGzip, gzip } from 'node:zlib';

const gzipBytes = promisify(gzip);

/** Bodies shorter than this are sent as they are: compressing them saves nothing. */
export const COMPRESS_FROM_BYTES = 1024;

export class JsonList {
  private constructor(
    private readonly plain: Buffer | undefined,
    private readonly zipped: Buffer | undefined,
    private readonly chunks: (() => AsyncIterable<string>) | undefined,
    private readonly release: () => void,
  ) {}

  /** A whole answer, with its gzip form when it is worth compressing. */
  static async whole(bytes: Buffer): Promise<JsonList> {
    const zipped = bytes.length >= COMPRESS_FROM_BYTES ? await gzipBytes(bytes) : undefined;
    return new JsonList(bytes, zipped, undefined, () => undefined);
  }

  /** A streamed answer; `release` runs once the stream is done with, however it ends. */
  static streamed(chunks: () => AsyncIterable<string>, release: () => void = () => undefined): JsonList {
    return new JsonList(undefined, undefined, chunks, release);
  }

  /** Bytes held by a whole answer (both forms); 0 for a stream. */
  get bytes(): number {
    return (this.plain?.length ?? 0) + (this.zipped?.length ?? 0);
  }

  get compressible(): boolean {
    return this.plain === undefined || this.zipped !== undefined;
  }

  /** The body as it is. */
  identity(): Buffer | Readable {
    return this.plain ?? this.stream(Readable.from(this.chunks!()));
  }

  /** The body gzip compressed (a whole one was compressed when it was made). */
  gzip(): Buffer | Readable {
    if (this.plain !== undefined) {
      return this.zipped ?? this.plain;
    }
    const zipped = createGzip();
    // pipeline passes a failure of the source on to the compressed stream the client reads.
    pipeline(Readable.from(this.chunks!()), zipped, () => undefined);
    return this.stream(zipped);
  }

  private stream(stream: Readable): Readable {
    stream.once('close', this.release);
    return stream;
  }
}
