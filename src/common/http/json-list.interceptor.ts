/**
 * Sends the `JsonList` a list route returns: gzip compressed when the request's
 * `Accept-Encoding` allows it and the body is worth it, as it is otherwise. Every list
 * answer says `Vary: Accept-Encoding`, so caches keep the two codings apart.
 */
import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor, StreamableFile } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';

import Negotiator from 'negotiator';
import { from, mergeMap, type Observable } from 'rxjs';
import vary from 'vary';

import { JsonList } from '../resources/json-list.js';

const JSON_TYPE = 'application/json; charset=utf-8';
const CODINGS = ['gzip', 'identity'];

@Injectable()
export class JsonListInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<IncomingMessage & { raw?: IncomingMessage }>();
    const reply = http.getResponse<ServerResponse & { raw?: ServerResponse }>();
    return next
      .handle()
      .pipe(
        mergeMap((result: unknown) =>
          result instanceof JsonList ? from(this.send(result, req.raw ?? req, reply.raw ?? reply)) : [result],
        ),
      );
  }

  private async send(list: JsonList, req: IncomingMessage, res: ServerResponse): Promise<StreamableFile> {
    vary(res, 'Accept-Encoding');
    const coding = list.compressible ? new Negotiator(req).encoding(CODINGS) : 'identity';
    if (coding !== 'gzip') {
      return file(list.identity());
    }
    res.setHeader('Content-Encoding', 'gzip');
    return file(await list.gzip());
  }
}

function file(body: Buffer | Readable): StreamableFile {
  return Buffer.isBuffer(body)
    ? new StreamableFile(body, { type: JSON_TYPE, length: body.length })
    : new StreamableFile(body, { type: JSON_TYPE });
}
