/** Recognises driver errors that mean "the database cannot be reached or is busy", as opposed to bugs. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i,
  /connection timeout/i,
  /Client has encountered a connection error/i,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const { code, message, driverError, cause } = current as {
      code?: unknown;
      message?: unknown;
      driverError?: unknown;
      cause?: unknown;
    };
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) {
      return true;
    }
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) {
      return true;
    }
    current = driverError ?? cause;
  }
  return false;
}

/** Whether the error, or a driver error it wraps, carries one of these codes. */
function hasDriverCode(error: unknown, codes: readonly string[]): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const { code, driverError } = current as { code?: unknown; driverError?: unknown };
    if (typeof code === 'string' && codes.includes(code)) {
      return true;
    }
    current = driverError;
  }
  return false;
}

/**
 * A write refused because a foreign key points at a missing row, or a row is still referenced.
 * SQLite reports a deferred check as SQLITE_CONSTRAINT_FOREIGNKEY, but a key declared
 * `ON DELETE RESTRICT` (pets' shelter_id) refuses at once, as SQLITE_CONSTRAINT_TRIGGER with the
 * same message (the code other triggers' aborts carry too).
 */
export function isForeignKeyViolation(error: unknown): boolean {
  return (
    hasDriverCode(error, ['SQLITE_CONSTRAINT_FOREIGNKEY', '23503']) ||
    (hasDriverCode(error, ['SQLITE_CONSTRAINT_TRIGGER']) && /FOREIGN KEY constraint failed/.test(String(error)))
  );
}

/** A duplicate primary or unique key (SQLite or PostgreSQL). */
export function isUniqueViolation(error: unknown): boolean {
  return hasDriverCode(error, ['SQLITE_CONSTRAINT_PRIMARYKEY', 'SQLITE_CONSTRAINT_UNIQUE', '23505']);
}
