/**
 * The global pipe for bodies and query strings. It reports every problem at once, in the
 * contract's order: unknown fields first (in the order they were sent, top level before
 * nested), then the DTO's fields in declaration order, which is the contract's table order.
 */
import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { getMetadataStorage, ValidationTypes, type ValidationError, validateSync } from 'class-validator';
import { LRUCache } from 'lru-cache';

import { BadRequestException, type ErrorDetail, ValidationException } from '../errors/api.exception.js';
import { Messages, Rules } from '../errors/messages.js';
import { COMPLETE_MESSAGE, isPlainObject, NESTED_OBJECT, OWN_RULE } from './rules.js';
import { stockSentence } from './stock-sentences.js';

type DtoClass = new () => object;

interface DtoShape {
  /** Field names in declaration order. */
  fields: string[];
  /** Nested DTO classes by field. */
  nested: Map<string, DtoClass>;
  /** Fields that may be omitted (`ValidateIf`, as PartialType and MayBeOmitted add); `null` there is a wrong value. */
  optional: Set<string>;
  /** Every field may be omitted (a PartialType): nested objects may then be partial too. */
  partial: boolean;
  /** For class-validator's own decorators (`@IsString`, `@Max`…): the sentence of each, by field and constraint. */
  stock: Map<string, Map<string, string>>;
}

const shapes = new WeakMap<DtoClass, DtoShape>();

/** What class-validator knows of a DTO class, read once per class. */
export function dtoShape(dto: DtoClass): DtoShape {
  let shape = shapes.get(dto);
  if (!shape) {
    const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
    const fields: string[] = [];
    const nested = new Map<string, DtoClass>();
    const optional = new Set<string>();
    const stock = new Map<string, Map<string, string>>();
    for (const entry of metadata) {
      const sentence = stockSentence(entry.name ?? entry.type, entry.constraints);
      if (sentence !== undefined) {
        const sentences = stock.get(entry.propertyName) ?? new Map<string, string>();
        sentences.set(entry.name ?? entry.type, sentence);
        stock.set(entry.propertyName, sentences);
      }
      if (!fields.includes(entry.propertyName)) {
        fields.push(entry.propertyName);
      }
      if (entry.type === ValidationTypes.CONDITIONAL_VALIDATION) {
        optional.add(entry.propertyName);
      }
      if (entry.name === NESTED_OBJECT) {
        nested.set(entry.propertyName, (entry.constraints[0] as () => DtoClass)());
      }
    }
    const partial = fields.length > 0 && fields.every((field) => optional.has(field));
    shape = { fields, nested, optional, partial, stock };
    shapes.set(dto, shape);
  }
  return shape;
}

/** Accepted query strings remembered per DTO (clients repeat the same few list queries), and their characters. */
const KEPT_QUERIES = 1_000;
const KEPT_QUERY_CHARACTERS = 1_000_000;

/** The body field that the service assigns itself and ignores when a client sends it. */
const READ_ONLY_FIELD = 'id';

