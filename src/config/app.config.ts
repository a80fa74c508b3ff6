/**
 * The service's settings, read from the environment once at boot and validated:
 * a wrong value stops the process with a message naming the variable.
 */
import { isIP } from 'node:net';

import { registerAs } from '@nestjs/config';

export type AuthMode = 'development' | 'production';

export type HttpAdapterName = 'express' | 'fastify';

export interface AppConfig {
  port: number;
  /** The address to listen on. */
  host: string;
  /** The HTTP layer under Nest: `express` (default) or `fastify`. */
  httpAdapter: HttpAdapterName;
  databaseUrl: string;
  bodyLimit: number;
  authMode: AuthMode;
  adminToken: string | undefined;
  /** Anonymous callers' limits (and unknown tokens' in development). */
  rateLimit: WindowLimits;
  /** Each issued-token tier's limits; `undefined` is unlimited. */
  tiers: Record<TierName, WindowLimits>;
  redisUrl: string | undefined;
  /** Prefix of the rate-limit keys in Redis, so deployments can share one server. */
  redisKeyPrefix: string;
  logLevel: string;
  /** `json` (one JSON object per line) or `pretty` (for people). */
  logFormat: 'json' | 'pretty';
  /** Origins allowed to call from a browser: `undefined` (CORS off), `'*'`, or a list. */
  corsOrigins: '*' | string[] | undefined;
  /** How long a SIGTERM waits for requests in flight before closing their connections. */
  shutdownTimeoutMs: number;
  /** A connection on which nothing moves for this long (an answer the client does not read) is closed. */
  sendTimeoutMs: number;
  /** Bytes of whole list answers kept, per instance, for every request for the same data. */
  listCacheBytes: number;
  /** On PostgreSQL, how long a kept list answer may lag behind other instances' writes. */
  listCacheTtlMs: number;
  /** Lists too long to keep that may be streamed at once; more answer 503. */
  maxStreamedLists: number;
  /**
   * Whose `X-Forwarded-For` is believed: nobody (`false`, the default), the nearest `n`
   * proxies (a hop count), or proxies at these addresses, subnets (CIDR) or named ranges.
   */
  trustProxy: false | number | string[];
  /** Delays between attempts of a webhook delivery, in ms; the last repeats until three days have passed. */
  webhookRetryScheduleMs: number[];
  /** Whether webhook URLs may lead to loopback, private, link-local or metadata addresses (always so in development). */
  webhookAllowPrivate: boolean;
  /** With it, every event is also published to RabbitMQ (`adoption.events`, a durable topic exchange). */
  eventsAmqpUrl: string | undefined;
}

type Env = Record<string, string | undefined>;

export const TIER_NAMES = ['free', 'standard', 'premium', 'enterprise'] as const;
export type TierName = (typeof TIER_NAMES)[number];

export interface WindowLimits {
  perMinute: number | undefined;
  perDay: number | undefined;
}

/** Requests per minute / per day (docs/api.md §12); 0 means unlimited. */
const TIER_DEFAULTS: Record<TierName, [number, number]> = {
  free: [60, 1_000],
  standard: [300, 10_000],
  premium: [1_000, 100_000],
  enterprise: [0, 0],
};

/** In development nobody is strictly limited. */
const DEVELOPMENT_ANONYMOUS: [number, number] = [1_000_000, 100_000_000];

export const DEFAULTS = {
  PORT: '3000',
  HOST: '0.0.0.0',
  DATABASE_URL: 'sqlite:./data/adoption.sqlite',
  BODY_LIMIT: '102400',
  AUTH_MODE: 'development',
  LOG_LEVEL: 'info',
  REDIS_KEY_PREFIX: 'adoption:',
  SHUTDOWN_TIMEOUT_MS: '10000',
  HTTP_ADAPTER: 'express',
  SEND_TIMEOUT_MS: '30000',
  LIST_CACHE_MB: '64',
  LIST_CACHE_TTL_MS: '1000',
  MAX_STREAMED_LISTS: '8',
  WEBHOOK_RETRY_SCHEDULE: '5s,30s,2m,10m,1h,6h,12h',
  WEBHOOK_ALLOW_PRIVATE: 'false',
} as const;

