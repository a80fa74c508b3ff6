/**
 * Query filters as TypeORM find operators: any of several values, inclusive ranges, and
 * case-insensitive substrings (with `%` and `_` taken literally), the same on SQLite and
 * PostgreSQL.
 */
import { Between, type FindOperator, In, LessThanOrEqual, MoreThanOrEqual, Raw } from 'typeorm';

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

/**
 * Contains `text`, ignoring case. On PostgreSQL `ILIKE`, which the trigram indexes serve; on
 * SQLite `LIKE`, which ignores the case of ASCII letters. `parameter` names the pattern in
 * the SQL, so that two such filters in one query stay apart.
 */
export function containing(text: string, parameter: string, postgres: boolean): FindOperator<string> {
  return Raw((column) => `${column} ${likeOperator(postgres)} :${parameter} ESCAPE '\\'`, {
    [parameter]: containsPattern(text),
  }) as FindOperator<string>;
}

/** The LIKE pattern of "contains `text`": `%`, `_` and the backslash escaped with a backslash. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (special) => `\\${special}`)}%`;
}

/** The case-insensitive LIKE of each database. */
export function likeOperator(postgres: boolean): string {
  return postgres ? 'ILIKE' : 'LIKE';
}
