/**
 * The OpenAPI 3 document, generated from the controllers and DTOs by @nestjs/swagger, then
 * completed with what every route shares and decorators would only repeat: the error shape
 * and its examples (worded by `Messages`, as the service words them), the bearer schemes,
 * the rate-limit, request-id and ETag headers, strict bodies (no other fields; a PATCH
 * needs one, and may send part of a nested object), the tags the controllers declare, and
 * the HEAD and OPTIONS operations the service answers on every path. Served at `/openapi.json`,
 * browsable at `/docs` (Swagger UI, its assets served by the service itself). The contract
 * tests (test/contract.e2e.spec.ts) check the service against it in both directions.
 */
import { STATUS_CODES } from 'node:http';

import type { INestApplication } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import {
  DocumentBuilder,
  type HeaderObject,
  type OpenAPIObject,
  type OperationObject,
  type ParameterObject,
  type ReferenceObject,
  type PathItemObject,
  type ResponseObject,
  type SchemaObject,
  SwaggerModule,
  type TagObject,
} from '@nestjs/swagger';

import { SECURITY_SCHEMES } from './security-schemes.js';
import { CALLBACK_EXTENSION, type CallbackDeclaration, callbackOf } from './api-callback.decorator.js';
import { type AppConfig, appConfig } from '../../config/app.config.js';
import { Messages, type ResourceName } from '../errors/messages.js';
import { DOCS_PREFIX } from '../http/http-front.js';
import { RESOURCE_EXTENSION } from '../http/resource-id.decorator.js';
import { TAG_DECLARATION, type TagDeclaration, TagOrder } from './api-tag.decorator.js';
import { type ErrorExample, errorContent, errorExample } from './error-examples.js';

export const DOCS_PATH = DOCS_PREFIX.slice(1);
export const OPENAPI_JSON_PATH = 'openapi.json';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;
/** The order of the operations of a path in the document. */
const METHOD_ORDER = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options'] as const;
const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];
const EXAMPLE_RETRY_AFTER = 42;
const LICENSE = { name: 'MIT', url: 'https://opensource.org/licenses/MIT' };
/** Relative: the service that serves this document (a generated client is given its base URL). */
const SERVER = { url: '/', description: 'The service that serves this document.' };

const DESCRIPTION = `Pet and shelter profiles of an animal adoption network.

Reads are open to anyone. Writes need \`Authorization: Bearer <token>\`; token management needs the admin key.
Every error answers in one shape: \`error\`, \`message\`, \`status\`, \`details\` (validation), \`retry_after\` (429) and \`request_id\`.
Every rate-limited answer carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`.
Single resources carry a strong \`ETag\`; send it back in \`If-None-Match\` (304) or \`If-Match\` (412 when it changed).`;

/** Headers the service always sends where the document names them. */
const HEADERS: Record<string, HeaderObject> = {
  'X-Request-Id': {
    description: "The request's id: the client's own `X-Request-Id` when well formed, else a new UUID.",
    required: true,
    schema: { type: 'string', minLength: 1, maxLength: 128 },
  },
  'X-RateLimit-Limit': {
    description: 'Requests allowed in the window closest to running out (per minute or per day).',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in that window.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Reset': {
    description: 'When that window resets, in Unix seconds.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  'Retry-After': {
    description: 'Seconds until a request may succeed again.',
    required: true,
    schema: { type: 'integer', minimum: 0 },
  },
  ETag: {
    description: 'Strong tag of the representation, `"<id>.<version>"`.',
    required: true,
    schema: { type: 'string', pattern: '^"[0-9]+\\.[0-9]+"$' },
  },
  Location: { description: 'The path of the created resource.', required: true, schema: { type: 'string' } },
  Allow: {
    description: 'The methods this path answers: HEAD wherever GET is, and OPTIONS.',
    required: true,
    schema: { type: 'string' },
  },
  'WWW-Authenticate': {
    description:
      'The bearer challenge: `Bearer` on 401; `Bearer error="invalid_token"` on 403 for a refused token, ' +
      '`Bearer error="insufficient_scope"` for one that may not do this.',
    required: true,
    schema: { type: 'string' },
  },
};

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error', 'message', 'status', 'request_id'],
  additionalProperties: false,
  properties: {
    error: { type: 'string', description: 'The reason phrase of the status.' },
    message: { type: 'string', description: 'One sentence saying what went wrong (for validation, the first detail).' },
    status: { type: 'integer', description: 'The HTTP status, repeated.' },
    details: {
      type: 'array',
      description: 'Every problem found in a body or query string, unknown fields first.',
      items: {
        type: 'object',
        required: ['field', 'message'],
        additionalProperties: false,
        properties: { field: { type: 'string' }, message: { type: 'string' } },
      },
    },
    retry_after: { type: 'integer', description: 'Seconds until the rate limit allows a request again (429).' },
    request_id: { type: 'string', description: 'The same value as the `X-Request-Id` header.' },
  },
};

