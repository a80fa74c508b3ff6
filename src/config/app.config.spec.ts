import { loadAppConfig } from './app.config.js';

describe('loadAppConfig', () => {
  it('defaults to port 3000 and the SQLite file', () => {
    const config = loadAppConfig({});
    expect(config.port).toBe(3000);
    expect(config.databaseUrl).toBe('sqlite:./data/adoption.sqlite');
    expect(config.bodyLimit).toBe(102_400);
    expect(config.authMode).toBe('development');
    expect(config.corsOrigins).toBeUndefined();
    expect(config.shutdownTimeoutMs).toBe(10_000);
    expect(config.redisKeyPrefix).toBe('adoption:');
    expect(config.sendTimeoutMs).toBe(30_000);
    expect(config.listCacheBytes).toBe(64 * 1024 * 1024);
    expect(config.listCacheTtlMs).toBe(1_000);
    expect(config.maxStreamedLists).toBe(8);
  });

  it('reads CORS origins as *, or a list with spaces trimmed', () => {
    expect(loadAppConfig({ CORS_ORIGINS: '*' }).corsOrigins).toBe('*');
    expect(loadAppConfig({ CORS_ORIGINS: 'https://a.example, http://localhost:5173' }).corsOrigins).toEqual([
      'https://a.example',
      'http://localhost:5173',
    ]);
  });

  it('trusts no proxy by default, or a hop count, or a list of addresses, subnets and ranges', () => {
    expect(loadAppConfig({}).trustProxy).toBe(false);
    expect(loadAppConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadAppConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadAppConfig({ TRUST_PROXY: ' 10.0.0.5, 10.1.0.0/16 ,fd00::/8,::1, loopback' }).trustProxy).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      'fd00::/8',
      '::1',
      'loopback',
    ]);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ AUTH_MODE: 'prod' }, 'AUTH_MODE'],
    [{ BODY_LIMIT: '-1' }, 'BODY_LIMIT'],
    [{ RATE_LIMIT_PER_MINUTE: '-1' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ RATE_LIMIT_PREMIUM_PER_DAY: '1.5' }, 'RATE_LIMIT_PREMIUM_PER_DAY'],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL'],
    [{ AUTH_MODE: 'production', ADMIN_TOKEN: 'short' }, 'ADMIN_TOKEN'],
    [{ CORS_ORIGINS: 'shelter.example' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'https://a.example/path' }, 'CORS_ORIGINS'],
    [{ SHUTDOWN_TIMEOUT_MS: 'soon' }, 'SHUTDOWN_TIMEOUT_MS'],
    [{ SEND_TIMEOUT_MS: '10' }, 'SEND_TIMEOUT_MS'],
    [{ LIST_CACHE_MB: 'lots' }, 'LIST_CACHE_MB'],
    [{ LIST_CACHE_TTL_MS: '-5' }, 'LIST_CACHE_TTL_MS'],
    [{ MAX_STREAMED_LISTS: '0' }, 'MAX_STREAMED_LISTS'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '-1' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '101' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.300' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.1,,10.0.0.2' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'proxy.internal' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'fd00::/129' }, 'TRUST_PROXY'],
    [{ WEBHOOK_RETRY_SCHEDULE: '5s,soon' }, 'WEBHOOK_RETRY_SCHEDULE'],
    [{ WEBHOOK_RETRY_SCHEDULE: '8d' }, 'WEBHOOK_RETRY_SCHEDULE'],
    [{ AUTH_MODE: 'production', ADMIN_TOKEN: 'x'.repeat(32), WEBHOOK_ALLOW_PRIVATE: 'yes' }, 'WEBHOOK_ALLOW_PRIVATE'],
    [{ EVENTS_AMQP_URL: 'rabbit:5672' }, 'EVENTS_AMQP_URL'],
  ])('stops on %p naming %s', (env, variable) => {
    expect(() => loadAppConfig(env)).toThrow(`Invalid configuration: ${variable} `);
  });
});

describe('webhook settings', () => {
  it('reads the retry schedule in ms, s, m and h, and allows private receivers in development only', () => {
    expect(loadAppConfig({ WEBHOOK_RETRY_SCHEDULE: '250ms,5s,2m,1h,100' }).webhookRetryScheduleMs).toEqual([
      250, 5_000, 120_000, 3_600_000, 100,
    ]);
    expect(loadAppConfig({}).webhookRetryScheduleMs).toEqual([
      5_000, 30_000, 120_000, 600_000, 3_600_000, 21_600_000, 43_200_000,
    ]);
    expect(loadAppConfig({}).webhookAllowPrivate).toBe(true);
    const production = { AUTH_MODE: 'production', ADMIN_TOKEN: 'x'.repeat(32) };
    expect(loadAppConfig(production).webhookAllowPrivate).toBe(false);
    expect(loadAppConfig({ ...production, WEBHOOK_ALLOW_PRIVATE: 'true' }).webhookAllowPrivate).toBe(true);
  });
});

describe('rate-limit tiers', () => {
  it('uses the contract tiers, the free tier for anonymous callers in production, and 0 as unlimited', () => {
    const config = loadAppConfig({
      AUTH_MODE: 'production',
      ADMIN_TOKEN: 'x'.repeat(32),
      RATE_LIMIT_PREMIUM_PER_DAY: '0',
    });
    expect(config.rateLimit).toEqual({ perMinute: 60, perDay: 1000 });
    expect(config.tiers).toEqual({
      free: { perMinute: 60, perDay: 1000 },
      standard: { perMinute: 300, perDay: 10000 },
      premium: { perMinute: 1000, perDay: undefined },
      enterprise: { perMinute: undefined, perDay: undefined },
    });
  });

  it('lets nobody be strictly limited in development by default', () => {
    expect(loadAppConfig({}).rateLimit).toEqual({ perMinute: 1_000_000, perDay: 100_000_000 });
  });
});
