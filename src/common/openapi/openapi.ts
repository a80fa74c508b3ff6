/**
 * The OpenAPI 3 document, generated from the controllers and DTOs by @nestjs/swagger, then
 * completed with what every route shares and decorators would only repeat: the error shape
 * and its examples (worded by `Messages`, as the service words them), the bearer schemes,
 * and the rate-limit, request-id and ETag headers. Served at `/openapi.json`, browsable
 * at `/docs` (Swagger UI, its assets served by the service itself).
 */
import { STATUS_CODES } from 'node:http';

import type { INestApplication } from '@nestjs/common';
import {
  DocumentBuilder,
  type HeaderObject,
  type OpenAPIObject,
  type OperationObject,
  type ParameterObject,
  type ReferenceObject,
  type ResponseObject,
  SwaggerModule,
} from '@nestjs/swagger';

import { SECURITY_SCHEMES } from '../../auth/auth.guard.js';
import { type AppConfig, appConfig } from '../../config/app.config.js';
import { Messages, type ResourceName } from '../errors/messages.js';
import { DOCS_PREFIX } from '../http/http-front.js';
import { RESOURCE_EXTENSION } from '../http/resource-id.decorator.js';
import { type ErrorExample, errorContent, errorExample } from './error-examples.js';

export const DOCS_PATH = DOCS_PREFIX.slice(1);
export const OPENAPI_JSON_PATH = 'openapi.json';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;
const EXAMPLE_RETRY_AFTER = 42;

const DESCRIPTION = `Pet and shelter profiles of an animal adoption network.

Reads are open to anyone. Writes need \`Authorization: Bearer <token>\`; token management needs the admin key.
Every error answers in one shape: \`error\`, \`message\`, \`status\`, \`details\` (validation), \`retry_after\` (429) and \`request_id\`.
Every rate-limited answer carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`.
Single resources carry a strong \`ETag\`; send it back in \`If-None-Match\` (304) or \`If-Match\` (412 when it changed).`;

const HEADERS: Record<string, HeaderObject> = {
  'X-Request-Id': {
    description: "The request's id: the client's own `X-Request-Id` when well formed, else a new UUID.",
    schema: { type: 'string' },
  },
  'X-RateLimit-Limit': {
    description: 'Requests allowed in the window closest to running out (per minute or per day).',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': { description: 'Requests left in that window.', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'When that window resets, in Unix seconds.', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds until a request may succeed again.', schema: { type: 'integer' } },
  'WWW-Authenticate': {
    description:
      'The bearer challenge: `Bearer` on 401; `Bearer error="invalid_token"` on 403 for a refused token, ' +
      '`Bearer error="insufficient_scope"` for one that may not do this.',
    schema: { type: 'string' },
  },
  ETag: { description: 'Strong tag of the representation, `"<id>.<version>"`.', schema: { type: 'string' } },
  Location: { description: 'The path of the created resource.', schema: { type: 'string' } },
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

const IF_NONE_MATCH: ParameterObject = {
  name: 'If-None-Match',
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description: 'Answer 304 without a body if the resource still has this ETag.',
};

/** Adds examples to the operation's response for `status`, creating it when absent. */
function addErrors(operation: OperationObject, status: number, examples: ErrorExample[]): void {
  const existing = operation.responses[status] as ResponseObject | undefined;
  const known = existing?.content?.['application/json']?.examples ?? {};
  const all = [...(Object.values(known) as ErrorExample[]), ...examples];
  operation.responses[status] = {
    description: existing?.description ?? STATUS_CODES[status] ?? String(status),
    headers: { 'X-Request-Id': headerRef('X-Request-Id'), ...existing?.headers },
    content: errorContent(all),
  };
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
  const probe = path.startsWith('/health');
  const parameters = (operation.parameters ?? []) as ParameterObject[];
  operation.parameters = parameters;

  // Query parameters are all optional filters.
  for (const parameter of parameters.filter((candidate) => candidate.in === 'query')) {
    parameter.required = false;
  }
  // Single-resource reads are tagged (see answers.ts); writes that take `@IfMatch()` document the header.
  const taggedRead = method === 'get' && resource !== undefined;
  const conditionalWrite = parameters.some((parameter) => parameter.in === 'header' && parameter.name === 'If-Match');
  if (taggedRead) {
    parameters.push(IF_NONE_MATCH);
    operation.responses[304] = { description: 'Not Modified: the `If-None-Match` tag still matches.' };
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
    const headers: Record<string, ReferenceObject> = { 'X-Request-Id': headerRef('X-Request-Id') };
    if (!probe) {
      for (const name of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) {
        headers[name] = headerRef(name);
      }
    }
    if (taggedRead || (conditionalWrite && method !== 'delete')) {
      headers.ETag = headerRef('ETag');
    }
    if (status === '201') {
      headers.Location = headerRef('Location');
    }
    (response as ResponseObject).headers = { ...headers, ...(response as ResponseObject).headers };
  }

  // Errors, in the order the service checks (API.md §3).
  if (!probe) {
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

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = app.get<AppConfig>(appConfig.KEY);
  const builder = new DocumentBuilder()
    .setTitle('adoption-service')
    .setDescription(DESCRIPTION)
    .setVersion('1.0')
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'An issued token (any non-empty token in development).' },
      SECURITY_SCHEMES.token,
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'The admin key (`ADMIN_TOKEN`).' },
      SECURITY_SCHEMES.admin,
    )
    .build();
  const document = SwaggerModule.createDocument(app, builder, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, Error: ERROR_SCHEMA },
    headers: HEADERS,
  };
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation !== undefined) {
        completeOperation(path, method, operation, config);
      }
    }
  }
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
