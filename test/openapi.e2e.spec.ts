/** The OpenAPI document: valid, complete, and true to what the service does. */
import type { INestApplication } from '@nestjs/common';
import { Validator } from '@seriousme/openapi-schema-validator';

import { Messages } from '../src/common/errors/messages.js';
import { RouteTable } from '../src/common/http/route-table.js';
import { dtoShape } from '../src/common/validation/validation.pipe.js';
import { CreatePetDto } from '../src/pets/dto/create-pet.dto.js';
import { CreateShelterDto } from '../src/shelters/dto/create-shelter.dto.js';
import { http, startApp, TOKEN, validPet } from './support/app.js';

interface Operation {
  operationId: string;
  description?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema?: object }[];
  requestBody?: unknown;
  responses: Record<
    string,
    {
      headers?: Record<string, unknown>;
      content?: { 'application/json'?: { schema?: { $ref?: string }; examples?: Record<string, { value: unknown }> } };
    }
  >;
}
interface Document {
  openapi: string;
  servers: { url: string }[];
  info: { license?: { name: string } };
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<
      string,
      {
        required?: string[];
        additionalProperties?: boolean;
        minProperties?: number;
        properties: Record<string, { description?: string; allOf?: { $ref: string }[] }>;
      }
    >;
    securitySchemes: Record<string, { bearerFormat?: string }>;
  };
}

