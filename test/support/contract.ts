/**
 * Checks HTTP exchanges against the OpenAPI document, in both directions: is the request
 * valid by the document (openapi-request-validator), and does the answer match it (status
 * declared, required headers present and well formed, body by openapi-response-validator).
 * Parameters arrive as text; they are read as the document's `style` says (`form` lists
 * without `explode` are one comma-separated value), and an integer must be written as one
 * (`12`, not `012`, `+12` or `1.2e1`), as JSON writes it. Rules between query parameters
 * that a schema cannot hold are read from the words of their descriptions, as a reader
 * would: "Must be given together with 'limit'", "Must not be given together with 'limit'",
 * where a parameter described as "The same as `limit`" counts as `limit`.
 */
import { Ajv } from 'ajv';
import requestValidatorModule from 'openapi-request-validator';
import responseValidatorModule from 'openapi-response-validator';
import type { OpenAPIV3 } from 'openapi-types';

const { default: RequestValidator } = requestValidatorModule;
const { default: ResponseValidator } = responseValidatorModule;

type Document = OpenAPIV3.Document;
type Operation = OpenAPIV3.OperationObject;
type Schema = OpenAPIV3.SchemaObject;

export interface Exchange {
  method: string;
  /** Path and query string, as sent. */
  url: string;
  headers: Record<string, string>;
  /** The body as sent, when there was one. */
  body?: string;
  status: number;
  responseHeaders: Record<string, string | string[] | undefined>;
  /** The answer's text ('' when it had no body). */
  responseText: string;
}

export interface Found {
  path: string;
  operation: Operation;
  params: Record<string, string>;
}

const INTEGER = /^(0|-?[1-9][0-9]*)$/;
type Method = 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete' | 'options';

function isRef(value: unknown): value is OpenAPIV3.ReferenceObject {
  return typeof value === 'object' && value !== null && '$ref' in value;
}

/** A parameter or header value read by its schema: an integer, a list, or the text itself. */
function decode(text: string, schema: Schema | undefined): unknown {
  if (schema?.type === 'integer' || schema?.type === 'number') {
    return INTEGER.test(text) ? Number(text) : text;
  }
  if (schema?.type === 'array') {
    const items = schema.items as Schema;
    return text.split(',').map((item) => decode(item, items));
  }
  return text;
}

/**
 * OpenAPI 3.0 writes an exclusive bound as a flag beside the bound (`maximum: 10, exclusiveMaximum:
 * true`); the validators' JSON Schema (draft 7) writes the bound itself (`exclusiveMaximum: 10`).
 */
function draft7<T>(node: T): T {
  if (Array.isArray(node)) {
    node.forEach(draft7);
  } else if (typeof node === 'object' && node !== null) {
    const schema = node as Record<string, unknown>;
    for (const [flag, bound] of [
      ['exclusiveMaximum', 'maximum'],
      ['exclusiveMinimum', 'minimum'],
    ]) {
      if (typeof schema[flag] === 'boolean') {
        if (schema[flag]) {
          schema[flag] = schema[bound];
          delete schema[bound];
        } else {
          delete schema[flag];
        }
      }
    }
    Object.values(schema).forEach(draft7);
  }
  return node;
}

/** The rules between query parameters that their descriptions state in words. */
function crossParameterProblems(parameters: OpenAPIV3.ParameterObject[], given: string[]): string[] {
  const describe = (name: string) =>
    parameters.find((parameter) => parameter.in === 'query' && parameter.name === name)?.description ?? '';
  const meaning = (name: string) => /^The same as `(\w+)`\./.exec(describe(name))?.[1] ?? name;
  const isGiven = (name: string) => given.some((other) => other === name || meaning(other) === name);
  const problems: string[] = [];
  for (const name of new Set(given)) {
    for (const [, other] of describe(name).matchAll(/Must be given together with '(\w+)'/g)) {
      if (!isGiven(other)) {
        problems.push(`query parameter ${name} without ${other}`);
      }
    }
    for (const [, other] of describe(name).matchAll(/Must not be given together with '(\w+)'/g)) {
      if (given.includes(other)) {
        problems.push(`query parameter ${name} with ${other}`);
      }
    }
  }
  return problems;
}

export class Contract {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly requestValidators = new Map<Operation, InstanceType<typeof RequestValidator>>();
  private readonly responseValidators = new Map<Operation, InstanceType<typeof ResponseValidator>>();

  private readonly document: Document;

  constructor(document: Document) {
    this.document = draft7(structuredClone(document));
  }

