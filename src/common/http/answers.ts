/**
 * How a handler's result becomes the answer, in one direct step where the HTTP adapter writes
 * it (see app.setup.ts): a versioned resource gets its strong `ETag` (and a GET whose
 * `If-None-Match` still matches gets 304), a list page is sent from its kept bytes (gzip
 * compressed when the client accepts it) with its page headers, and any other JSON value is
 * serialized once with its length. Streams and empty answers are left to the adapter.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

import Negotiator from 'negotiator';
import vary from 'vary';

import { errorBody } from '../errors/error-body.js';
import { type ListPage, offsetParameter, type Page } from '../resources/paging.js';
import { exposeToCors } from './cors.js';
import { etagOf, isVersioned, listMatches } from '../resources/versioning.js';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.js';

export const JSON_TYPE = 'application/json; charset=utf-8';
const CODINGS = ['gzip', 'identity'];
/**
 * A body at least this long is sent in slices of `SLICE_BYTES` (views of the kept bytes, not
 * copies) with backpressure, so that a client that stops reading can be told from one that
 * reads slowly: each slice handed to the operating system is progress (see app.setup.ts).
 */
const SLICED_FROM_BYTES = 1024 * 1024;
const SLICE_BYTES = 64 * 1024;

/** What to send: a whole body (or none, for a 304), or a stream the adapter pipes. */
export type Payload =
  | { kind: 'whole'; status: number; body: string | Buffer; type: string }
  | { kind: 'empty'; status: number }
  | { kind: 'stream'; status: number; stream: Readable; length?: number };

/**
 * The payload of `result` for this request, with the headers it needs (but its type, which
 * the adapter sets) already set on `res`; undefined when the adapter should send `result` its
 * own way.
 */
export function payloadOf(
  req: IncomingMessage,
  res: ServerResponse,
  result: unknown,
  status: number,
): Payload | undefined {
  if (typeof result !== 'object' || result === null) {
    return undefined;
  }
  if (isListPage(result)) {
    return listPayload(req, res, result, status);
  }
  if (isVersioned(result) && req.method !== 'DELETE' && tagged(req, res, etagOf(result))) {
    return { kind: 'empty', status: 304 };
  }
  return { kind: 'whole', status, body: JSON.stringify(result), type: JSON_TYPE };
}

/** Sets a resource's `ETag`; true when the answer is then 304 (a GET or HEAD whose `If-None-Match` names it). */
export function tagged(req: IncomingMessage, res: ServerResponse, etag: string): boolean {
  res.setHeader('ETag', etag);
  return (req.method === 'GET' || req.method === 'HEAD') && listMatches(req.headers['if-none-match'], etag);
}

/**
 * An error answer in the contract's shape, written straight onto Node's response: for the
 * requests answered before routing (see http-front.ts), which no exception filter sees.
 */
export function sendError(req: IncomingMessage, res: ServerResponse, status: number, message: string): void {
  const requestId = requestIdOf(req);
  const body = JSON.stringify(errorBody(status, message, requestId));
  res.statusCode = status;
  res.setHeader(REQUEST_ID_HEADER, requestId);
  res.setHeader('Content-Type', JSON_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}

export function isListPage(value: unknown): value is ListPage {
  return typeof value === 'object' && value !== null && 'list' in value && typeof value.list === 'object';
}

function listPayload(req: IncomingMessage, res: ServerResponse, { list, page }: ListPage, status: number): Payload {
  vary(res, 'Accept-Encoding');
  if (page !== undefined) {
    res.setHeader('X-Total-Count', String(page.total));
    res.setHeader('Link', links(req.url ?? '/', page));
    exposeToCors(res, ['Link', 'X-Total-Count']);
  }
  const gzip = list.compressible && new Negotiator(req).encoding(CODINGS) === 'gzip';
  if (gzip) {
    res.setHeader('Content-Encoding', 'gzip');
  }
  const body = gzip ? list.gzip() : list.identity();
  if (!Buffer.isBuffer(body)) {
    return { kind: 'stream', status, stream: body };
  }
  if (body.length >= SLICED_FROM_BYTES) {
    return { kind: 'stream', status, stream: Readable.from(slices(body)), length: body.length };
  }
  return { kind: 'whole', status, body, type: JSON_TYPE };
}

function* slices(bytes: Buffer): Generator<Buffer> {
  for (let start = 0; start < bytes.length; start += SLICE_BYTES) {
    yield bytes.subarray(start, start + SLICE_BYTES);
  }
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