export class ConfigError extends Error {
  constructor(variable: string, expectation: string, value: string) {
    super(`Invalid configuration: ${variable} ${expectation} (got ${JSON.stringify(value)}).`);
    this.name = 'ConfigError';
  }
}

function read(env: Env, name: keyof typeof DEFAULTS): string {
  const value = env[name];
  return value === undefined || value === '' ? DEFAULTS[name] : value;
}

function integer(env: Env, name: keyof typeof DEFAULTS, min: number, max: number): number {
  return parseInteger(name, read(env, name), min, max);
}

function parseInteger(name: string, raw: string, min: number, max: number): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max}`, raw);
  }
  return value;
}

function oneOf<T extends string>(env: Env, name: keyof typeof DEFAULTS, values: readonly T[]): T {
  const raw = read(env, name);
  if (!(values as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${values.join(', ')}`, raw);
  }
  return raw as T;
}

function databaseUrl(env: Env): string {
  const raw = read(env, 'DATABASE_URL');
  if (!/^(sqlite:.+|postgres(ql)?:\/\/.+)$/.test(raw)) {
    throw new ConfigError('DATABASE_URL', 'must be sqlite:<path>, sqlite::memory: or postgres://…', raw);
  }
  return raw;
}

function optionalUrl(env: Env, name: string, pattern: RegExp, expectation: string): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') {
    return undefined;
  }
  if (!pattern.test(raw)) {
    throw new ConfigError(name, expectation, raw);
  }
  return raw;
}

/** `LOG_FORMAT`: `json` or `pretty`; pretty by default in development, JSON in production. */
function logFormat(env: Env, authMode: AuthMode): AppConfig['logFormat'] {
  const raw = env.LOG_FORMAT;
  if (raw === undefined || raw === '') {
    return authMode === 'production' ? 'json' : 'pretty';
  }
  if (raw !== 'json' && raw !== 'pretty') {
    throw new ConfigError('LOG_FORMAT', 'must be one of json, pretty', raw);
  }
  return raw;
}

/** `CORS_ORIGINS`: empty (off), `*`, or a comma-separated list of `http(s)://host[:port]` origins. */
function corsOrigins(env: Env): AppConfig['corsOrigins'] {
  const raw = env.CORS_ORIGINS?.trim();
  if (raw === undefined || raw === '') {
    return undefined;
  }
  if (raw === '*') {
    return '*';
  }
  const origins = raw.split(',').map((origin) => origin.trim());
  for (const origin of origins) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new ConfigError('CORS_ORIGINS', 'must be *, or origins like https://example.org separated by commas', raw);
    }
  }
  return origins;
}

/** proxy-addr's names for ranges, understood by Express and Fastify alike. */
const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];
const MAX_PROXY_HOPS = 100;

/**
 * `TRUST_PROXY`: empty (off), a hop count (`1`: the nearest proxy), or a comma-separated list
 * of addresses (`10.0.0.5`), subnets (`10.0.0.0/8`, `fd00::/8`) and range names (`loopback`).
 */
function trustProxy(env: Env): AppConfig['trustProxy'] {
  const raw = env.TRUST_PROXY?.trim();
  if (raw === undefined || raw === '') {
    return false;
  }
  const expectation = `must be a hop count from 0 to ${MAX_PROXY_HOPS}, or proxy addresses, subnets (CIDR) or ${PROXY_RANGES.join(', ')} separated by commas`;
  if (/^\d+$/.test(raw)) {
    const hops = parseInteger('TRUST_PROXY', raw, 0, MAX_PROXY_HOPS);
    return hops === 0 ? false : hops;
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split('/');
    const family = isIP(address);
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 6 ? 128 : 32));
    if (!PROXY_RANGES.includes(entry) && (family === 0 || !prefixOk || extra !== undefined)) {
      throw new ConfigError('TRUST_PROXY', expectation, raw);
    }
  }
  return entries;
}

