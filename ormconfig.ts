/** The TypeORM CLI's data source: the same options the application uses (see src/database). */
import { DataSource } from 'typeorm';

import { loadAppConfig } from './src/config/app.config.js';
import { buildDataSourceOptions } from './src/database/data-source-options.js';

export default new DataSource(buildDataSourceOptions(loadAppConfig(process.env).databaseUrl));
