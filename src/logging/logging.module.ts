/**
 * Structured logs with pino: the application's messages and one line per request, as JSON
 * (one object per line) or pretty-printed for people (`LOG_FORMAT=pretty`, the default in
 * development). Credentials never reach a log line: request lines carry no headers or bodies,
 * and credential-like query parameters are redacted.
 */
import { Global, Module } from '@nestjs/common';

import { type AppConfig, appConfig } from '../config/app.config.js';
import { AppLogger } from './app-logger.js';
import { RequestLog } from './request-log.js';

@Global()
@Module({
  providers: [
    { provide: AppLogger, inject: [appConfig.KEY], useFactory: (config: AppConfig) => new AppLogger(config) },
    RequestLog,
  ],
  exports: [AppLogger, RequestLog],
})
export class LoggingModule {}
