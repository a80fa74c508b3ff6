import { loadAppConfig } from './app.config.js';

describe('loadAppConfig', () => {
  it('defaults to port 3000 and the SQLite file', () => {
    const config = loadAppConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBe('sqlite:./data/adoption.sqlite');
    expect(config.bodyLimit).toBe(102_400);
    expect(config.authMode).toBe('development');
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ AUTH_MODE: 'prod' }, 'AUTH_MODE'],
    [{ BODY_LIMIT: '-1' }, 'BODY_LIMIT'],
    [{ RATE_LIMIT_PER_MINUTE: '0' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
    [{ AUTH_MODE: 'production', ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN'],
  ])('stops on %p naming %s', (env, variable) => {
    expect(() => loadAppConfig(env)).toThrow(`Invalid configuration: ${variable} `);
  });
});