@Injectable()
export class ValidationPipe implements PipeTransform {
  /**
   * Validated query DTOs by DTO and parameters. A query's validity depends on nothing else,
   * and class-validator reads the DTO's whole metadata on every call; a request that sends
   * the same parameters gets a copy of the kept instance.
   */
  private readonly queries = new WeakMap<DtoClass, LRUCache<string, object>>();

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    const dto = metadata.metatype as DtoClass | undefined;
    if (!dto || !isDtoClass(dto)) {
      return value;
    }
    if (metadata.type === 'body') {
      return this.validateBody(dto, value);
    }
    if (metadata.type === 'query') {
      return this.validQuery(dto, value as Record<string, unknown>);
    }
    return value;
  }

  private validateBody(dto: DtoClass, body: unknown): object {
    if (!isPlainObject(body)) {
      throw new BadRequestException(Messages.bodyNotObject());
    }
    const shape = dtoShape(dto);
    const unknown: ErrorDetail[] = [];
    const known = pickKnownFields(body, shape, '', unknown, true);
    const instance = toInstance(dto, known);
    const errors = validateSync(instance, { skipUndefinedProperties: shape.partial, forbidUnknownValues: false });
    const details = [
      ...unknown,
      ...describeErrors(errors, '', dto, (field) => shape.partial || shape.optional.has(field)),
    ];
    if (details.length > 0) {
      throw new ValidationException(details);
    }
    if (shape.partial && !hasContent(known)) {
      throw new BadRequestException(Messages.bodyEmpty());
    }
    return instance;
  }

  private validQuery(dto: DtoClass, query: Record<string, unknown>): object {
    let kept = this.queries.get(dto);
    if (kept === undefined) {
      kept = new LRUCache({
        max: KEPT_QUERIES,
        maxSize: KEPT_QUERY_CHARACTERS,
        sizeCalculation: (_instance, key) => Math.max(1, key.length),
      });
      this.queries.set(dto, kept);
    }
    const key = JSON.stringify(query);
    let instance = kept.get(key);
    if (instance === undefined) {
      instance = this.validateQuery(dto, query);
      kept.set(key, instance);
    }
    // Each request gets its own copy, so a service may change its query object freely.
    return Object.assign(new dto(), instance);
  }

  private validateQuery(dto: DtoClass, query: Record<string, unknown>): object {
    const shape = dtoShape(dto);
    const unknown: ErrorDetail[] = [];
    const structural = new Map<string, ErrorDetail>();
    const values: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(query)) {
      const name = /^([^[\]]*)\[/.exec(key)?.[1] ?? key;
      if (!shape.fields.includes(name)) {
        if (!unknown.some((detail) => detail.field === name)) {
          unknown.push({ field: name, message: Messages.unknownQueryParameter(name) });
        }
      } else if (name !== key || Array.isArray(value) || name in values) {
        structural.set(name, { field: name, message: Messages.invalidValue(name, Rules.singleQueryValue()) });
      } else {
        values[name] = value;
      }
    }
    const instance = toInstance(dto, values);
    const errors = validateSync(instance, { skipUndefinedProperties: true, forbidUnknownValues: false });
    const byField = new Map(describeErrors(errors, '', dto, () => true).map((detail) => [detail.field, detail]));
    const fieldDetails = shape.fields.flatMap((field) => {
      const detail = structural.get(field) ?? byField.get(field);
      return detail ? [detail] : [];
    });
    const details = [...unknown, ...fieldDetails];
    if (details.length === 0) {
      return instance;
    }
    // A lone problem whose message is a sentence of its own (a malformed id) becomes the message.
    const lone =
      details.length === 1 &&
      unknown.length === 0 &&
      !structural.has(details[0].field) &&
      isComplete(errors, details[0].field);
    throw new ValidationException(details, lone ? details[0].message : Messages.invalidQuery());
  }
}

function isDtoClass(metatype: unknown): metatype is DtoClass {
  return typeof metatype === 'function' && ![String, Number, Boolean, Object, Array].includes(metatype as never);
}

/** What a nested DTO's field holds instead of an array: no object either, and nothing to walk into. */
const NOT_AN_OBJECT: readonly unknown[] = Object.freeze([]);

/**
 * The DTO instance class-validator checks, nested DTOs included. Built from the DTO's shape
 * rather than by walking the values, so a value nested 40,000 levels deep is just a wrong value.
 * An array where a nested object belongs is handed over empty: class-validator's nested
 * validation walks into arrays element by element, as deep as they go (a thousand levels
 * exhaust the stack), and an array is that field's wrong value whatever it holds.
 */
function toInstance(dto: DtoClass, values: Record<string, unknown>): object {
  const nested = dtoShape(dto).nested;
  const instance = new dto() as Record<string, unknown>;
  for (const [key, value] of Object.entries(values)) {
    const nestedDto = nested.get(key);
    if (nestedDto === undefined) {
      instance[key] = value;
    } else {
      instance[key] = isPlainObject(value)
        ? toInstance(nestedDto, value)
        : Array.isArray(value)
          ? NOT_AN_OBJECT
          : value;
    }
  }
  return instance;
}

