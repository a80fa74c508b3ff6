import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';

import { appConfig } from './app.config.js';

/** Loads `.env` (when present) and exposes the validated `AppConfig` to every module. */
@Module({
  imports: [ConfigModule.forRoot({ isGlobal: true, load: [appConfig], cache: true })],
})
export class AppConfigModule {}
