/**
 * Query filters: any of several values and inclusive ranges as TypeORM find operators, and
 * the LIKE pieces of case-insensitive substring tests (`%` and `_` taken literally), the
 * same on SQLite and PostgreSQL.
 */
import { Between, type FindOperator, In, LessThanOrEqual, MoreThanOrEqual } from 'typeorm';

/** `cat` or `cat,dog`: one value, or any of them. */
export function anyOf(text: string): string | FindOperator<string> {
  const values = [...new Set(text.split(','))];
  return values.length === 1 ? values[0] : In(values);
}

/** Between `min` and `max`, both included; either may be open. */
export function within<V extends string | number>(min?: V, max?: V): FindOperator<V> | undefined {
  if (min !== undefined && max !== undefined) {
    return Between(min, max);
  }
  if (min !== undefined) {
    return MoreThanOrEqual(min);
  }
  return max === undefined ? undefined : LessThanOrEqual(max);
}

/** The LIKE pattern of "contains `text`": `%`, `_` and the backslash escaped with a backslash. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (special) => `\\${special}`)}%`;
}

/** The case-insensitive LIKE of each database: `LIKE` ignores the case of ASCII letters on SQLite. */
export function likeOperator(postgres: boolean): string {
  return postgres ? 'ILIKE' : 'LIKE';
}
