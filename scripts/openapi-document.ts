/**
 * Writes the service's OpenAPI document, as `/openapi.json` serves it, without listening:
 *   node dist/scripts/openapi-document.js [file]     (standard output without a file)
 * For `npm run lint` (Redocly and Spectral read it) and `npm run client:generate`.
 */
import 'reflect-metadata';

import { writeFileSync } from 'node:fs';

import { NestFactory } from '@nestjs/core';

import { AppModule } from '../src/app.module.js';
import { APP_OPTIONS, createHttpAdapter } from '../src/app.setup.js';
import { buildOpenApiDocument } from '../src/common/openapi/openapi.js';

const [file] = process.argv.slice(2);

const app = await NestFactory.create(AppModule, await createHttpAdapter(), { ...APP_OPTIONS, logger: ['error'] });
try {
  const json = `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`;
  if (file === undefined) {
    process.stdout.write(json);
  } else {
    writeFileSync(file, json);
  }
} finally {
  await app.close();
}