/** `<PREFIX>_PER_MINUTE` and `<PREFIX>_PER_DAY`; 0 means unlimited. */
function windowLimits(env: Env, prefix: string, [minute, day]: [number, number]): WindowLimits {
  const limit = (suffix: string, fallback: number) => {
    const name = `${prefix}_${suffix}`;
    const raw = env[name];
    const value = raw === undefined || raw === '' ? fallback : parseInteger(name, raw, 0, Number.MAX_SAFE_INTEGER);
    return value === 0 ? undefined : value;
  };
  return { perMinute: limit('PER_MINUTE', minute), perDay: limit('PER_DAY', day) };
}

/** Parses and validates the environment; throws a ConfigError naming the first bad variable. */
export function loadAppConfig(env: Env): AppConfig {
  const authMode = oneOf(env, 'AUTH_MODE', ['development', 'production'] as const);
  const adminToken = env.ADMIN_TOKEN === '' ? undefined : env.ADMIN_TOKEN;
  if (authMode === 'production' && (adminToken === undefined || [...adminToken].length < 32)) {
    throw new ConfigError('ADMIN_TOKEN', 'must be set to at least 32 characters when AUTH_MODE=production', '<hidden>');
  }
  return {
    port: integer(env, 'PORT', 0, 65535),
    host: read(env, 'HOST'),
    httpAdapter: oneOf(env, 'HTTP_ADAPTER', ['express', 'fastify'] as const),
    databaseUrl: databaseUrl(env),
    bodyLimit: integer(env, 'BODY_LIMIT', 1, 100 * 1024 * 1024),
    authMode,
    adminToken,
    rateLimit: windowLimits(env, 'RATE_LIMIT', authMode === 'production' ? TIER_DEFAULTS.free : DEVELOPMENT_ANONYMOUS),
    tiers: Object.fromEntries(
      TIER_NAMES.map((tier) => [tier, windowLimits(env, `RATE_LIMIT_${tier.toUpperCase()}`, TIER_DEFAULTS[tier])]),
    ) as Record<TierName, WindowLimits>,
    redisUrl: optionalUrl(env, 'REDIS_URL', /^rediss?:\/\/.+/, 'must be a redis:// or rediss:// URL'),
    redisKeyPrefix: read(env, 'REDIS_KEY_PREFIX'),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
    logFormat: logFormat(env, authMode),
    corsOrigins: corsOrigins(env),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 0, 600_000),
    sendTimeoutMs: integer(env, 'SEND_TIMEOUT_MS', 100, 3_600_000),
    listCacheBytes: integer(env, 'LIST_CACHE_MB', 0, 65_536) * 1024 * 1024,
    listCacheTtlMs: integer(env, 'LIST_CACHE_TTL_MS', 0, 3_600_000),
    maxStreamedLists: integer(env, 'MAX_STREAMED_LISTS', 1, 10_000),
    trustProxy: trustProxy(env),
    webhookRetryScheduleMs: retrySchedule(env),
    eventsAmqpUrl: optionalUrl(env, 'EVENTS_AMQP_URL', /^amqps?:\/\/.+/, 'must be an amqp:// or amqps:// URL'),
    webhookAllowPrivate:
      authMode === 'development' || oneOf(env, 'WEBHOOK_ALLOW_PRIVATE', ['true', 'false'] as const) === 'true',
  };
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 };

/** `WEBHOOK_RETRY_SCHEDULE`: comma-separated durations (`500ms`, `5s`, `2m`, `1h`; a bare number is ms). */
function retrySchedule(env: Env): number[] {
  const raw = read(env, 'WEBHOOK_RETRY_SCHEDULE');
  const delays = raw.split(',').map((part) => {
    const match = /^\s*(\d{1,9})(ms|s|m|h)?\s*$/.exec(part);
    return match === null ? NaN : Number(match[1]) * DURATION_UNITS[match[2] ?? 'ms'];
  });
  if (delays.some((delay) => !Number.isSafeInteger(delay) || delay > 7 * 86_400_000)) {
    throw new ConfigError('WEBHOOK_RETRY_SCHEDULE', 'must be comma-separated durations such as 5s,30s,2m,1h', raw);
  }
  return delays;
}

/** The namespaced configuration provider; inject with `@Inject(appConfig.KEY)`. */
export const appConfig = registerAs('app', (): AppConfig => loadAppConfig(process.env));
