/**
 * The one place that writes error bodies: validation, guards, throttling, body parsing,
 * unknown routes and unexpected failures all leave through here in the contract's shape.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import {
  type ArgumentsHost,
  Catch,
  type ExceptionFilter,
  HttpException,
  HttpStatus,
  Logger,
  NotFoundException,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';

import { REQUEST_ID_HEADER, requestIdOf } from './request-id.js';
import { ApiException, type ErrorDetail } from '../errors/api.exception.js';
import { isDatabaseUnavailable } from '../errors/database-errors.js';
import { errorBody } from '../errors/error-body.js';
import { Messages } from '../errors/messages.js';

@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    // Express hands Node's own objects; other adapters wrap them and keep them as `.raw`.
    const req = http.getRequest<IncomingMessage & { raw?: IncomingMessage }>();
    const res = http.getResponse<ServerResponse & { raw?: ServerResponse }>();
    const adapter = this.adapterHost.httpAdapter;
    const requestId = requestIdOf(req.raw ?? req);
    const { status, message, details, extra } = this.describe(exception, requestId);

    const raw = res.raw ?? res;
    if (raw.headersSent) {
      // The status line is already out; all that is left is to cut the response short.
      raw.destroy();
      return;
    }
    for (const [name, value] of Object.entries(extra?.headers ?? {})) {
      adapter.setHeader(res, name, value);
    }
    if (extra?.retry_after !== undefined) {
      // Any answer may say when to come back; the contract's body names it on 429 only.
      adapter.setHeader(res, 'Retry-After', String(extra.retry_after));
    }
    adapter.setHeader(res, REQUEST_ID_HEADER, requestId);
    const retryAfter = status === 429 ? extra?.retry_after : undefined;
    adapter.reply(res, errorBody(status, message, requestId, details, retryAfter), status);
  }

  private describe(
    exception: unknown,
    requestId: string,
  ): { status: number; message: string; details?: ErrorDetail[]; extra?: ApiException['extra'] } {
    if (exception instanceof ApiException) {
      return {
        status: exception.getStatus(),
        message: exception.message,
        details: exception.details,
        extra: exception.extra,
      };
    }
    if (exception instanceof NotFoundException) {
      // Raised by the router for a method and path that no controller serves.
      return { status: HttpStatus.NOT_FOUND, message: Messages.endpointNotFound() };
    }
    const clientStatus = exception instanceof HttpException ? exception.getStatus() : statusOfClientError(exception);
    if (clientStatus !== undefined && clientStatus < 500) {
      // Raised below the service's own code, e.g. by the router for a path whose percent-encoding does not decode.
      return { status: clientStatus, message: Messages.malformedRequest() };
    }
    // The line carries the request's id as a field, as its request line does, and in its text for people.
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn({ msg: `[${requestId}] database unavailable: ${String(exception)}`, request_id: requestId });
      return { status: HttpStatus.SERVICE_UNAVAILABLE, message: Messages.unavailable() };
    }
    this.logger.error(
      { msg: `[${requestId}] unexpected error`, request_id: requestId },
      exception instanceof Error ? exception.stack : String(exception),
    );
    return { status: HttpStatus.INTERNAL_SERVER_ERROR, message: Messages.internal() };
  }
}

/** The 4xx status of an error raised below Nest (the router's http-errors), if it has one. */
function statusOfClientError(exception: unknown): number | undefined {
  if (typeof exception !== 'object' || exception === null) {
    return undefined;
  }
  const status =
    (exception as { status?: unknown; statusCode?: unknown }).status ??
    (exception as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}
