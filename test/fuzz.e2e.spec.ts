/**
 * Property-based fuzzing of every endpoint: random methods, paths, query strings, headers
 * and bodies (from nearly valid to garbage). Whatever arrives, the service never answers
 * 5xx, every error has the contract's shape, and afterwards the database holds exactly
 * what the successful requests wrote. Seeded: FUZZ_SEED and FUZZ_RUNS reproduce a run.
 */
import type { INestApplication } from '@nestjs/common';
import fc from 'fast-check';

import { createPet, createShelter, http, startApp, TOKEN } from './support/app.js';
import { onPostgres } from './support/database.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 2_500);

const ERROR_KEYS = ['details', 'error', 'message', 'request_id', 'retry_after', 'status'];
const LEAKS = /\bat .*\.(js|ts):\d+|SELECT |INSERT |UPDATE .* SET|QueryFailedError|SQLITE_|node_modules/;

type Body = Record<string, unknown> & { id: number };

const printable = (max: number) => fc.stringMatching(new RegExp(`^[\\x20-\\x7e]{0,${max}}$`));

const junkSegment = fc.oneof(
  fc.constantFrom('0', '-1', '1.5', '1e3', '01', '0x1', '%', '%00', '%2F', '..', '%ff', '9'.repeat(25), ' ', ''),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  printable(12),
);
const idSegment = fc.oneof({ weight: 6, arbitrary: fc.integer({ min: 1, max: 12 }).map(String) }, junkSegment);

const path = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('/pets', '/shelters') },
  {
    weight: 8,
    arbitrary: fc
      .tuple(
        fc.constantFrom('/pets/', '/pets/', '/shelters/', '/shelter/', '/auth/tokens/'),
        idSegment,
        fc.constantFrom('', '', '', '/history'),
      )
      .map(([base, id, tail]) => base + id + tail),
  },
  { weight: 1, arbitrary: fc.constantFrom('/shelter', '/auth/tokens', '/', '/pets/', '/PETS', '/pets//') },
  { weight: 1, arbitrary: fc.webPath() },
);

const query = fc.oneof(
  { weight: 20, arbitrary: fc.constant('') },
  fc
    .array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom('species', 'status', 'breed', 'size', 'gender', 'shelter_id', '__proto__', 'species[]'),
          fc.constantFrom(
            'limit',
            'offset',
            'sort',
            '_limit',
            '_start',
            '_offset',
            '_sort',
            '_order',
            'q',
            'temperament',
            'age_months_min',
            'age_months_max',
            'intake_date_from',
            'intake_date_to',
          ),
          fc.string({ maxLength: 8 }),
        ),
        fc.oneof(
          fc.constantFrom('cat', 'dog', 'available', 'small', 'female', '1', '2'),
          fc.constantFrom('0', '100', '101', '-id', 'name', '-intake_date', 'desc', '2025-01-01', '%', '_', 'cat,dog'),
          fc.string({ maxLength: 10 }),
        ),
      ),
      { maxLength: 4 },
    )
    .map((pairs) => `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`),
  printable(30).map((raw) => `?${raw}`),
);

const anyJson = fc.jsonValue({ maxDepth: 3 });
/** Mostly a valid value, sometimes a wrong one of the right kind, now and then any JSON at all. */
const maybe = (valid: fc.Arbitrary<unknown>, wrong: unknown[] = []): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 24, arbitrary: valid },
    { weight: wrong.length > 0 ? 1 : 0, arbitrary: fc.constantFrom(...(wrong.length > 0 ? wrong : [null])) },
    { weight: 1, arbitrary: anyJson },
  );

const petFields = {
  name: maybe(fc.constantFrom('Rex', 'Whiskers', '🐱'), [' ', '', 'x'.repeat(101), 'a\u0000b']),
  species: maybe(fc.constantFrom('cat', 'dog'), ['Cat', 'bird']),
  breed: maybe(fc.constantFrom('Siamese', 'Beagle', 'mixed'), ['']),
  age_months: maybe(fc.integer({ min: 0, max: 600 }), [-1, 601, 1.5, '12', 2 ** 60]),
  gender: maybe(fc.constantFrom('male', 'female'), ['other']),
  size: maybe(fc.constantFrom('small', 'medium', 'large'), ['huge']),
  temperament: maybe(fc.string({ maxLength: 20 }), ['x'.repeat(501)]),
  medical: maybe(
    fc.record(
      {
        spayed_neutered: maybe(fc.boolean(), ['yes']),
        vaccinations: maybe(fc.array(fc.constantFrom('rabies', 'fvrcp', 'dhpp'), { maxLength: 3 }), [[''], 'rabies']),
      },
      { requiredKeys: [] },
    ),
    [[], 'healthy'],
  ),
  description: maybe(fc.string({ maxLength: 30 })),
  shelter_id: maybe(fc.integer({ min: 1, max: 4 }), [0, -1, '1', 2_147_483_648]),
  status: maybe(fc.constantFrom('available', 'pending', 'adopted'), ['sold']),
  intake_date: maybe(fc.constantFrom('2024-02-29', '2025-12-31', '2001-01-01'), [
    '2023-02-29',
    '2024-1-1',
    '0000-01-01',
  ]),
  id: fc.integer(),
  color: fc.string(),
};

