/**
 * Reads and parses JSON bodies as the last guard, after the rate limit and authentication,
 * so that a spent rate limit (429) or a missing token (401) is reported before anything about
 * the body (the contract's order of checks). The HTTP adapter's own body parser is switched
 * off for this reason (see app.setup.ts). A guard rather than an interceptor: it is a direct
 * call, with nothing to do after the handler.
 */
import type { IncomingMessage } from 'node:http';

import { type CanActivate, type ExecutionContext, HttpStatus, Inject, Injectable } from '@nestjs/common';
import getRawBody from 'raw-body';

import { type AppConfig, appConfig } from '../../config/app.config.js';
import { ApiException, BadRequestException } from '../errors/api.exception.js';
import { Messages } from '../errors/messages.js';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

type RequestWithBody = IncomingMessage & { body?: unknown };

@Injectable()
export class JsonBodyGuard implements CanActivate {
  constructor(@Inject(appConfig.KEY) private readonly config: AppConfig) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<RequestWithBody & { raw?: IncomingMessage }>();
    if (METHODS_WITH_BODY.has(req.method ?? '')) {
      // Express hands Node's request; Fastify wraps it and keeps it as `raw`.
      req.body = await readJsonBody(req.raw ?? req, this.config.bodyLimit);
    }
    return true;
  }
}

export function isJsonContentType(header: string | undefined): boolean {
  return header?.split(';', 1)[0].trim().toLowerCase() === 'application/json';
}

/** Decodes whole bodies, refusing bytes that are not UTF-8 instead of replacing them; skips a byte-order mark. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  if (!isJsonContentType(req.headers['content-type'])) {
    throw new ApiException(HttpStatus.UNSUPPORTED_MEDIA_TYPE, Messages.unsupportedMediaType());
  }
  let bytes: Buffer;
  try {
    bytes = await getRawBody(req, { limit, length: req.headers['content-length'] });
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