const headerRef = (name: string): ReferenceObject => ({ $ref: `#/components/headers/${name}` });
const schemaRef = (name: string): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });
const schemaName = (ref: string): string => ref.slice(ref.lastIndexOf('/') + 1);

const IF_NONE_MATCH: ParameterObject = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description: 'Answer 304 without a body if the resource still has this ETag.',
};

/** The headers of every answer of an operation: its request id, and the rate-limit counts unless it is a probe. */
function commonHeaders(probe: boolean): Record<string, ReferenceObject> {
  const headers: Record<string, ReferenceObject> = { 'X-Request-Id': headerRef('X-Request-Id') };
  if (!probe) {
    for (const name of RATE_LIMIT_HEADERS) {
      headers[name] = headerRef(name);
    }
  }
  return headers;
}

/** Adds examples to the operation's response for `status`, creating it when absent. */
function addErrors(operation: OperationObject, status: number, examples: ErrorExample[], probe = false): void {
  const existing = operation.responses[status] as ResponseObject | undefined;
  const known = existing?.content?.['application/json']?.examples ?? {};
  const all = [...(Object.values(known) as ErrorExample[]), ...examples];
  operation.responses[status] = {
    description: existing?.description ?? STATUS_CODES[status] ?? String(status),
    headers: { ...commonHeaders(probe), ...existing?.headers },
    content: errorContent(all),
  };
}

/** The 200 answer is one resource (a `$ref`), not a list: such answers carry the resource's ETag. */
function answersOneResource(operation: OperationObject): boolean {
  const ok = operation.responses['200'] as ResponseObject | undefined;
  return (ok?.content?.['application/json']?.schema as ReferenceObject | undefined)?.$ref !== undefined;
}