const shelterFields = {
  name: maybe(fc.constantFrom('Happy Tails', 'Paws'), ['']),
  address: maybe(fc.constantFrom('12 Main St', 'Rue 5')),
  phone: maybe(fc.constantFrom('+1-555-123-4567', '+44 20 7946 0958'), ['555', 'call me']),
  email: maybe(fc.constantFrom('hello@happytails.org', 'a@b.co'), ['not-an-email', 'a@b']),
  hours: maybe(fc.constantFrom('Mon-Fri 9:00-17:00', 'daily'), ['']),
  available_pet_count: maybe(fc.integer({ min: 0, max: 20 }), [-1, 2.5]),
  adoption_fee_range: maybe(fc.constantFrom('75-200', '0-0', '50'), ['200-75', '$50']),
};

/** A record with every known field, or with some of them and an occasional stranger. */
function bodyOf(fields: Record<string, fc.Arbitrary<unknown>>) {
  const { id, color, ...known } = fields;
  return fc.oneof(
    { weight: 3, arbitrary: fc.record(known) },
    fc.record(known, { requiredKeys: [] }),
    fc.record(id && color ? { ...known, id, color } : known, { requiredKeys: [] }),
  );
}

const petBody = bodyOf(petFields).map((value) => JSON.stringify(value));
const shelterBody = bodyOf(shelterFields).map((value) => JSON.stringify(value));
const anyBody = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 4, arbitrary: petBody },
  { weight: 3, arbitrary: shelterBody },
  { weight: 1, arbitrary: anyJson.map((value) => JSON.stringify(value)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
);

/** The API's own operations, each with the body it expects (most of the time). */
const OPERATIONS = [
  ['get', '/pets', undefined],
  ['get', '/shelters', undefined],
  ['post', '/pets', petBody],
  ['post', '/pets', petBody],
  ['post', '/shelters', shelterBody],
  ['get', '/pets/{id}', undefined],
  ['put', '/pets/{id}', petBody],
  ['patch', '/pets/{id}', petBody],
  ['patch', '/pets/{id}', petBody],
  ['delete', '/pets/{id}', undefined],
  ['get', '/shelters/{id}', undefined],
  ['get', '/shelter/{id}', undefined],
  ['put', '/shelters/{id}', shelterBody],
  ['patch', '/shelters/{id}', shelterBody],
  ['patch', '/shelter/{id}', shelterBody],
  ['delete', '/shelters/{id}', undefined],
  ['get', '/auth/tokens', undefined],
  ['post', '/auth/tokens', anyBody],
] as const;

const operation = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom(...OPERATIONS).chain(([method, template, expected]) =>
      fc.record({
        method: fc.constant<string>(method),
        path: template.includes('{id}') ? idSegment.map((id) => template.replace('{id}', id)) : fc.constant(template),
        body: fc.oneof({ weight: 6, arbitrary: expected ?? fc.constant(undefined) }, { weight: 1, arbitrary: anyBody }),
      }),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      method: fc.constantFrom('get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'propfind'),
      path,
      body: anyBody,
    }),
  },
);

