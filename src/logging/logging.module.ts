/**
 * Structured logs with pino: one line per request (method, route, status, duration, request
 * id) and the application's own messages, as JSON, or pretty-printed for people
 * (`LOG_FORMAT=pretty`, the default in development). Credentials never reach a log line.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Options } from 'pino-http';
import { type Level, pino } from 'pino';
import pretty from 'pino-pretty';

import { requestIdOf } from '../common/http/request-id.js';
import { type AppConfig, appConfig } from '../config/app.config.js';

/** Express records the matched route on the request; the Fastify adapter does the same (app.setup.ts). */
type RoutedRequest = IncomingMessage & { originalUrl?: string; route?: { path?: string } };

/** The route pattern that served the request (`/pets/:id`); none for an unknown endpoint. */
function routeOf(req: RoutedRequest): string | undefined {
  const route = req.route?.path;
  return route?.includes('*') ? undefined : route;
}

/**
 * Request lines carry no headers and no bodies (see the serializers); these paths are
 * censored besides, should a serializer ever let headers through. Exact paths only:
 * wildcards would make pino walk every logged object.
 */
const REDACTED = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'];

export function pinoHttpOptions(config: AppConfig): Options<RoutedRequest, ServerResponse> {
  const threshold = pino.levels.values[config.logLevel] ?? Infinity;
  // A line below the configured level is not even put together.
  const enabled = (level: Level): Level | 'silent' => (pino.levels.values[level] >= threshold ? level : 'silent');
  return {
    level: config.logLevel,
    genReqId: (req) => requestIdOf(req),
    // The request id goes on the request's own logger, so every line about the request carries it.
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'request_id', responseTime: 'duration_ms' },
    // The route is known once the request has been routed: added to the line, not to a per-request logger.
    customSuccessObject: (req, _res, value: object) => ({ ...value, route: routeOf(req) }),
    customErrorObject: (req, _res, _error, value: object) => ({ ...value, route: routeOf(req) }),
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
    customSuccessMessage: (req, res, duration) =>
      `${req.method} ${req.originalUrl ?? req.url} ${res.statusCode} ${Math.round(duration)} ms`,
    customErrorMessage: (req, res) => `${req.method} ${req.originalUrl ?? req.url} ${res.statusCode} failed`,
    // 5xx are errors, 4xx warnings, the rest information.
    customLogLevel: (_req, res, error) =>
      enabled(error !== undefined || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    redact: { paths: REDACTED, censor: '[redacted]' },
  };
}

@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [appConfig.KEY],
      useFactory: (config: AppConfig) => {
        const options = pinoHttpOptions(config);
        return {
          // Every request, on both adapters (the same route pattern CommonModule's middleware uses).
          forRoutes: ['*'],
          pinoHttp:
            config.logFormat === 'pretty'
              ? [options, pretty({ sync: true, colorize: process.stdout.isTTY, ignore: 'pid,hostname' })]
              : options,
        };
      },
    }),
  ],
})
export class LoggingModule {}