function completeOperation(
  path: string,
  method: (typeof METHODS)[number],
  operation: OperationObject,
  config: AppConfig,
) {
  const extensions = operation as unknown as Record<string, unknown>;
  const resource = extensions[RESOURCE_EXTENSION] as ResourceName | undefined;
  delete extensions[RESOURCE_EXTENSION];
  const callback = extensions[CALLBACK_EXTENSION] as CallbackDeclaration | undefined;
  delete extensions[CALLBACK_EXTENSION];
  if (callback !== undefined) {
    operation.callbacks = callbackOf(callback);
  }
  const probe = path.startsWith('/health');
  const parameters = (operation.parameters ?? []) as ParameterObject[];
  operation.parameters = parameters;

  // Query parameters are all optional filters, each given once; a list is one comma-separated value.
  for (const parameter of parameters.filter((candidate) => candidate.in === 'query')) {
    parameter.required = false;
    if ((parameter.schema as SchemaObject | undefined)?.type === 'array') {
      parameter.style = 'form';
      parameter.explode = false;
    }
  }
  // Single-resource reads are tagged (see answers.ts); writes that take `@IfMatch()` document the header.
  const taggedRead = method === 'get' && resource !== undefined && answersOneResource(operation);
  const conditionalWrite = parameters.some((parameter) => parameter.in === 'header' && parameter.name === 'If-Match');
  if (taggedRead) {
    parameters.push(IF_NONE_MATCH);
    operation.responses[304] = {
      description: 'Not Modified: the `If-None-Match` tag still matches.',
      headers: { ...commonHeaders(probe), ETag: headerRef('ETag') },
    };
  }
  if (conditionalWrite && resource !== undefined) {
    addErrors(operation, 412, [errorExample(412, Messages.preconditionFailed(resource))]);
  }

  // Headers of the successful answers.
  for (const [status, response] of Object.entries(operation.responses)) {
    if (!status.startsWith('2')) {
      continue;
    }
    (response as ResponseObject).description ||= STATUS_CODES[status] ?? status;
    const headers = commonHeaders(probe);
    if (taggedRead || (conditionalWrite && method !== 'delete')) {
      headers.ETag = headerRef('ETag');
    }
    if (status === '201') {
      headers.Location = headerRef('Location');
    }
    (response as ResponseObject).headers = { ...headers, ...(response as ResponseObject).headers };
  }

  // Errors, in the order the service checks (docs/api.md §3).
  if (probe) {
    addErrors(operation, 400, [errorExample(400, Messages.malformedRequest())], probe);
  } else {
    addErrors(operation, 429, [
      errorExample(429, Messages.rateLimited(EXAMPLE_RETRY_AFTER), undefined, { retry_after: EXAMPLE_RETRY_AFTER }),
    ]);
    const tooMany = operation.responses[429] as ResponseObject;
    tooMany.headers = { ...tooMany.headers, 'Retry-After': headerRef('Retry-After') };
  }
  if (!probe && method !== 'get') {
    operation.security ??= [{ [SECURITY_SCHEMES.token]: [] }];
  }
  if (operation.security !== undefined) {
    addErrors(operation, 401, [errorExample(401, Messages.tokenRequired())]);
    addErrors(operation, 403, [errorExample(403, Messages.tokenRejected())]);
    for (const status of [401, 403]) {
      const refused = operation.responses[status] as ResponseObject;
      refused.headers = { ...refused.headers, 'WWW-Authenticate': headerRef('WWW-Authenticate') };
    }
  } else {
    // Open to anyone: no token needed, and one sent is never refused.
    operation.security = [];
  }
  if (operation.requestBody !== undefined) {
    addErrors(operation, 415, [errorExample(415, Messages.unsupportedMediaType())]);
    addErrors(operation, 413, [errorExample(413, Messages.bodyTooLarge(config.bodyLimit))]);
    const firstField = method === 'patch' ? undefined : 'name';
    addErrors(operation, 400, [
      errorExample(400, Messages.bodyNotUtf8()),
      errorExample(400, Messages.bodyNotJson()),
      errorExample(400, Messages.bodyNotObject()),
      firstField === undefined
        ? errorExample(400, Messages.bodyEmpty())
        : errorExample(400, Messages.missingField(firstField), [
            { field: firstField, message: Messages.missingField(firstField) },
          ]),
      errorExample(400, Messages.unknownField('color'), [{ field: 'color', message: Messages.unknownField('color') }]),
    ]);
  }
  if (parameters.some((parameter) => parameter.in === 'query')) {
    const unknown = Messages.unknownQueryParameter('color');
    addErrors(operation, 400, [errorExample(400, Messages.invalidQuery(), [{ field: 'color', message: unknown }])]);
  }
  if (resource !== undefined) {
    addErrors(operation, 400, [errorExample(400, Messages.invalidId(resource))]);
    addErrors(operation, 404, [errorExample(404, Messages.notFound(resource, '42'))]);
  }
  if (!probe) {
    addErrors(operation, 503, [errorExample(503, Messages.unavailable())]);
  }
  operation.responses = Object.fromEntries(Object.entries(operation.responses).sort(([a], [b]) => a.localeCompare(b)));
}

