/**
 * Issues an API token from the shell, for bootstrapping:
 *   npm run token:create -- --name ci --tier standard --expires-in-days 90
 * Uses the database that DATABASE_URL names and prints the token once.
 */
import 'reflect-metadata';

import { parseArgs } from 'node:util';

import { NestFactory } from '@nestjs/core';

import { ApiTokensService } from '../src/auth/api-tokens.service.js';
import { AppModule } from '../src/app.module.js';
import { CreateTokenDto } from '../src/auth/dto/create-token.dto.js';
import { ValidationPipe } from '../src/common/validation/validation.pipe.js';

const { values } = parseArgs({
  options: {
    name: { type: 'string' },
    tier: { type: 'string' },
    'expires-in-days': { type: 'string' },
  },
});

const body: Record<string, unknown> = { name: values.name };
if (values.tier !== undefined) {
  body.tier = values.tier;
}
if (values['expires-in-days'] !== undefined) {
  body.expires_in_days = Number(values['expires-in-days']);
}

const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error'] });
try {
  // The same validation as POST /auth/tokens.
  const dto = new ValidationPipe().transform(body, { type: 'body', metatype: CreateTokenDto }) as CreateTokenDto;
  const issued = await app.get(ApiTokensService).issue(dto);
  process.stdout.write(
    `Token ${issued.id} "${issued.name}" (${issued.tier}), expires ${issued.expires_at.toISOString()}:\n${issued.token}\n`,
  );
} catch (error) {
  const details = (error as { details?: Array<{ message: string }> }).details;
  process.stderr.write(`${details?.map((detail) => detail.message).join('\n') ?? String(error)}\n`);
  process.exitCode = 1;
} finally {
  await app.close();
}
