/**
 * Every route the application serves, whatever module brings it, fuzzed with no list of its
 * own: the routes come from the application (RouteTable), the bodies from the OpenAPI
 * document's examples, mutated. A module added by the recipe (the volunteers fixture here) is
 * fuzzed as soon as it is imported. Whatever is sent, the answer is below 500, carries a
 * request id, and an error answer has the contract's shape.
 */
import type { INestApplication } from '@nestjs/common';
import fc from 'fast-check';
import { DataSource } from 'typeorm';

import { RouteTable } from '../src/common/http/route-table.js';
import { Volunteers1790000000000 } from './fixtures/volunteers/1790000000000-volunteers.js';
import { VolunteersModule } from './fixtures/volunteers/volunteers.module.js';
import { createPet, createShelter, http, startApp, TOKEN } from './support/app.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 600);

interface Schema {
  $ref?: string;
  type?: string;
  properties?: Record<string, Schema>;
  example?: unknown;
  enum?: unknown[];
  items?: Schema;
  allOf?: Schema[];
}

type Components = Record<string, Schema>;

/** A body the document calls valid, built from its examples and bounds (a start for mutations). */
function sample(schema: Schema, components: Components): unknown {
  if (schema.$ref !== undefined) {
    return sample(components[schema.$ref.split('/').pop()!], components);
  }
  if (schema.allOf?.length) {
    return sample(schema.allOf[0], components);
  }
  if (schema.example !== undefined) {
    return schema.example;
  }
  if (schema.enum?.length) {
    return schema.enum[0];
  }
  switch (schema.type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([name, property]) => [name, sample(property, components)]),
      );
    case 'array':
      return [sample(schema.items ?? { type: 'string' }, components)];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    default:
      return 'text';
  }
}

describe('every route, fuzzed from the application itself', () => {
  let app: INestApplication;
  let routes: { method: string; path: string }[];
  const bodies = new Map<string, unknown>();

  beforeAll(async () => {
    app = await startApp({}, [VolunteersModule]);
    const runner = app.get(DataSource).createQueryRunner();
    await new Volunteers1790000000000().up(runner);
    await runner.release();
    const shelter = await createShelter(app);
    await createPet(app, shelter.id);

    routes = app.get(RouteTable).routes();
    const document = (await http(app).get('/openapi.json').expect(200)).body as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> } }>>;
      components: { schemas: Components };
    };
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const schema = operation.requestBody?.content['application/json']?.schema;
        if (schema !== undefined) {
          bodies.set(
            `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`,
            sample(schema, document.components.schemas),
          );
        }
      }
    }
  });
  afterAll(async () => {
    await app.close();
  });

  it('covers the module added by the recipe', () => {
    expect(routes).toEqual(expect.arrayContaining([{ method: 'POST', path: '/volunteers' }]));
    expect(bodies.has('POST /volunteers')).toBe(true);
  });

  it('never answers 5xx, whatever is sent to any route', async () => {
    const hostileValue = fc.oneof(
      fc.jsonValue(),
      fc.string(),
      fc.constantFrom(null, '', -1, 0, 1e308, '\u0000', '\ud800', [], {}),
    );
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 10_000 }),
        fc.constantFrom('1', '2', '0', 'abc', '99999999999999999999', '%ff', '1.5'),
        fc.option(fc.tuple(fc.string({ maxLength: 12 }), hostileValue), { nil: undefined }),
        fc.boolean(),
        fc.boolean(),
        async (pick, id, mutation, withToken, dropBody) => {
          const route = routes[pick % routes.length];
          const path = route.path.replace(/:(\w+)/g, () => encodeURIComponent(id).replace('%25', '%'));
          let request = http(app)[route.method.toLowerCase() as 'get'](path);
          if (withToken) {
            request = request.set('Authorization', TOKEN);
          }
          const sampleBody = bodies.get(`${route.method} ${route.path}`);
          if (sampleBody !== undefined && !dropBody) {
            const body =
              mutation === undefined || typeof sampleBody !== 'object' || sampleBody === null
                ? sampleBody
                : { ...sampleBody, [mutation[0]]: mutation[1] };
            request = request.send(body as object);
          }
          const res = await request;
          cases++;
          expect(res.status).toBeLessThan(500);
          expect(res.headers['x-request-id']).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
          if (res.status >= 400 && route.method !== 'HEAD') {
            expect(res.body).toMatchObject({ status: res.status, request_id: res.headers['x-request-id'] });
            expect(typeof (res.body as { message?: unknown }).message).toBe('string');
          }
        },
      ),
      { numRuns: RUNS },
    );
    process.stdout.write(`route fuzz: ${cases} cases over ${routes.length} routes, 0 answers of 5xx\n`);
  }, 120_000);
});
