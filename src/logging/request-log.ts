/**
 * One line per request, written when the response is done (or abandoned): method, URL with
 * credential-like query parameters redacted, route pattern, client address, status, duration
 * and request id.
 * 5xx and abandoned responses are errors and warnings, 4xx warnings, the rest information.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';

import { Injectable } from '@nestjs/common';

import { requestIdOf } from '../common/http/request-id.js';
import type { RequestHook, RequestView } from '../common/http/request-hooks.js';
import { AppLogger, type LogLevel } from './app-logger.js';
import { loggableUrl } from './redact.js';

interface Pending {
  view: RequestView;
  started: number;
  finished: boolean;
}

const PENDING = Symbol('pendingRequestLine');
type LoggedResponse = ServerResponse & { [PENDING]?: Pending };

/**
 * 'finish' with the connection still open means the whole answer was handed to the operating
 * system. A connection closed before that (a client gone, or one cut off for not reading) also
 * ends the response, with its socket already destroyed.
 */
function onFinish(this: LoggedResponse): void {
  const pending = this[PENDING];
  if (pending !== undefined) {
    pending.finished = this.req?.socket?.destroyed !== true;
  }
}

@Injectable()
export class RequestLog {
  private readonly info: boolean;
  private readonly warn: boolean;
  private readonly error: boolean;

  constructor(private readonly logger: AppLogger) {
    this.info = logger.enabled('info');
    this.warn = logger.enabled('warn');
    this.error = logger.enabled('error');
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the listener's own `this` is the response
    const log = this;
    this.onClose = function (this: LoggedResponse) {
      const pending = this[PENDING];
      if (pending !== undefined) {
        this[PENDING] = undefined;
        try {
          log.write(this.req, this, pending.view, pending.started, pending.finished);
        } catch {
          // A request line is never worth the process: an emitter's listener that throws would end it.
        }
      }
    };
  }

  /** The request hook that writes the line; a no-op when the level lets no request line through. */
  readonly hook: RequestHook = (req, res, view) => {
    if (this.error) {
      const line = res as LoggedResponse;
      line[PENDING] = { view, started: performance.now(), finished: false };
      // Listeners shared by every request: nothing is allocated for them per request.
      res.on('finish', onFinish);
      res.on('close', this.onClose);
    }
    return false;
  };

  /** Writes the line of the response that closed (`this` is the response, as the emitter calls it). */
  private readonly onClose: (this: LoggedResponse) => void;

  private write(
    req: IncomingMessage,
    res: ServerResponse,
    view: RequestView,
    started: number,
    finished: boolean,
  ): void {
    const status = res.statusCode;
    const level: LogLevel = !finished ? 'warn' : status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
    if (!(level === 'info' ? this.info : level === 'warn' ? this.warn : true)) {
      return;
    }
    const durationMs = Math.round(performance.now() - started);
    const method = req.method ?? '';
    const url = loggableUrl((req as { originalUrl?: string }).originalUrl ?? req.url ?? '/');
    const route = view.route();
    const address = view.address();
    // The fields pino would write for {request_id, route, remote_address, req, res, duration_ms, aborted}.
    const fields =
      `"request_id":${JSON.stringify(requestIdOf(req))}` +
      (route === undefined ? '' : `,"route":${JSON.stringify(route)}`) +
      (address === undefined ? '' : `,"remote_address":${JSON.stringify(address)}`) +
      `,"req":{"method":${JSON.stringify(method)},"url":${JSON.stringify(url)}},"res":{"status":${status}}` +
      `,"duration_ms":${durationMs}${finished ? '' : ',"aborted":true'}`;
    const message = finished
      ? `${method} ${url} ${status} ${durationMs} ms`
      : `${method} ${url} aborted after ${durationMs} ms`;
    this.logger.writeLine(level, fields, message);
  }
}
