/**
 * Sends the `ListPage` a list route returns: gzip compressed when the request's
 * `Accept-Encoding` allows it and the body is worth it, as it is otherwise. Every list
 * answer says `Vary: Accept-Encoding`, so caches keep the two codings apart. A page also
 * gets `X-Total-Count` and an RFC 8288 `Link` header (first, prev, next, last) whose
 * targets keep the request's other query parameters.
 */
import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
  StreamableFile,
} from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';

import Negotiator from 'negotiator';
import { from, mergeMap, type Observable } from 'rxjs';
import vary from 'vary';

import { type ListPage, offsetParameter, type Page } from '../resources/paging.js';
import { exposeToCors } from './cors.middleware.js';

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
          isListPage(result) ? from(this.send(result, req.raw ?? req, reply.raw ?? reply)) : [result],
        ),
      );
  }

  private async send({ list, page }: ListPage, req: IncomingMessage, res: ServerResponse): Promise<StreamableFile> {
    vary(res, 'Accept-Encoding');
    if (page !== undefined) {
      res.setHeader('X-Total-Count', String(page.total));
      res.setHeader('Link', links(req.url ?? '/', page));
      exposeToCors(res, ['Link', 'X-Total-Count']);
    }
    const coding = list.compressible ? new Negotiator(req).encoding(CODINGS) : 'identity';
    if (coding !== 'gzip') {
      return file(list.identity());
    }
    res.setHeader('Content-Encoding', 'gzip');
    return file(await list.gzip());
  }
}

function isListPage(value: unknown): value is ListPage {
  return typeof value === 'object' && value !== null && 'list' in value && typeof value.list === 'object';
}

/** The `Link` header of a page: the same request with the offset of the first, previous, next and last page. */
function links(url: string, { limit, offset, total }: Page & { total: number }): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  const params = new URLSearchParams(query === -1 ? '' : url.slice(query + 1));
  const name = offsetParameter(params);
  const target = (start: number) => {
    params.set(name, String(start));
    return `<${path}?${params.toString()}>`;
  };
  const last = total === 0 ? 0 : Math.floor((total - 1) / limit) * limit;
  const relations = [`${target(0)}; rel="first"`];
  if (offset > 0) {
    relations.push(`${target(Math.max(0, Math.min(offset, last + limit) - limit))}; rel="prev"`);
  }
  if (offset + limit < total) {
    relations.push(`${target(offset + limit)}; rel="next"`);
  }
  relations.push(`${target(last)}; rel="last"`);
  return relations.join(', ');
}

function file(body: Buffer | Readable): StreamableFile {
  return Buffer.isBuffer(body)
    ? new StreamableFile(body, { type: JSON_TYPE, length: body.length })
    : new StreamableFile(body, { type: JSON_TYPE });
}
