import { jest } from '@jest/globals';

import { AppLogger, PrettyLines } from './app-logger.js';

/** A request line's fields as the request log writes them, and the same as an object. */
const fields = {
  request_id: 'req-1',
  route: '/pets/:id',
  remote_address: '127.0.0.1',
  req: { method: 'GET', url: '/pets/1?name="Ünï"' },
  res: { status: 200 },
  duration_ms: 3,
};
const fieldsJson = JSON.stringify(fields).slice(1, -1);

describe('AppLogger, pretty format', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: new Date(2026, 10, 24, 9, 5, 7, 42) });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it.each([
    ['info', false],
    ['warn', false],
    ['error', false],
    ['info', true],
    ['warn', true],
    ['error', true],
  ] as const)('writes a %s request line as pino-pretty writes it (colours: %s)', (level, colorize) => {
    const lines: string[] = [];
    const logger = new AppLogger(
      { logFormat: 'pretty', logLevel: 'info' },
      new PrettyLines({ write: (line: string) => lines.push(line) }, colorize),
    );
    const message = 'GET /pets/1?name="Ünï" 200 3 ms';
    logger.writeLine(level, fieldsJson, message);
    logger.pino[level](fields, message);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(lines[1]);
    expect(lines[0]).toContain('09:05:07.042');
  });

  it('writes the application lines through pino-pretty, on one line each', () => {
    const lines: string[] = [];
    const logger = new AppLogger(
      { logFormat: 'pretty', logLevel: 'info' },
      new PrettyLines({ write: (line: string) => lines.push(line) }, false),
    );
    logger.log('Listening on 3000', 'Bootstrap');
    logger.debug('not written', 'Bootstrap');
    expect(lines).toEqual(['[09:05:07.042] INFO: Listening on 3000 {"context":"Bootstrap"}\n']);
  });
});
