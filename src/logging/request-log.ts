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

@Injectable()
export class RequestLog {
  private readonly info: boolean;
  private readonly warn: boolean;
  private readonly error: boolean;

  constructor(private readonly logger: AppLogger) {
    this.info = logger.enabled('info');
    this.warn = logger.enabled('warn');
    this.error = logger.enabled('error');
  }

  /** The request hook that writes the line; a no-op when the level lets no request line through. */
  readonly hook: RequestHook = (req, res, view) => {
    if (this.error) {
      const started = performance.now();
      // 'finish' with the connection still open means the whole answer was handed to the
      // operating system. A connection closed before that (a client gone, or one cut off for
      // not reading) also ends the response, with its socket already destroyed.
      const { socket } = req;
      let finished = false;
      res.once('finish', () => (finished = !socket.destroyed));
      res.once('close', () => this.write(req, res, view, started, finished));
    }
    return false;
  };

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
    const line = {
      request_id: requestIdOf(req),
      route: view.route(),
      remote_address: view.address(),
      req: { method, url },
      res: { status },
      duration_ms: durationMs,
      ...(finished ? {} : { aborted: true }),
    };
    const message = finished
      ? `${method} ${url} ${status} ${durationMs} ms`
      : `${method} ${url} aborted after ${durationMs} ms`;
    this.logger.pino[level](line, message);
  }
}