const requestArbitrary = fc
  .record({
    operation,
    query,
    authorization: fc.oneof(
      { weight: 20, arbitrary: fc.constant(TOKEN) },
      fc.constantFrom(undefined, '', 'Bearer', 'Bearer ', 'Basic dXNlcjpwYXNz', 'bearer x'),
      printable(20),
    ),
    contentType: fc.oneof(
      { weight: 20, arbitrary: fc.constant('application/json') },
      fc.constantFrom(
        undefined,
        'application/json; charset=utf-8',
        'text/plain',
        'application/jsonx',
        'APPLICATION/JSON',
      ),
      printable(20),
    ),
    ifMatch: fc.oneof(
      { weight: 12, arbitrary: fc.constant(undefined) },
      fc.constantFrom('*', '"1.1"', 'W/"1.1"'),
      printable(12),
    ),
    idempotencyKey: fc.oneof(
      { weight: 8, arbitrary: fc.constant(undefined) },
      fc.constantFrom('retry-1', 'retry-2'),
      printable(12),
    ),
    ifNoneMatch: fc.oneof(
      { weight: 6, arbitrary: fc.constant(undefined) },
      fc.constantFrom('*', '"1.1"'),
      printable(12),
    ),
  })
  .map(({ operation: { method, path, body }, ...rest }) => ({ method, path, body, ...rest }));

type FuzzRequest = typeof requestArbitrary extends fc.Arbitrary<infer T> ? T : never;

describe(`fuzzing every endpoint (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  let app: INestApplication;
  const model = { pets: new Map<number, Body>(), shelters: new Map<number, Body>() };
  const statuses = new Map<number, number>();

  beforeAll(async () => {
    app = await startApp();
    for (let index = 0; index < 3; index++) {
      const shelter = (await createShelter(app, { name: `Shelter ${index}` })) as Body;
      model.shelters.set(shelter.id, shelter);
    }
    for (let index = 0; index < 6; index++) {
      const pet = (await createPet(app, 1 + (index % 3), { name: `Pet ${index}` })) as Body;
      model.pets.set(pet.id, pet);
    }
  });
  afterAll(async () => {
    await app.close();
  });

  /** Updates the model from a successful write, by the body the service answered with (a replay wrote nothing). */
  function record(req: FuzzRequest, status: number, answer: unknown, replayed: boolean): void {
    const resource = /^\/(pets|shelters?)(\/|$)/.exec(req.path)?.[1];
    if (resource === undefined || status >= 300 || replayed || typeof answer !== 'object' || answer === null) {
      return;
    }
    const table = resource === 'pets' ? model.pets : model.shelters;
    const written = answer as Body;
    if (req.method === 'delete') {
      table.delete(written.id);
    } else if (['post', 'put', 'patch'].includes(req.method)) {
      table.set(written.id, written);
    }
  }

  it(`never answers 5xx, always in the error shape, and stores only acknowledged writes (${RUNS} cases)`, async () => {
    await fc.assert(
      fc.asyncProperty(requestArbitrary, async (req) => {
        let pending = (
          http(app) as unknown as Record<string, (url: string) => ReturnType<ReturnType<typeof http>['get']>>
        )[req.method](req.path + req.query);
        for (const [name, value] of [
          ['Authorization', req.authorization],
          ['Content-Type', req.contentType],
          ['If-Match', req.ifMatch],
          ['If-None-Match', req.ifNoneMatch],
          ['Idempotency-Key', req.idempotencyKey],
        ] as const) {
          if (value !== undefined) {
            pending = pending.set(name, value);
          }
        }
        if (req.body !== undefined) {
          // A string goes out as it is; a Buffer keeps superagent from choosing a Content-Type.
          pending = pending.send(req.contentType === undefined ? Buffer.from(req.body) : req.body);
        }
        const res = await pending;
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);

        expect(res.status).toBeLessThan(500);
        expect(res.text ?? '').not.toMatch(LEAKS);
        if (res.status >= 400 && req.method !== 'head') {
          const error = res.body as Record<string, unknown>;
          expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
          expect(ERROR_KEYS).toEqual(expect.arrayContaining(Object.keys(error)));
          expect(error).toMatchObject({ status: res.status, error: expect.any(String), message: expect.any(String) });
          expect(typeof error.request_id).toBe('string');
        }
        record(req, res.status, res.body, res.headers['idempotent-replayed'] === 'true');
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );

    const byId = (rows: Map<number, Body>) => [...rows.values()].sort((a, b) => a.id - b.id);
    await http(app).get('/pets').expect(200, byId(model.pets));
    await http(app).get('/shelters').expect(200, byId(model.shelters));
    console.log(
      `fuzz (${onPostgres ? 'PostgreSQL' : 'SQLite'}): ${RUNS} cases, seed ${SEED}; statuses ` +
        JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b))) +
        `; database matches the acknowledged writes (${model.pets.size} pets, ${model.shelters.size} shelters)`,
    );
  });
});
