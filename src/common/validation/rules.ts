/**
 * Field rules as class-validator decorators. Each rule carries the sentence that ends its
 * "Invalid value for '<field>'. …" message; the validation pipe puts field and sentence
 * together, so a DTO states a rule once and the contract's message follows from it.
 * Each rule also describes itself to OpenAPI (type, bounds, the same sentence), so the
 * published schema cannot drift from what is enforced.
 */
import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { ValidateBy, ValidateIf, ValidateNested, type ValidationArguments } from 'class-validator';

import { Messages, type ResourceName, Rules } from '../errors/messages.js';

/** Marks a rule whose message is a whole sentence of its own rather than an "Invalid value" sentence. */
export const COMPLETE_MESSAGE = 'completeMessage';
/** Marks the project's own rules, whose messages are already the contract's sentences. */
export const OWN_RULE = 'ownRule';
export const NESTED_OBJECT = 'nestedObject';

const PHONE = /^\+1-[0-9]{3}-[0-9]{3}-[0-9]{4}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;
/** A path-style id: a positive integer without sign or leading zeros, at most 16 digits. */
export const ID_TEXT = /^[1-9][0-9]{0,15}$/;

/**
 * Schema patterns for what the service stores: no U+0000 anywhere, and, for the texts that
 * must not be blank, something besides white space (JavaScript's `\s` is what `trim` removes).
 */
const NO_NUL = String.raw`^[^\u0000]*$`;
const NOT_BLANK = String.raw`^(?!\s*$)[^\u0000]*$`;
const EMAIL_PATTERN = String.raw`^[^\s@\u0000]+@[^\s@\u0000]+\.[^\s@\u0000]+$`;

/**
 * An id as the OpenAPI document gives it: an integer of 1 to 16 digits, which is what
 * `ID_TEXT` accepts once an integer is written in plain digits (10^16 is exact in a double).
 */
export function idSchema(resource: ResourceName) {
  return {
    type: 'integer',
    format: 'int64',
    minimum: 1,
    maximum: 1e16,
    exclusiveMaximum: true,
    description:
      `The ${resource}'s id: a positive integer in plain digits, without sign, leading zeros or decimals ` +
      `(\`${ID_TEXT.source}\`); anything else is refused with 400.`,
  } as const;
}

type Sentence = string | ((value: unknown) => string);

type Schema = ApiPropertyOptions & { description?: string };

function rule(
  name: string,
  sentence: Sentence,
  test: (value: unknown) => boolean,
  schema: Schema,
  complete = false,
): PropertyDecorator {
  return applyDecorators(
    ValidateBy(
      {
        name,
        validator: {
          validate: (value: unknown) => test(value),
          defaultMessage: (args?: ValidationArguments) =>
            typeof sentence === 'function' ? sentence(args?.value) : sentence,
        },
      },
      { context: { [OWN_RULE]: true, [COMPLETE_MESSAGE]: complete } },
    ),
    ApiProperty({ description: typeof sentence === 'string' ? sentence : undefined, ...schema }),
  );
}

/** Length in Unicode code points, not UTF-16 units. */
export function codePointLength(value: string): number {
  let length = 0;
  for (const _ of value) {
    length++;
  }
  return length;
}

