import 'reflect-metadata';

import type { Server } from 'node:http';

import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

import { AppModule } from './app.module.js';
import { answerUnparsableRequests, APP_OPTIONS, createHttpAdapter } from './app.setup.js';
import { type AppConfig, appConfig, nestLogLevels } from './config/app.config.js';

async function bootstrap(): Promise<void> {
  const app = await NestFactory.create(AppModule, createHttpAdapter(), { ...APP_OPTIONS, bufferLogs: true });
  const config = app.get<AppConfig>(appConfig.KEY);
  app.useLogger(nestLogLevels(config.logLevel));
  app.enableShutdownHooks();
  answerUnparsableRequests(app.getHttpServer() as Server);
  await app.listen(config.port);
  Logger.log(`adoption-service listening on port ${config.port}`, 'Bootstrap');
}

await bootstrap();
