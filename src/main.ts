import 'reflect-metadata';

import type { Server } from 'node:http';

import { type INestApplication, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

import { AppModule } from './app.module.js';
import { APP_OPTIONS, configureApp, createHttpAdapter } from './app.setup.js';
import { type AppConfig, appConfig } from './config/app.config.js';
import { AppLogger } from './logging/app-logger.js';

const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

async function bootstrap(): Promise<void> {
  const app = await NestFactory.create(AppModule, await createHttpAdapter(), { ...APP_OPTIONS, bufferLogs: true });
  const config = app.get<AppConfig>(appConfig.KEY);
  app.useLogger(app.get(AppLogger));
  const server = app.getHttpServer() as Server;
  configureApp(app);
  for (const signal of SHUTDOWN_SIGNALS) {
    process.once(signal, () => void shutdown(app, server, signal, config.shutdownTimeoutMs));
  }
  await app.listen(config.port, config.host);
  Logger.log(`adoption-service (${config.httpAdapter}) listening on ${config.host}:${config.port}`, 'Bootstrap');
}

/**
 * Stops accepting connections, lets the requests in flight finish (closing their connections
 * after `timeoutMs`), then closes the database and exits 0.
 */
async function shutdown(app: INestApplication, server: Server, signal: string, timeoutMs: number): Promise<void> {
  Logger.log(`${signal} received: finishing requests in flight`, 'Shutdown');
  const deadline = setTimeout(() => {
    Logger.warn(`requests still open after ${timeoutMs} ms; closing their connections`, 'Shutdown');
    server.closeAllConnections();
  }, timeoutMs);
  let code = 0;
  try {
    await app.close();
    Logger.log('closed', 'Shutdown');
  } catch (error) {
    Logger.error(`shutdown failed: ${String(error)}`, 'Shutdown');
    code = 1;
  }
  clearTimeout(deadline);
  process.exit(code);
}

await bootstrap();