  /** The operation a method and path name, with the path's parameters as text. */
  find(method: string, url: string): Found | undefined {
    const path = url.split('?', 1)[0];
    for (const [template, item] of Object.entries(this.document.paths)) {
      const names: string[] = [];
      const pattern = template.replace(/\{(\w+)\}/g, (_match, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      const match = new RegExp(`^${pattern}$`).exec(path);
      const operation = item?.[method.toLowerCase() as Method];
      if (match && operation) {
        const params = Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1])]));
        return { path: template, operation, params };
      }
    }
    return undefined;
  }

  /** What makes the request invalid by the document (none when it is valid). */
  requestProblems(exchange: Exchange): string[] {
    const found = this.find(exchange.method, exchange.url);
    if (found === undefined) {
      return [`no operation ${exchange.method} ${exchange.url.split('?', 1)[0]}`];
    }
    const { operation } = found;
    const problems: string[] = [];
    const parameters = (operation.parameters ?? []).filter(
      (parameter): parameter is OpenAPIV3.ParameterObject => !isRef(parameter),
    );
    const schemaOf = (where: string, name: string) =>
      parameters.find((parameter) => parameter.in === where && parameter.name.toLowerCase() === name.toLowerCase())
        ?.schema as Schema | undefined;

    const query: Record<string, unknown> = {};
    const search = new URLSearchParams(exchange.url.includes('?') ? exchange.url.slice(exchange.url.indexOf('?')) : '');
    for (const name of new Set(search.keys())) {
      const values = search.getAll(name);
      if (values.length > 1) {
        problems.push(`query parameter ${name} given ${values.length} times`);
      }
      query[name] = decode(values[0], schemaOf('query', name));
    }
    problems.push(...crossParameterProblems(parameters, [...search.keys()]));
    const params = Object.fromEntries(
      Object.entries(found.params).map(([name, text]) => [name, decode(text, schemaOf('path', name))]),
    );
    const headers = Object.fromEntries(
      Object.entries(exchange.headers).map(([name, text]) => [
        name.toLowerCase(),
        decode(text, schemaOf('header', name)),
      ]),
    );

    let body: unknown;
    if (exchange.body !== undefined) {
      try {
        body = JSON.parse(exchange.body);
      } catch {
        problems.push('body is not JSON');
      }
    }
    if (operation.requestBody === undefined && exchange.body !== undefined && exchange.body !== '') {
      problems.push('a body where the operation takes none');
    }
    // The validator skips bodies that are falsy (`0`, `false`, `null`, `""`); every body here is an object.
    if (operation.requestBody !== undefined && exchange.body !== undefined && !body) {
      problems.push(`body ${exchange.body} is not an object`);
    }
    if (operation.security?.length && !/^bearer \S/i.test(exchange.headers.Authorization ?? '')) {
      problems.push('no bearer token');
    }

    const verdict = this.requestValidator(operation).validateRequest({
      headers,
      params,
      query,
      body: structuredClone(body),
    }) as { errors: { location?: string; path?: string; message: string }[] } | undefined;
    for (const error of verdict?.errors ?? []) {
      problems.push(`${error.location ?? ''} ${error.path ?? ''} ${error.message}`.trim());
    }
    return problems;
  }

  /** Where the answer departs from the document (none when it matches). */
  responseProblems(exchange: Exchange): string[] {
    const found = this.find(exchange.method, exchange.url);
    if (found === undefined) {
      return [];
    }
    const status = String(exchange.status);
    const declared = found.operation.responses[status];
    if (declared === undefined || isRef(declared)) {
      return [`status ${status} is not declared`];
    }
    const problems: string[] = [];
    for (const [name, header] of Object.entries(declared.headers ?? {})) {
      const definition = isRef(header) ? this.document.components!.headers![header.$ref.split('/').pop()!] : header;
      if (isRef(definition)) {
        continue;
      }
      const value = exchange.responseHeaders[name.toLowerCase()];
      if (value === undefined) {
        if (definition.required) {
          problems.push(`header ${name} is missing`);
        }
        continue;
      }
      const schema = definition.schema as Schema;
      const text = Array.isArray(value) ? value.join(', ') : value;
      if (!this.ajv.validate(schema, decode(text, schema))) {
        problems.push(`header ${name}: ${text} ${this.ajv.errorsText()}`);
      }
    }
    const content = declared.content?.['application/json'];
    const text = exchange.method === 'HEAD' ? '' : exchange.responseText;
    if (content === undefined) {
      if (text !== '') {
        problems.push(`a body where none is declared: ${text.slice(0, 80)}`);
      }
      return problems;
    }
    if (!/^application\/json; charset=utf-8$/i.test(String(exchange.responseHeaders['content-type']))) {
      problems.push(`Content-Type ${String(exchange.responseHeaders['content-type'])}`);
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return [...problems, `body is not JSON: ${text.slice(0, 80)}`];
    }
    const verdict = this.responseValidator(found.operation).validateResponse(status, body);
    for (const error of verdict?.errors ?? []) {
      problems.push(`body ${'path' in error ? String(error.path) : ''} ${error.message}`);
    }
    return problems;
  }

  private requestValidator(operation: Operation) {
    let validator = this.requestValidators.get(operation);
    if (validator === undefined) {
      validator = new RequestValidator({
        parameters: operation.parameters ?? [],
        requestBody: operation.requestBody as OpenAPIV3.RequestBodyObject | undefined,
        componentSchemas: this.document.components?.schemas as never,
        additionalQueryProperties: false,
        enableHeadersLowercase: true,
      });
      this.requestValidators.set(operation, validator);
    }
    return validator;
  }

  private responseValidator(operation: Operation) {
    let validator = this.responseValidators.get(operation);
    if (validator === undefined) {
      validator = new ResponseValidator({
        responses: operation.responses as never,
        components: this.document.components,
      });
      this.responseValidators.set(operation, validator);
    }
    return validator;
  }
}