/** `getPet` → `headPet`, `listPets` → `headPets`: the HEAD twin of a GET operation. */
function headOperationId(getId: string): string {
  return getId.replace(/^(get|list)?(.)/, (_match, _verb, first: string) => `head${first.toUpperCase()}`);
}

/** `/pets/{id}/history` → `optionsPetsByIdHistory`. */
function optionsOperationId(path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((segment) => segment.replace(/^\{(\w+)\}$/, (_match, name: string) => `by_${name}`))
    .flatMap((segment) => segment.split(/[^A-Za-z0-9]+/))
    .filter(Boolean);
  return `options${words.map((word) => word[0].toUpperCase() + word.slice(1)).join('')}`;
}

/** HEAD answers as GET does, without a body (docs/api.md §1). */
function headOf(path: string, get: OperationObject): OperationObject {
  const head = structuredClone(get);
  head.operationId = headOperationId(get.operationId ?? '');
  head.summary = `\`GET ${path}\` without the body`;
  head.description = `The status and headers \`GET ${path}\` would answer, without its body.`;
  for (const response of Object.values(head.responses) as ResponseObject[]) {
    delete response.content;
  }
  return head;
}

/** OPTIONS answers 204 with `Allow` on every path, whatever its id looks like, before any check (docs/api.md §1). */
function optionsOf(path: string, item: PathItemObject): OperationObject {
  const first = METHODS.map((method) => item[method]).find((operation) => operation !== undefined);
  const pathParameters = [...path.matchAll(/\{(\w+)\}/g)].map(([, name]): ParameterObject => ({
    name,
    in: 'path',
    required: true,
    description: 'Any path segment: the methods depend on the shape of the path only.',
    schema: { type: 'string', minLength: 1 },
  }));
  return {
    operationId: optionsOperationId(path),
    summary: `Methods allowed on \`${path}\``,
    description:
      'Answers 204 with `Allow` listing the methods of this path, without a token and outside the rate limit. ' +
      'When CORS is configured, preflight requests are answered here too.',
    tags: first?.tags,
    security: [],
    parameters: pathParameters,
    responses: {
      204: {
        description: 'The methods of this path, in `Allow`.',
        headers: { 'X-Request-Id': headerRef('X-Request-Id'), Allow: headerRef('Allow') },
      },
      400: {
        description: STATUS_CODES[400]!,
        headers: { 'X-Request-Id': headerRef('X-Request-Id') },
        content: errorContent([errorExample(400, Messages.malformedRequest())]),
      },
    },
  };
}

const REQUEST_SCHEMA_DESCRIPTION =
  'Only the fields below: any other is refused with 400 `Unknown field`. (A read-only `id` is tolerated and ignored.)';
const PATCH_SCHEMA_DESCRIPTION =
  'At least one of the fields below; the others keep their values, and a nested object is merged field by field.';

/**
 * Bodies hold exactly the fields their schema lists (docs/api.md §1): the service refuses others in
 * requests and adds none to answers. A PATCH body needs one field, and a nested object in it
 * may hold any non-empty part of that object, which is merged into the stored one: it gets
 * a schema of its own, `Update<Name>`.
 */