/** Copies the fields the DTO knows, recording the unknown ones (in the order sent) on the way. */
function pickKnownFields(
  body: Record<string, unknown>,
  shape: DtoShape,
  prefix: string,
  unknown: ErrorDetail[],
  topLevel: boolean,
): Record<string, unknown> {
  const known: Record<string, unknown> = {};
  const nestedBodies: Array<[string, Record<string, unknown>, DtoShape]> = [];
  for (const [key, value] of Object.entries(body)) {
    if (topLevel && key === READ_ONLY_FIELD) {
      continue;
    }
    if (!shape.fields.includes(key)) {
      unknown.push({ field: prefix + key, message: Messages.unknownField(prefix + key) });
      continue;
    }
    const nested = shape.nested.get(key);
    if (nested && isPlainObject(value)) {
      nestedBodies.push([key, value, dtoShape(nested)]);
    } else {
      known[key] = value;
    }
  }
  for (const [key, value, nestedShape] of nestedBodies) {
    known[key] = pickKnownFields(value, nestedShape, `${prefix}${key}.`, unknown, false);
  }
  // Keep declaration order for the instance, whatever order the client used.
  return Object.fromEntries(shape.fields.filter((field) => field in known).map((field) => [field, known[field]]));
}

/** Turns class-validator's tree into the contract's details, in declaration order. */
function describeErrors(
  errors: ValidationError[],
  prefix: string,
  dto: DtoClass,
  isOptional: (field: string) => boolean,
): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const { stock, nested } = dtoShape(dto);
  for (const error of errors) {
    const field = prefix + error.property;
    const failed = Object.entries(error.constraints ?? {}).filter(
      ([name]) => name !== ValidationTypes.NESTED_VALIDATION,
    );
    if (failed.length > 0) {
      const missing = error.value === undefined || (error.value === null && !isOptional(field));
      if (missing) {
        details.push({ field, message: Messages.missingField(field) });
      } else {
        const [name, message] = failed[0];
        // The project's rules carry their sentence; class-validator's own decorators get one here.
        const sentence = isOwnRule(error, name)
          ? message
          : (stock.get(error.property)?.get(name) ?? `Must satisfy the rule '${name}'.`);
        const complete = isCompleteMessage(error, name);
        details.push({ field, message: complete ? sentence : Messages.invalidValue(field, sentence) });
      }
    } else if (error.children?.length) {
      const child = nested.get(error.property) ?? dto;
      // Inside a partial body, nested fields are as optional as their parent.
      details.push(...describeErrors(error.children, `${field}.`, child, () => isOptional(field)));
    }
  }
  return details;
}

function isComplete(errors: ValidationError[], field: string): boolean {
  const error = errors.find((candidate) => candidate.property === field);
  return Object.keys(error?.constraints ?? {}).some((name) => error !== undefined && isCompleteMessage(error, name));
}

/** True when the body names at least one field, counting a nested object only by what it holds. */
function hasContent(known: Record<string, unknown>): boolean {
  return Object.values(known).some((value) => !isPlainObject(value) || hasContent(value));
}

/** Whether a failed rule is one of the project's own (see rules.ts), whose message is the contract's sentence. */
function isOwnRule(error: ValidationError, constraint: string): boolean {
  const context = error.contexts?.[constraint] as Record<string, unknown> | undefined;
  return context?.[OWN_RULE] === true;
}

/** Whether a failed rule's message is a whole sentence (see rules.ts), not an "Invalid value" ending. */
function isCompleteMessage(error: ValidationError, constraint: string): boolean {
  const context = error.contexts?.[constraint] as Record<string, unknown> | undefined;
  return context?.[COMPLETE_MESSAGE] === true;
}