/** A string the service can store: valid Unicode and no U+0000. */
export function isCleanString(value: unknown): value is string {
  return typeof value === 'string' && value.isWellFormed() && !value.includes('\u0000');
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return false;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** A string of 1..max characters that is not only white space. */
export const IsText = (max: number) =>
  rule('isText', Rules.text(max), (v) => isCleanString(v) && v.trim() !== '' && codePointLength(v) <= max, {
    type: 'string',
    minLength: 1,
    maxLength: max,
    pattern: NOT_BLANK,
  });

/** A string of 0..max characters. */
export const IsOptionalText = (max: number) =>
  rule('isOptionalText', Rules.optionalText(max), (v) => isCleanString(v) && codePointLength(v) <= max, {
    type: 'string',
    maxLength: max,
    pattern: NO_NUL,
  });

/** One of `values`; `alsoAccepted` pass too (another rule decides when) without being named in the message. */
export const IsOneOf = (values: readonly string[], alsoAccepted: readonly string[] = []) =>
  rule(
    'isOneOf',
    Rules.oneOf(values),
    (v) => typeof v === 'string' && (values.includes(v) || alsoAccepted.includes(v)),
    { type: 'string', enum: [...values, ...alsoAccepted] },
  );

/**
 * A query value naming one or more of `values`, separated by commas (`cat,dog`); each must
 * be one of the allowed values, which is what its message says. The document calls it an
 * array sent as one comma-separated value (`style: form`, `explode: false`).
 */
export const IsOneOrMoreOf = (values: readonly string[]) =>
  rule(
    'isOneOrMoreOf',
    Rules.oneOf(values),
    (v) => typeof v === 'string' && v.split(',').every((item) => values.includes(item)),
    {
      type: 'array',
      items: { type: 'string', enum: [...values] },
      minItems: 1,
      description: `${Rules.oneOf(values)} Several, separated by commas (\`${values.slice(0, 2).join(',')}\`), match any of them.`,
    },
  );

/** A query value that is an integer in [min, max], written in plain digits (`0`, `25`). */
export const IsIntegerText = (min: number, max: number) =>
  rule(
    'isIntegerText',
    Rules.integerRange(min, max),
    (v) => typeof v === 'string' && /^(0|[1-9][0-9]{0,15})$/.test(v) && Number(v) >= min && Number(v) <= max,
    { type: 'integer', minimum: min, maximum: max },
  );

/** A JSON number that is an integer by value (1.0 and 1e2 count) within [min, max]. */
export const IsIntegerIn = (min: number, max: number) =>
  rule(
    'isIntegerIn',
    Rules.integerRange(min, max),
    (v) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max,
    { type: 'integer', minimum: min, maximum: max },
  );

export const IsBool = () => rule('isBool', Rules.boolean(), (v) => typeof v === 'boolean', { type: 'boolean' });

/** The id of another resource, written as a JSON integer ≥ 1. */
export const IsPositiveInteger = () =>
  rule('isPositiveInteger', Rules.positiveInteger(), (v) => Number.isInteger(v) && (v as number) >= 1, {
    type: 'integer',
    minimum: 1,
  });

/** `example` documents a body field; a query filter has none, since "Try it out" would send it. */
export const IsCalendarDate = (example: string | null = '2024-02-29') =>
  rule('isCalendarDate', Rules.date(), isCalendarDate, {
    type: 'string',
    format: 'date',
    ...(example === null ? {} : { example }),
  });

export const IsPhone = () =>
  rule('isPhone', Rules.phone(), (v) => typeof v === 'string' && PHONE.test(v), {
    type: 'string',
    pattern: PHONE.source,
    example: '+1-555-123-4567',
  });

export const IsEmailAddress = () =>
  rule(
    'isEmailAddress',
    Rules.email(),
    (v) => isCleanString(v) && codePointLength(v) >= 3 && codePointLength(v) <= 254 && EMAIL.test(v),
    { type: 'string', minLength: 3, maxLength: 254, pattern: EMAIL_PATTERN, example: 'hello@happytails.org' },
  );

/** An array of at most maxItems strings, each 1..maxLength characters. */
export const IsTextList = (maxItems: number, maxLength: number) =>
  rule(
    'isTextList',
    Rules.textList(maxItems),
    (v) =>
      Array.isArray(v) &&
      v.length <= maxItems &&
      v.every((item) => isCleanString(item) && item !== '' && codePointLength(item) <= maxLength),
    { type: 'array', items: { type: 'string', minLength: 1, maxLength, pattern: NO_NUL }, maxItems },
  );

/** A rule with its own test, sentence and schema (for formats a single field owns, such as the fee range). */
export const Satisfies = (
  name: string,
  test: (value: unknown) => boolean,
  sentence: (value: unknown) => string,
  schema: Schema,
) => rule(name, sentence, test, schema);

/** A path-style id given as text (`^[1-9][0-9]{0,15}$`), with the resource's own "Invalid … 'id'" message. */
export const IsIdText = (resource: ResourceName) =>
  rule('isIdText', Messages.invalidId(resource), (v) => isIdText(v), idSchema(resource), true);

export function isIdText(value: unknown): value is string {
  return typeof value === 'string' && ID_TEXT.test(value);
}

/**
 * A nested object validated by its own DTO. The nested class travels in the rule's
 * constraints so that the pipe can list its fields (and PartialType copies it along).
 */
export function IsNestedObject(nested: () => new () => object, fields: readonly string[]): PropertyDecorator {
  const objectRule = ValidateBy(
    {
      name: NESTED_OBJECT,
      constraints: [nested],
      // By now the value is an instance of the nested class when the client sent an object.
      validator: { validate: (v: unknown) => v instanceof nested(), defaultMessage: () => Rules.object(fields) },
    },
    { context: { [OWN_RULE]: true } },
  );
  return applyDecorators(
    objectRule,
    ValidateNested(),
    // A lazy type: the property name `type` gives the arrow function the name swagger looks for.
    ApiProperty({ type: () => nested(), description: Rules.object(fields) }),
  );
}

export function isCalendarDate(value: unknown): boolean {
  if (typeof value !== 'string') {
    return false;
  }
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) {
    return false;
  }
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) {
    return false;
  }
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate();
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return day <= (month === 2 ? (leap ? 29 : 28) : daysInMonth);
}

/** A field that may be left out of an otherwise complete body; when sent, its rule applies (and `null` is wrong). */
export const MayBeOmitted = () =>
  applyDecorators(
    ValidateIf((_object: object, value: unknown) => value !== undefined),
    ApiProperty({ required: false }),
  );
