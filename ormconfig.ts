/** The TypeORM CLI's data source: the same options the application uses (see src/database), with the entity files. */
import { DataSource } from 'typeorm';

import { loadAppConfig } from './src/config/app.config.js';
import { buildDataSourceOptions } from './src/database/data-source-options.js';

export default new DataSource({
  ...buildDataSourceOptions(loadAppConfig(process.env).databaseUrl),
  entities: [new URL('./src/**/*.entity.js', import.meta.url).pathname],
});