describe('OpenAPI document', () => {
  let app: INestApplication;
  let document: Document;
  const operations: [string, string, Operation][] = [];

  beforeAll(async () => {
    app = await startApp();
    const res = await http(app).get('/openapi.json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    document = res.body as Document;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        operations.push([method.toUpperCase(), path, operation]);
      }
    }
  });
  afterAll(async () => {
    await app.close();
  });

  it('is a valid OpenAPI 3 document', async () => {
    const result = await new Validator().validate(
      structuredClone(document) as unknown as Parameters<Validator['validate']>[0],
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toMatch(/^3\./);
  });

  it('lists every route the application serves, with HEAD wherever GET is and OPTIONS everywhere, and nothing else', () => {
    const routes = app.get(RouteTable).routes();
    const served = [
      ...routes,
      ...routes.filter(({ method }) => method === 'GET').map(({ path }) => ({ method: 'HEAD', path })),
      ...[...new Set(routes.map(({ path }) => path))].map((path) => ({ method: 'OPTIONS', path })),
    ]
      .map(({ method, path }) => `${method} ${path.replace(/:(\w+)/g, '{$1}')}`)
      .sort();
    const documented = operations.map(([method, path]) => `${method} ${path}`).sort();
    expect(documented).toEqual(served);
    expect(routes.length).toBeGreaterThanOrEqual(19);
  });

  it('names every operation in camelCase, once, and describes it under a declared tag', () => {
    const ids = operations.map(([, , operation]) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const [, , operation] of operations) {
      expect(operation.operationId).toMatch(/^[a-z][A-Za-z]*$/);
      expect(operation.description).toEqual(expect.stringMatching(/\S/));
      expect(document.tags.map((tag) => tag.name)).toEqual(expect.arrayContaining(operation.tags ?? ['untagged']));
    }
    expect(ids).toEqual(expect.arrayContaining(['listPets', 'getPet', 'getShelter', 'getShelterSingular', 'headPet']));
    expect(document.tags.map((tag) => tag.name)).toEqual([
      'pets',
      'shelters',
      'interests',
      'tokens',
      'webhooks',
      'health',
    ]);
    for (const tag of document.tags) {
      expect(tag.description).toMatch(/^[A-Z].*\.$/);
    }
  });

  it('names its server and license, and calls tokens opaque', () => {
    expect(document.servers.length).toBeGreaterThan(0);
    expect(document.info.license?.name).toBe('MIT');
    for (const scheme of Object.values(document.components.securitySchemes)) {
      expect(scheme.bearerFormat).not.toMatch(/jwt/i);
    }
  });

  it('gives ids as 64-bit integers whose rule is stated, and lists as comma-separated arrays', () => {
    const ids = operations.flatMap(([method, , operation]) =>
      method === 'OPTIONS' ? [] : (operation.parameters ?? []).filter((parameter) => parameter.in === 'path'),
    );
    const listPets = document.paths['/pets'].get.parameters!;
    ids.push(listPets.find((parameter) => parameter.name === 'shelter_id')!);
    expect(ids.length).toBeGreaterThan(10);
    for (const id of ids) {
      expect(id.schema).toMatchObject({ type: 'integer', format: 'int64', minimum: 1 });
      expect(id.description).toContain('^[1-9][0-9]{0,15}$');
      expect(id.description).not.toMatch(/^Invalid/);
    }
    for (const name of ['species', 'status', 'size', 'gender']) {
      expect(listPets.find((parameter) => parameter.name === name)).toMatchObject({
        style: 'form',
        explode: false,
        schema: { type: 'array', items: { type: 'string', enum: expect.any(Array) } },
      });
    }
  });

  it('refuses other fields in request bodies, and takes part of `medical` in a PATCH', () => {
    const { schemas } = document.components;
    for (const name of ['CreatePetDto', 'UpdatePetDto', 'MedicalDto', 'CreateShelterDto', 'UpdateShelterDto']) {
      expect([name, schemas[name].additionalProperties]).toEqual([name, false]);
    }
    expect(schemas.UpdatePetDto.minProperties).toBe(1);
    expect(schemas.UpdateShelterDto.minProperties).toBe(1);
    expect(schemas.UpdatePetDto.properties.medical.allOf).toEqual([{ $ref: '#/components/schemas/UpdateMedicalDto' }]);
    expect(schemas.UpdateMedicalDto).toMatchObject({ minProperties: 1, additionalProperties: false });
    expect(schemas.UpdateMedicalDto.required).toBeUndefined();
  });

  it('promises an ETag and 304 only where the service sends them', () => {
    const history = document.paths['/pets/{id}/history'].get;
    expect(Object.keys(history.responses)).not.toContain('304');
    expect(Object.keys(history.responses['200'].headers!)).not.toContain('ETag');
    expect(Object.keys(document.paths['/pets/{id}'].get.responses)).toContain('304');
  });

  it('describes every body field with its rule, required on create and optional on update', () => {
    const { schemas } = document.components;
    for (const [name, dto] of [
      ['Pet', CreatePetDto],
      ['Shelter', CreateShelterDto],
    ] as const) {
      const fields = dtoShape(dto).fields;
      const create = schemas[`Create${name}Dto`];
      expect(Object.keys(create.properties)).toEqual(fields);
      expect(create.required).toEqual(fields);
      for (const field of fields) {
        expect(create.properties[field].description).toMatch(/^Must /);
      }
      expect(schemas[`Update${name}Dto`].required ?? []).toEqual([]);
      expect(Object.keys(schemas[`${name}Response`].properties)).toEqual([...fields, 'id']);
    }
    expect(schemas.MedicalDto.required).toEqual(['spayed_neutered', 'vaccinations']);
  });

  it('documents the error statuses of every operation with examples in the error shape', () => {
    for (const [method, path, operation] of operations) {
      const statuses = Object.keys(operation.responses);
      const probe = path.startsWith('/health') || method === 'OPTIONS';
      if (!probe) {
        expect([path, statuses]).toEqual([path, expect.arrayContaining(['429', '503'])]);
      } else {
        expect(statuses).toEqual(expect.arrayContaining(['400']));
      }
      // Reads are open but for token and webhook management and interests (personal data).
      const tokenRead = path.startsWith('/auth/') || path.startsWith('/webhooks') || path.includes('interests');
      if (method === 'OPTIONS' || (['GET', 'HEAD'].includes(method) && !tokenRead)) {
        expect([method, path, operation.security]).toEqual([method, path, []]);
      } else if (method !== 'OPTIONS') {
        expect(operation.security?.length).toBe(1);
        expect(statuses).toEqual(expect.arrayContaining(['401', '403']));
      }
      if (operation.requestBody) {
        expect(statuses).toEqual(expect.arrayContaining(['400', '413', '415']));
      }
      if (path.includes('{id}') && method !== 'OPTIONS') {
        expect(statuses).toEqual(expect.arrayContaining(['400', '404']));
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400 || method === 'HEAD' || (probe && status === '503')) {
          continue;
        }
        const json = response.content!['application/json']!;
        expect(json.schema).toEqual({ $ref: '#/components/schemas/Error' });
        for (const { value } of Object.values(json.examples!)) {
          expect(value).toMatchObject({
            status: Number(status),
            message: expect.any(String),
            request_id: expect.any(String),
          });
        }
      }
    }
  });

  it('words its examples as the service does', () => {
    const patch = document.paths['/pets/{id}'].patch;
    const messages = (status: string) =>
      Object.values(patch.responses[status].content!['application/json']!.examples!).map(
        (example) => (example.value as { message: string }).message,
      );
    expect(messages('404')).toEqual([Messages.notFound('pet', '42')]);
    expect(messages('412')).toEqual([Messages.preconditionFailed('pet')]);
    expect(messages('400')).toEqual(expect.arrayContaining([Messages.invalidId('pet'), Messages.bodyEmpty()]));
    const remove = document.paths['/shelters/{id}'].delete;
    expect(Object.values(remove.responses['409'].content!['application/json']!.examples!)[0].value).toMatchObject({
      message: Messages.stillReferenced('shelter', '1', [{ count: 3, names: { one: 'pet', many: 'pets' } }]),
    });
  });

  it('keeps every error an operation documents for one status, each as an example', () => {
    const conflict = document.paths['/pets/{id}/interest'].post.responses['409'] as {
      description?: string;
      content: { 'application/json': { examples: Record<string, { value: { message: string } }> } };
    };
    const messages = Object.values(conflict.content['application/json'].examples).map(({ value }) => value.message);
    expect(messages.sort()).toEqual(
      [Messages.openInterestExists('7', 12), Messages.petAdopted('7'), Messages.idempotencyInProgress()].sort(),
    );
    expect(conflict.description).toBe('Conflict');
  });

  it('names the rate-limit, request-id and ETag headers of successful answers', () => {
    const get = document.paths['/pets/{id}'].get;
    expect(Object.keys(get.responses['200'].headers!).sort()).toEqual(
      ['ETag', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-Request-Id'].sort(),
    );
    expect(get.parameters!.map((parameter) => parameter.name)).toEqual(['id', 'If-None-Match']);
    expect(Object.keys(document.paths['/pets'].post.responses['201'].headers!)).toContain('Location');
    expect(document.paths['/auth/tokens'].get.security).toEqual([{ admin: [] }]);
    expect(document.paths['/pets'].post.security).toEqual([{ token: [] }]);
  });

  it('serves a docs page whose assets all come from the service', async () => {
    const page = await http(app).get('/docs').expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const assets = [...page.text.matchAll(/(?:src|href)=['"]([^'"]+)['"]/g)].map((match) => match[1]);
    expect(assets.length).toBeGreaterThan(2);
    for (const asset of assets) {
      expect(asset).not.toMatch(/^(https?:)?\/\//);
      await http(app).get(new URL(asset, 'http://service/docs').pathname).expect(200);
    }
  });

  it('matches what the service answers: a created pet has the documented fields', async () => {
    const shelter = await http(app)
      .post('/shelters')
      .set('Authorization', TOKEN)
      .send({
        name: 'Docs',
        address: '1 Way',
        phone: '+1-555-000-0000',
        email: 'docs@example.org',
        hours: '9-5',
        available_pet_count: 1,
        adoption_fee_range: '0-10',
      })
      .expect(201);
    const pet = await http(app)
      .post('/pets')
      .set('Authorization', TOKEN)
      .send(validPet((shelter.body as { id: number }).id))
      .expect(201);
    expect(Object.keys(pet.body as object)).toEqual(Object.keys(document.components.schemas.PetResponse.properties));
  });
});