function completeSchemas(document: OpenAPIObject): void {
  const schemas = document.components!.schemas as Record<string, SchemaObject>;
  for (const schema of Object.values(schemas)) {
    if (schema.properties !== undefined) {
      schema.additionalProperties = false;
    }
  }
  for (const { method, operation } of operationsOf(document)) {
    const ref = (operation.requestBody as { content?: Record<string, { schema?: ReferenceObject }> } | undefined)
      ?.content?.['application/json']?.schema?.$ref;
    if (ref === undefined) {
      continue;
    }
    const schema = schemas[schemaName(ref)];
    if (method !== 'patch') {
      schema.description ??= REQUEST_SCHEMA_DESCRIPTION;
      continue;
    }
    schema.minProperties = 1;
    schema.description = PATCH_SCHEMA_DESCRIPTION;
    for (const property of Object.values(schema.properties ?? {}) as SchemaObject[]) {
      const nested = property.allOf?.[0] as ReferenceObject | undefined;
      if (nested === undefined) {
        continue;
      }
      const partialName = `Update${schemaName(nested.$ref)}`;
      const { required: _required, ...whole } = schemas[schemaName(nested.$ref)];
      schemas[partialName] = { ...whole, description: PATCH_SCHEMA_DESCRIPTION, minProperties: 1 };
      property.allOf = [schemaRef(partialName)];
      property.description = 'Any of its fields, merged into the stored ones.';
    }
  }
}

function* operationsOf(document: OpenAPIObject) {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation !== undefined) {
        yield { path, method, operation };
      }
    }
  }
}

/** The tags the controllers declare with `@ApiTag`, main resources first, then any tag used without a declaration. */
function declaredTags(app: INestApplication, document: OpenAPIObject): TagObject[] {
  const declarations = new Map<string, TagDeclaration>();
  for (const wrapper of app.get(DiscoveryService).getControllers()) {
    const declaration = wrapper.metatype
      ? (Reflect.getMetadata(TAG_DECLARATION, wrapper.metatype) as TagDeclaration | undefined)
      : undefined;
    if (declaration !== undefined) {
      declarations.set(declaration.name, declaration);
    }
  }
  for (const { operation } of operationsOf(document)) {
    for (const name of operation.tags ?? []) {
      if (!declarations.has(name)) {
        declarations.set(name, { name, description: '', order: TagOrder.module });
      }
    }
  }
  return [...declarations.values()]
    .sort((a, b) => a.order - b.order || a.name.localeCompare(b.name))
    .map(({ name, description }) => (description === '' ? { name } : { name, description }));
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = app.get<AppConfig>(appConfig.KEY);
  const builder = new DocumentBuilder()
    .setTitle('adoption-service')
    .setDescription(DESCRIPTION)
    .setVersion('1.0')
    .setLicense(LICENSE.name, LICENSE.url)
    .addServer(SERVER.url, SERVER.description)
    // Tokens are opaque strings, not JWTs.
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'opaque',
        description: 'An issued token (any non-empty token in development).',
      },
      SECURITY_SCHEMES.token,
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'opaque', description: 'The admin key (`ADMIN_TOKEN`).' },
      SECURITY_SCHEMES.admin,
    )
    .build();
  const document = SwaggerModule.createDocument(app, builder, {
    // Controllers name their operations (`@ApiOperation({ operationId })`); this is the fallback.
    operationIdFactory: (controller, method) =>
      `${method}${controller.replace(/Controller$/, '').replace(/^./, (first) => first.toUpperCase())}`,
  });
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, Error: ERROR_SCHEMA },
    headers: HEADERS,
  };
  completeSchemas(document);
  for (const { path, method, operation } of operationsOf(document)) {
    completeOperation(path, method, operation, config);
  }
  for (const [path, item] of Object.entries(document.paths)) {
    const complete: PathItemObject = { ...item };
    if (item.get !== undefined) {
      complete.head = headOf(path, item.get);
    }
    complete.options = optionsOf(path, item);
    document.paths[path] = Object.fromEntries(
      METHOD_ORDER.filter((method) => complete[method] !== undefined).map((method) => [method, complete[method]]),
    );
  }
  document.tags = declaredTags(app, document);
  return document;
}
/** Serves `/openapi.json` and the Swagger UI at `/docs` (its security headers come from HttpFront). */
export function setupOpenApi(app: INestApplication): void {
  SwaggerModule.setup(DOCS_PATH, app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: 'adoption-service API',
    swaggerOptions: { validatorUrl: null, displayRequestDuration: true, tryItOutEnabled: false },
  });
}
