/**
 * The sentences of class-validator's own decorators, in the contract's style, so that a module
 * may use `@IsString()`, `@IsInt()`, `@Min(1)`, `@IsIn([...])`, `@IsEmail()`, `@Length(1, 50)`…
 * and its 400s still read `Invalid value for 'x'. Must be …`. Decorators not listed here get
 * a sentence naming their rule.
 */
import { ValidationTypes } from 'class-validator';

import { Rules } from '../errors/messages.js';

type Constraints = unknown[] | undefined;

/** A constraint's value as written in a sentence (numbers, strings, patterns). */
const text = (value: unknown): string => (value instanceof RegExp ? value.toString() : (JSON.stringify(value) ?? ''));

const SENTENCES: Record<string, (constraints: unknown[]) => string> = {
  isString: () => 'Must be a string.',
  isInt: () => 'Must be an integer.',
  isNumber: () => 'Must be a number.',
  isBoolean: () => Rules.boolean(),
  isEmail: () => Rules.email(),
  isIn: ([values]) => Rules.oneOf((values as unknown[]).map(String)),
  isEnum: ([entity]) => Rules.oneOf(Object.values(entity as object).map(String)),
  min: ([min]) => `Must be at least ${text(min)}.`,
  max: ([max]) => `Must be at most ${text(max)}.`,
  isPositive: () => 'Must be a positive number.',
  isNotEmpty: () => 'Must not be empty.',
  isLength: ([min, max]) =>
    max === undefined
      ? `Must be at least ${text(min)} characters long.`
      : `Must be ${text(min)} to ${text(max)} characters long.`,
  minLength: ([min]) => `Must be at least ${text(min)} characters long.`,
  maxLength: ([max]) => `Must be at most ${text(max)} characters long.`,
  isArray: () => 'Must be an array.',
  arrayMinSize: ([min]) => `Must have at least ${text(min)} items.`,
  arrayMaxSize: ([max]) => `Must have at most ${text(max)} items.`,
  isDateString: () => 'Must be an ISO 8601 date.',
  isISO8601: () => 'Must be an ISO 8601 date.',
  isUrl: () => 'Must be a URL.',
  isUUID: () => 'Must be a UUID.',
  matches: ([pattern]) => `Must match the pattern ${text(pattern)}.`,
};

/** Types of metadata that are no rule of their own (conditions, nesting, whitelisting). */
const NOT_RULES = new Set<string>([
  ValidationTypes.CONDITIONAL_VALIDATION,
  ValidationTypes.NESTED_VALIDATION,
  ValidationTypes.WHITELIST,
  ValidationTypes.IS_DEFINED,
  ValidationTypes.PROMISE_VALIDATION,
]);

/**
 * The sentence of a stock class-validator constraint, or undefined for the project's own
 * rules (they carry theirs) and for metadata that is no rule.
 */
export function stockSentence(name: string, constraints: Constraints): string | undefined {
  if (NOT_RULES.has(name)) {
    return undefined;
  }
  const sentence = SENTENCES[name];
  return sentence === undefined ? undefined : sentence(constraints ?? []);
}
