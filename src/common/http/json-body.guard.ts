/**
 * Reads and parses JSON bodies as the last guard, after the rate limit and authentication,
 * so that a spent rate limit (429) or a missing token (401) is reported before anything about
 * the body (the contract's order of checks). The HTTP adapter's own body parser is switched
 * off for this reason (see app.setup.ts). A guard rather than an interceptor: it is a direct
 * call, with nothing to do after the handler.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { type CanActivate, type ExecutionContext, HttpStatus, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import getRawBody from 'raw-body';

import { type AppConfig, appConfig } from '../../config/app.config.js';
import { ApiException, BadRequestException } from '../errors/api.exception.js';
import { Messages } from '../errors/messages.js';
import { CONTINUE } from './http-front.js';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

type RequestWithBody = IncomingMessage & { body?: unknown };

const NO_BODY = 'noBody';

/** An action route that takes no body (`POST /webhooks/{id}/test`): none is read, and no Content-Type is needed. */
export const NoBody = () => SetMetadata(NO_BODY, true);

@Injectable()
export class JsonBodyGuard implements CanActivate {
  /** Whether each handler takes no body, read once. */
  private readonly bodiless = new WeakMap<object, boolean>();

  constructor(
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    private readonly reflector: Reflector,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const http = context.switchToHttp();
    const req = http.getRequest<RequestWithBody & { raw?: IncomingMessage }>();
    if (!METHODS_WITH_BODY.has(req.method ?? '') || this.takesNoBody(context.getHandler())) {
      return true;
    }
    // Express hands Node's objects; Fastify wraps them and keeps them as `raw`.
    const res = http.getResponse<ServerResponse & { raw?: ServerResponse }>();
    return readJsonBody(req.raw ?? req, res.raw ?? res, this.config.bodyLimit).then((body) => {
      req.body = body;
      return true;
    });
  }

  private takesNoBody(handler: object): boolean {
    let bodiless = this.bodiless.get(handler);
    if (bodiless === undefined) {
      bodiless = this.reflector.get<boolean | undefined>(NO_BODY, handler as () => unknown) === true;
      this.bodiless.set(handler, bodiless);
    }
    return bodiless;
  }
}

function expectsContinue(req: IncomingMessage): boolean {
  const expect = req.headers.expect;
  return expect !== undefined && req.httpVersionMajor === 1 && req.httpVersionMinor === 1 && CONTINUE.test(expect);
}

export function isJsonContentType(header: string | undefined): boolean {
  return header?.split(';', 1)[0].trim().toLowerCase() === 'application/json';
}

/** Decodes whole bodies, refusing bytes that are not UTF-8 instead of replacing them; skips a byte-order mark. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export async function readJsonBody(req: IncomingMessage, res: ServerResponse, limit: number): Promise<unknown> {
  if (!isJsonContentType(req.headers['content-type'])) {
    throw new ApiException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, Messages.unsupportedMediaType());
  }
  const length = req.headers['content-length'];
  if (length !== undefined && Number(length) > limit) {
    throw new ApiException(HttpStatus.PAYLOAD_TOO_LARGE, Messages.bodyTooLarge(limit));
  }
  if (expectsContinue(req)) {
    // Every check before the body has passed: now the client may send it (see app.setup.ts).
    res.writeContinue();
  }
  let bytes: Buffer;
  try {
    bytes = await getRawBody(req, { limit, length });
  } catch (error) {
    if ((error as { type?: string }).type === 'entity.too.large') {
      throw new ApiException(HttpStatus.PAYLOAD_TOO_LARGE, Messages.bodyTooLarge(limit));
    }
    throw new BadRequestException(Messages.bodyNotJson());
  }
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new BadRequestException(Messages.bodyNotUtf8());
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BadRequestException(Messages.bodyNotJson());
  }
}
