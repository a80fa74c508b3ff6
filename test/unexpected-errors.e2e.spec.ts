/** A failure the service did not foresee: an opaque 500 for the client, the whole error in the log with its request id. */
import { Controller, Get, type INestApplication, Module } from '@nestjs/common';

import { AppLogger } from '../src/logging/app-logger.js';
import { expectResponse, http, startApp } from './support/app.js';

const SECRET_DETAIL = 'SELECT secret_column FROM hidden_table: connection to 10.1.2.3 refused';

@Controller('failing')
class FailingController {
  @Get()
  fail(): never {
    throw new Error(SECRET_DETAIL);
  }
}

@Module({ controllers: [FailingController] })
class FailingModule {}

interface LogLine {
  level: number;
  context?: string;
  msg?: string;
  request_id?: string;
  err?: { stack?: string };
}

describe('unexpected errors', () => {
  let app: INestApplication;
  const lines: string[] = [];

  beforeAll(async () => {
    app = await startApp({}, [FailingModule]);
    app.useLogger(
      new AppLogger({ logFormat: 'json', logLevel: 'info' }, { write: (line: string) => lines.push(line) }),
    );
  });
  afterAll(async () => {
    app.useLogger(false);
    await app.close();
  });

  it('answers 500 with the contract message only, and logs the error whole with the request id', async () => {
    const res = await expectResponse(http(app).get('/failing').set('X-Request-Id', 'failing-1'), 500, {
      error: 'Internal Server Error',
      message: 'An unexpected error occurred. Please try again later.',
      status: 500,
      request_id: 'failing-1',
    });
    expect(res.headers['x-request-id']).toBe('failing-1');
    expect(res.text).not.toContain('hidden_table');
    const logged = lines.map((line) => JSON.parse(line) as LogLine).filter((line) => line.context === 'Exceptions');
    expect(logged).toEqual([
      expect.objectContaining({
        level: 50,
        request_id: 'failing-1',
        msg: '[failing-1] unexpected error',
        err: { stack: expect.stringContaining(SECRET_DETAIL) as unknown },
      }),
    ]);
  });
});
