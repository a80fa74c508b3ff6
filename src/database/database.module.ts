import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

import { DATA_VERSION } from '../common/resources/list-answer-cache.js';
import { TRANSACTIONS } from '../common/resources/resource.service.js';
import { type AppConfig, appConfig } from '../config/app.config.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { migrate } from './migrate.js';
import { Transactions } from './transactions.js';

/** The connection named by `DATABASE_URL`, migrated at start-up, and the transaction runner. */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [appConfig.KEY],
      // Entities of every module's TypeOrmModule.forFeature() load by themselves.
      useFactory: (config: AppConfig) => ({ ...buildDataSourceOptions(config.databaseUrl), autoLoadEntities: true }),
      dataSourceFactory: async (options) => migrate(await new DataSource(options!).initialize()),
    }),
  ],
  providers: [
    Transactions,
    { provide: DATA_VERSION, useExisting: Transactions },
    { provide: TRANSACTIONS, useExisting: Transactions },
  ],
  exports: [Transactions, DATA_VERSION, TRANSACTIONS],
})
export class DatabaseModule {}
