/**
 * Property-based fuzzing of every endpoint: random methods, paths, query strings, headers
 * and bodies (from nearly valid to garbage), through an HTTP client and written by hand on a
 * socket (for what clients will not send: no Host, a wrong Content-Length, odd Expect values,
 * control bytes). Bodies get arrays and objects nested thousands deep at any JSON position,
 * and bytes that are not UTF-8; every header the contract reads gets hostile values.
 * Whatever arrives, the service never answers 5xx, every answer carries X-Request-Id (and,
 * when the request reached the API, the X-RateLimit headers), every error has the contract's
 * shape, no 100 Continue precedes a refusal, and afterwards the database holds exactly what
 * the successful requests wrote. Seeded: FUZZ_SEED and FUZZ_RUNS reproduce a run.
 */
import { connect } from 'node:net';
import { gunzipSync } from 'node:zlib';

import type { INestApplication } from '@nestjs/common';
import fc from 'fast-check';

import { createPet, createShelter, http, startApp, TOKEN } from './support/app.js';
import { onPostgres } from './support/database.js';
import { portOf } from './support/raw-http.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 5_000);
const ADAPTER = process.env.HTTP_ADAPTER ?? 'express';

const ERROR_KEYS = ['details', 'error', 'message', 'request_id', 'retry_after', 'status'];
const LEAKS = /\bat .*\.(js|ts):\d+|SELECT |INSERT |UPDATE .* SET|QueryFailedError|SQLITE_|node_modules/;
const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * Asks Jest's matchers (tens of microseconds each, some 50,000 times a run) only when
 * the plain check fails, so that a failure still reads as theirs.
 */
function ensure(holds: boolean, assertion: () => void): void {
  if (!holds) {
    assertion();
    throw new Error('the check failed, yet its assertion passed');
  }
}

type Body = Record<string, unknown> & { id: number };

const printable = (max: number) => fc.stringMatching(new RegExp(`^[\\x20-\\x7e]{0,${max}}$`));

const junkSegment = fc.oneof(
  fc.constantFrom('0', '-1', '1.5', '1e3', '01', '0x1', '%', '%00', '%2F', '..', '%ff', '9'.repeat(25), ' ', ''),
  fc.constantFrom('1'.repeat(101), '9'.repeat(2_000), 'x'.repeat(300)),
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

/** How deep structures are nested when they are: past where recursive code runs out of stack. */
const NEST_KINDS = ['arrays', 'objects', 'mixed'] as const;
type Nesting = { kind: (typeof NEST_KINDS)[number]; depth: number; position: number };
const nesting: fc.Arbitrary<Nesting | undefined> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  fc.record({
    kind: fc.constantFrom(...NEST_KINDS),
    depth: fc.oneof(fc.integer({ min: 1_000, max: 3_000 }), fc.integer({ min: 3_000, max: 16_000 })),
    position: fc.nat(),
  }),
);

function nestedText({ kind, depth }: Nesting): string {
  if (kind === 'arrays') {
    return `${'['.repeat(depth)}${']'.repeat(depth)}`;
  }
  if (kind === 'objects') {
    return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  }
  return `${'[{"a":'.repeat(depth / 2)}1${'}]'.repeat(depth / 2)}`;
}

/** Every position in a JSON value, as key paths: the root, each member and each element. */
function positionsOf(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  const positions = [path];
  if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      positions.push(...positionsOf(inner, [...path, Array.isArray(value) ? Number(key) : key]));
    }
  }
  return positions;
}

const MARKER = '\u0001nested\u0001';

/** The JSON text of `value` with one position (chosen by `position`) nested `depth` deep. */
function withNesting(value: unknown, nest: Nesting): string {
  const positions = positionsOf(value);
  const path = positions[nest.position % positions.length];
  if (path.length === 0) {
    return nestedText(nest);
  }
  const copy = JSON.parse(JSON.stringify(value)) as Record<string | number, unknown>;
  let holder = copy;
  for (const key of path.slice(0, -1)) {
    holder = holder[key] as Record<string | number, unknown>;
  }
  Object.defineProperty(holder, path[path.length - 1], { value: MARKER, enumerable: true, writable: true });
  return JSON.stringify(copy).replace(JSON.stringify(MARKER), nestedText(nest));
}

/** Bytes that are not UTF-8: stray, cut short, overlong, surrogates, beyond U+10FFFF. */
const INVALID_UTF8 = [
  [0xff],
  [0xfe],
  [0x80],
  [0xbf, 0x80],
  [0xc3],
  [0xe2, 0x82],
  [0xf0, 0x9f, 0x98],
  [0xc0, 0xaf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xed, 0xbf, 0xbf],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xe9],
];
type Corruption = { bytes: number[]; offset: number };
const corruption: fc.Arbitrary<Corruption | undefined> = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  fc.record({ bytes: fc.constantFrom(...INVALID_UTF8), offset: fc.nat() }),
);

/** A JSON body text, possibly nested deep somewhere. */
const jsonBody = (value: fc.Arbitrary<unknown>) =>
  fc
    .tuple(value, nesting)
    .map(([body, nest]) => ({ text: nest === undefined ? JSON.stringify(body) : withNesting(body, nest), nest }));

const petBody = jsonBody(bodyOf(petFields));
const shelterBody = jsonBody(bodyOf(shelterFields));
const tokenBody = jsonBody(
  fc.record(
    {
      name: maybe(fc.constantFrom('ci', 'sync'), ['', null]),
      tier: maybe(fc.constantFrom('free', 'standard', 'premium', 'enterprise'), ['gold', null]),
      expires_in_days: maybe(fc.integer({ min: 1, max: 365 }), [0, 366, null]),
    },
    { requiredKeys: [] },
  ),
);
type BodyText = { text: string; nest?: Nesting };
const anyBody: fc.Arbitrary<BodyText | undefined> = fc.oneof(
  { weight: 2, arbitrary: fc.constant(undefined) },
  { weight: 4, arbitrary: petBody },
  { weight: 3, arbitrary: shelterBody },
  { weight: 1, arbitrary: jsonBody(anyJson) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((text) => ({ text })) },
);

/** The API's own operations, each with the body it expects (most of the time). */
const OPERATIONS = [
  ['get', '/pets', undefined],
  ['get', '/shelters', undefined],
  ['post', '/pets', petBody],
  ['post', '/pets', petBody],
  ['post', '/shelters', shelterBody],
  ['get', '/pets/{id}', undefined],
  ['get', '/pets/{id}/history', undefined],
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
  ['post', '/auth/tokens', tokenBody],
  ['get', '/health/live', undefined],
] as const;

const operation = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.constantFrom(...OPERATIONS).chain(([method, template, expected]) =>
      fc.record({
        method: fc.constant<string>(method),
        path: template.includes('{id}') ? idSegment.map((id) => template.replace('{id}', id)) : fc.constant(template),
        body: fc.oneof(
          { weight: 6, arbitrary: (expected ?? fc.constant(undefined)) as fc.Arbitrary<BodyText | undefined> },
          { weight: 1, arbitrary: anyBody },
        ),
        corrupt: corruption,
      }),
    ),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      method: fc.constantFrom('get', 'head', 'post', 'put', 'patch', 'delete', 'options', 'propfind'),
      path,
      body: anyBody,
      corrupt: corruption,
    }),
  },
);

/** Header values a client library lets through (Node's client refuses control characters). */
const headerText = (max: number) => fc.stringMatching(new RegExp(`^[\\t\\x20-\\x7e\\x80-\\xff]{0,${max}}$`));
const LONG = 'x'.repeat(9_000);

/** Every header the contract reads: usually absent or well formed, now and then hostile. */
const headers = {
  authorization: fc.oneof(
    { weight: 20, arbitrary: fc.constant<string | undefined>(TOKEN) },
    fc.constantFrom(
      undefined,
      '',
      'Bearer',
      'Bearer ',
      'Basic dXNlcjpwYXNz',
      'bearer x',
      'Bearer  x',
      `Bearer ${LONG}`,
    ),
    fc.constantFrom('Bearer \t test-token', 'BEARER test-token', 'Bearer test-token extra', 'Bearer\ttest-token'),
    headerText(24),
  ),
  contentType: fc.oneof(
    { weight: 20, arbitrary: fc.constant<string | undefined>('application/json') },
    fc.constantFrom(
      undefined,
      'application/json; charset=utf-8',
      'application/json; charset=latin1',
      'text/plain',
      'application/jsonx',
      'APPLICATION/JSON',
      ';;;/===',
      '/',
      'application/json;;;',
      'application/json, text/plain',
      `application/json; ${LONG}`,
    ),
    headerText(24),
  ),
  ifMatch: fc.oneof(
    { weight: 12, arbitrary: fc.constant<string | undefined>(undefined) },
    fc.constantFrom('*', '"1.1"', 'W/"1.1"', '"1.1", "2.1"', ',,,', '"', `"${LONG}"`),
    headerText(16),
  ),
  ifNoneMatch: fc.oneof(
    { weight: 6, arbitrary: fc.constant<string | undefined>(undefined) },
    fc.constantFrom('*', '"1.1"', '"1.1", W/"1.1"', '**'),
    headerText(16),
  ),
  idempotencyKey: fc.oneof(
    { weight: 8, arbitrary: fc.constant<string | undefined>(undefined) },
    fc.constantFrom('retry-1', 'retry-2', 'x'.repeat(255), 'x'.repeat(256), '', ' ', 'a b', 'caf\xe9'),
    headerText(12),
  ),
  requestId: fc.oneof(
    { weight: 8, arbitrary: fc.constant<string | undefined>(undefined) },
    fc.constantFrom('trace-1', 'a'.repeat(128), 'a'.repeat(129), '', 'a b', 'caf\xe9', '../../etc'),
    headerText(20),
  ),
  acceptEncoding: fc.oneof(
    { weight: 8, arbitrary: fc.constant<string | undefined>(undefined) },
    fc.constantFrom('gzip', 'gzip, deflate, br', 'gzip;q=0', 'identity;q=0, *;q=0', '*', ';;;', 'gzip;q=x', 'br;q=1'),
    headerText(20),
  ),
  forwardedFor: fc.oneof(
    { weight: 8, arbitrary: fc.constant<string | undefined>(undefined) },
    fc.constantFrom('203.0.113.1', '198.51.100.2, 203.0.113.1', '::1', '[::1]:80', 'unknown', 'garbage', ' , , '),
    fc.constantFrom('999.999.999.999', '203.0.113.1'.padEnd(300, ','), '::ffff:10.0.0.1', '10.0.0.1%eth0'),
    headerText(30),
  ),
};

const requestArbitrary = fc
  .record({ operation, query, ...headers })
  .map(({ operation: { method, path, body, corrupt }, ...rest }) => ({ method, path, body, corrupt, ...rest }));

type FuzzRequest = typeof requestArbitrary extends fc.Arbitrary<infer T> ? T : never;

/** What only a hand-written request can carry: no Host or an odd one, a wrong length, an Expect, raw bytes. */
const rawExtras = fc.record({
  host: fc.oneof(
    { weight: 12, arbitrary: fc.constant<string | undefined>('localhost') },
    fc.constantFrom(undefined, '', 'evil.example:99999', '[::1', 'a b', LONG, 'localhost\u0000', 'localhost, other'),
  ),
  duplicateHost: fc.boolean(),
  contentLength: fc.oneof(
    { weight: 12, arbitrary: fc.constant<string>('exact') },
    fc.constantFrom(
      'none',
      'chunked',
      'more',
      'less',
      '-1',
      'abc',
      '1e3',
      '0x10',
      ' 5',
      '99999999999999999999',
      'twice',
    ),
  ),
  expect: fc.oneof(
    { weight: 8, arbitrary: fc.constant<string | undefined>(undefined) },
    fc.constantFrom('100-continue', '100-Continue', '200-ok', '', 'x', '100-continue, 200-ok', '101-continue'),
  ),
  version: fc.oneof(
    { weight: 12, arbitrary: fc.constant('HTTP/1.1') },
    fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/1.'),
  ),
  controlByte: fc.oneof(
    { weight: 12, arbitrary: fc.constant<number | undefined>(undefined) },
    fc.constantFrom(0x00, 0x01, 0x7f, 0x0b, 0xff),
  ),
});
type RawExtras = typeof rawExtras extends fc.Arbitrary<infer T> ? T : never;

const caseArbitrary = fc.record({
  request: requestArbitrary,
  raw: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 2, arbitrary: rawExtras }),
  // Then, now and then, the last create sent with an Idempotency-Key again, the token spelled otherwise.
  respelled: fc.oneof(
    { weight: 6, arbitrary: fc.constant<string | undefined>(undefined) },
    fc.constantFrom('bearer test-token', 'Bearer  test-token', 'BEARER test-token ', ' Bearer\ttest-token'),
  ),
});

/** A create that succeeded with an Idempotency-Key: sent again by the same caller, it is answered the same. */
interface KeyedCreate {
  path: string;
  body: Buffer;
  key: string;
  answer: string;
}

function notUtf8(req: FuzzRequest): boolean {
  return req.corrupt !== undefined && req.body !== undefined;
}

/** The body's bytes, with bytes that are not UTF-8 spliced in when the case says so. */
function bodyBytes(req: FuzzRequest): Buffer | undefined {
  if (req.body === undefined) {
    return undefined;
  }
  const bytes = Buffer.from(req.body.text);
  if (req.corrupt === undefined) {
    return bytes;
  }
  const at = req.corrupt.offset % (bytes.length + 1);
  return Buffer.concat([bytes.subarray(0, at), Buffer.from(req.corrupt.bytes), bytes.subarray(at)]);
}

interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  text: string;
}

/** The request written by hand: request line, headers as generated, the body as bytes. */
function rawRequest(req: FuzzRequest, raw: RawExtras, body: Buffer | undefined): Buffer {
  const lines = [`${req.method.toUpperCase()} ${req.path}${req.query} ${raw.version}`];
  const add = (name: string, value: string | undefined) => {
    if (value !== undefined) {
      lines.push(`${name}: ${value}`);
    }
  };
  add('Host', raw.host);
  if (raw.duplicateHost) {
    add('Host', 'second.example');
  }
  add('Authorization', req.authorization);
  add('Content-Type', req.contentType);
  add('If-Match', req.ifMatch);
  add('If-None-Match', req.ifNoneMatch);
  add('Idempotency-Key', req.idempotencyKey);
  add('X-Request-Id', req.requestId);
  add('Accept-Encoding', req.acceptEncoding);
  add('X-Forwarded-For', req.forwardedFor);
  add('Expect', raw.expect);
  const payload = body ?? Buffer.alloc(0);
  let sent = payload;
  switch (raw.contentLength) {
    case 'exact':
      if (body !== undefined) {
        add('Content-Length', String(payload.length));
      }
      break;
    case 'none':
      break;
    case 'chunked':
      add('Transfer-Encoding', 'chunked');
      sent = Buffer.concat([Buffer.from(`${payload.length.toString(16)}\r\n`), payload, Buffer.from('\r\n0\r\n\r\n')]);
      if (payload.length === 0) {
        sent = Buffer.from('0\r\n\r\n');
      }
      break;
    case 'more':
      add('Content-Length', String(payload.length + 7));
      break;
    case 'less':
      add('Content-Length', String(Math.max(0, payload.length - 3)));
      break;
    case 'twice':
      add('Content-Length', String(payload.length));
      add('Content-Length', String(payload.length + 1));
      break;
    default:
      add('Content-Length', raw.contentLength);
  }
  add('Connection', 'close');
  let head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
  if (raw.controlByte !== undefined) {
    // A byte where none belongs, in the middle of the headers.
    const at = Math.floor(head.length / 2);
    head = Buffer.concat([head.subarray(0, at), Buffer.from([raw.controlByte]), head.subarray(at)]);
  }
  return Buffer.concat([head, sent]);
}

/** Declared lengths longer than the body: the server waits for the rest, so the client half-closes. */
const SHORT_BODIES = new Set(['more', ' 5']);

/**
 * Sends a hand-written request and reads every answer until the server closes the connection
 * (the request says `Connection: close`). With `halfClose`, the client ends its side after
 * the request, as a client whose body fell short would; Node then closes the connection,
 * possibly before answering.
 */
function exchange(port: number, request: Buffer, halfClose: boolean): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => (halfClose ? socket.end(request) : socket.write(request)));
    const chunks: Buffer[] = [];
    const deadline = setTimeout(() => {
      socket.destroy();
      reject(new Error('no answer within 10 s'));
    }, 10_000);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined); // a reset after the answer is not the server's failure
    socket.on('close', () => {
      clearTimeout(deadline);
      resolve(Buffer.concat(chunks));
    });
  });
}

/** The answers in what came back: interim ones, then final ones (bodies by length or chunks). */
function parseAnswers(bytes: Buffer, method: string): Answer[] {
  const answers: Answer[] = [];
  let rest = bytes;
  while (rest.length > 0) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1 || !rest.subarray(0, 5).equals(Buffer.from('HTTP/'))) {
      throw new Error(`unreadable answer: ${JSON.stringify(rest.subarray(0, 200).toString('latin1'))}`);
    }
    const [statusLine, ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const status = Number(statusLine.split(' ')[1]);
    const headerMap: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headerMap[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
    }
    rest = rest.subarray(end + 4);
    let body: Buffer = Buffer.alloc(0);
    // Node's parser refuses a request it cannot read without knowing it was a HEAD: that answer has its body.
    const readByApi = headerMap['content-security-policy'] !== undefined;
    const bodiless = (method === 'HEAD' && readByApi) || status < 200 || status === 204 || status === 304;
    if (!bodiless && headerMap['transfer-encoding'] === 'chunked') {
      const parts: Buffer[] = [];
      for (;;) {
        const lineEnd = rest.indexOf('\r\n');
        const size = parseInt(rest.subarray(0, lineEnd).toString('latin1'), 16);
        rest = rest.subarray(lineEnd + 2);
        if (size === 0) {
          rest = rest.subarray(rest.indexOf('\r\n') + 2);
          break;
        }
        parts.push(rest.subarray(0, size));
        rest = rest.subarray(size + 2);
      }
      body = Buffer.concat(parts);
    } else if (!bodiless) {
      const length = headerMap['content-length'] === undefined ? rest.length : Number(headerMap['content-length']);
      body = rest.subarray(0, length);
      rest = rest.subarray(length);
    }
    const text = (headerMap['content-encoding'] === 'gzip' ? gunzipSync(body) : body).toString('utf8');
    answers.push({ status, headers: headerMap, text });
  }
  return answers;
}

describe(`fuzzing every endpoint (${onPostgres ? 'PostgreSQL' : 'SQLite'}, ${ADAPTER})`, () => {
  let app: INestApplication;
  let port: number;
  const model = { pets: new Map<number, Body>(), shelters: new Map<number, Body>() };
  const statuses = new Map<number, number>();
  const counts = { client: 0, socket: 0, nested: 0, notUtf8: 0, continued: 0, replayed: 0 };
  let lastKeyed: KeyedCreate | undefined;

  beforeAll(async () => {
    // X-Forwarded-For from the test's own address is believed, so its hostile values reach the adapters' parsing.
    app = await startApp({ TRUST_PROXY: 'loopback' });
    port = await portOf(app);
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
  function record(req: FuzzRequest, answer: Answer): void {
    const resource = /^\/(pets|shelters?)(\/|$)/.exec(req.path)?.[1];
    if (resource === undefined || answer.status >= 300 || answer.headers['idempotent-replayed'] === 'true') {
      return;
    }
    if (!['post', 'put', 'patch', 'delete'].includes(req.method)) {
      return;
    }
    const written = JSON.parse(answer.text) as Body;
    const table = resource === 'pets' ? model.pets : model.shelters;
    if (req.method === 'delete') {
      table.delete(written.id);
    } else {
      table.set(written.id, written);
    }
  }

  /** What every answer must be, whoever sent the request. */
  function check(req: FuzzRequest, answer: Answer, head: boolean, bodyDelivered = true): void {
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    ensure(answer.status < 500, () => expect(answer.status).toBeLessThan(500));
    ensure(!LEAKS.test(answer.text), () => expect(answer.text).not.toMatch(LEAKS));
    const requestId = answer.headers['x-request-id'];
    ensure(REQUEST_ID.test(requestId ?? ''), () => expect(requestId).toMatch(REQUEST_ID));
    if (answer.headers['content-security-policy'] !== undefined) {
      // It reached the API (not refused by Node's parser): it was counted, and says so.
      for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
        ensure(/^\d+$/.test(answer.headers[name] ?? ''), () => expect(answer.headers[name]).toMatch(/^\d+$/));
      }
    }
    if (answer.status === 401) {
      ensure(answer.headers['www-authenticate'] === 'Bearer', () =>
        expect(answer.headers['www-authenticate']).toBe('Bearer'),
      );
    }
    if (answer.status >= 400 && !head) {
      const type = answer.headers['content-type'];
      ensure(type === 'application/json; charset=utf-8', () => expect(type).toBe('application/json; charset=utf-8'));
      const error = JSON.parse(answer.text) as Record<string, unknown>;
      ensure(
        Object.keys(error).every((key) => ERROR_KEYS.includes(key)) &&
          error.status === answer.status &&
          typeof error.error === 'string' &&
          typeof error.message === 'string' &&
          error.request_id === requestId,
        () => {
          expect(ERROR_KEYS).toEqual(expect.arrayContaining(Object.keys(error)));
          expect(error).toMatchObject({
            status: answer.status,
            error: expect.any(String),
            message: expect.any(String),
          });
          expect(error.request_id).toBe(requestId);
        },
      );
      if (notUtf8(req) && bodyDelivered && error.message !== 'Request body is not valid UTF-8.') {
        // A body that is not UTF-8 is refused for it once it is read, i.e. unless refused before.
        expect(['Request body is not valid JSON.', 'Request body must be a JSON object.']).not.toContain(error.message);
      }
    }
    if (notUtf8(req) && bodyDelivered) {
      expect(answer.status === 200 && ['post', 'put', 'patch'].includes(req.method)).toBe(false);
      expect(answer.status).not.toBe(201);
    }
  }

  async function throughClient(req: FuzzRequest, body: Buffer | undefined): Promise<void> {
    let pending = (http(app) as unknown as Record<string, (url: string) => ReturnType<ReturnType<typeof http>['get']>>)[
      req.method
    ](req.path + req.query);
    for (const [name, value] of [
      ['Authorization', req.authorization],
      ['Content-Type', req.contentType],
      ['If-Match', req.ifMatch],
      ['If-None-Match', req.ifNoneMatch],
      ['Idempotency-Key', req.idempotencyKey],
      ['X-Request-Id', req.requestId],
      ['Accept-Encoding', req.acceptEncoding],
      ['X-Forwarded-For', req.forwardedFor],
    ] as const) {
      if (value !== undefined) {
        pending = pending.set(name, value);
      }
    }
    if (body !== undefined) {
      // The bytes go out as they are, whatever Content-Type says.
      pending = pending.serialize((bytes: Buffer) => bytes as unknown as string).send(body);
    }
    const res = await pending.buffer(true).parse((response, done) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => done(null, Buffer.concat(chunks)));
    });
    const answer: Answer = {
      status: res.status,
      headers: res.headers,
      text: Buffer.isBuffer(res.body) ? res.body.toString('utf8') : '',
    };
    check(req, answer, req.method === 'head');
    if (req.requestId !== undefined && REQUEST_ID.test(req.requestId)) {
      ensure(answer.headers['x-request-id'] === req.requestId, () =>
        expect(answer.headers['x-request-id']).toBe(req.requestId),
      );
    }
    record(req, answer);
    const key = req.idempotencyKey;
    // Creates of pets and shelters are idempotent (tokens are not).
    const idempotent = req.method === 'post' && ['/pets', '/shelters'].includes(req.path);
    if (idempotent && answer.status === 201 && req.authorization === TOKEN && key !== undefined) {
      if (answer.headers['idempotent-replayed'] === undefined && body !== undefined) {
        lastKeyed = { path: req.path + req.query, body, key, answer: answer.text };
      }
    }
  }

  /** Sends the last keyed create again with the token spelled otherwise: the stored answer comes back. */
  async function replayRespelled(authorization: string): Promise<void> {
    if (lastKeyed === undefined) {
      return;
    }
    counts.replayed++;
    const res = await http(app)
      .post(lastKeyed.path)
      .set('Authorization', authorization)
      .set('Content-Type', 'application/json')
      .set('Idempotency-Key', lastKeyed.key)
      .serialize((bytes: Buffer) => bytes as unknown as string)
      .send(lastKeyed.body);
    expect({ status: res.status, replayed: res.headers['idempotent-replayed'], body: res.text }).toEqual({
      status: 201,
      replayed: 'true',
      body: lastKeyed.answer,
    });
  }

  async function bySocket(req: FuzzRequest, raw: RawExtras, body: Buffer | undefined): Promise<void> {
    const method = req.method.toUpperCase();
    const shortBody = SHORT_BODIES.has(raw.contentLength);
    const answers = parseAnswers(await exchange(port, rawRequest(req, raw, body), shortBody), method);
    const interim = answers.filter((answer) => answer.status < 200);
    const final = answers.filter((answer) => answer.status >= 200);
    if (final.length === 0) {
      // Only a client that stopped sending may go unanswered.
      expect(shortBody).toBe(true);
      return;
    }
    for (const answer of interim) {
      expect(answer.status).toBe(100);
    }
    if (interim.length > 0) {
      counts.continued++;
      // 100 Continue comes only after the checks that do not need the body have passed.
      expect([401, 403, 413, 415, 417, 429]).not.toContain(final[0].status);
    }
    for (const [index, answer] of final.entries()) {
      const delivered = index === 0 && ['exact', 'chunked'].includes(raw.contentLength);
      check(req, answer, index === 0 && method === 'HEAD', delivered);
    }
    if (
      final[0].headers['content-security-policy'] !== undefined &&
      raw.version === 'HTTP/1.1' &&
      raw.host === undefined &&
      !raw.duplicateHost
    ) {
      expect(final[0].status).toBe(400);
    }
    if (final.length === 1 && raw.contentLength !== 'less') {
      record(req, final[0]);
    }
  }

  it(`never answers 5xx, always in the error shape, and stores only acknowledged writes (${RUNS} cases)`, async () => {
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async ({ request: req, raw, respelled }) => {
        const body = bodyBytes(req);
        counts.nested += req.body?.nest === undefined ? 0 : 1;
        counts.notUtf8 += notUtf8(req) ? 1 : 0;
        if (raw === undefined) {
          counts.client++;
          await throughClient(req, body);
        } else {
          counts.socket++;
          await bySocket(req, raw, body);
        }
        if (respelled !== undefined) {
          await replayRespelled(respelled);
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );

    const byId = (rows: Map<number, Body>) => [...rows.values()].sort((a, b) => a.id - b.id);
    await http(app).get('/pets').expect(200, byId(model.pets));
    await http(app).get('/shelters').expect(200, byId(model.shelters));
    console.log(
      `fuzz (${onPostgres ? 'PostgreSQL' : 'SQLite'}, ${ADAPTER}): ${counts.client + counts.socket} cases in ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s, seed ${SEED} (${counts.client} through an HTTP client, ` +
        `${counts.socket} written on a socket; ${counts.nested} bodies nested 1,000+ deep, ${counts.notUtf8} not UTF-8, ` +
        `${counts.continued} answered 100 Continue, ${counts.replayed} keyed creates sent again); statuses ` +
        JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b))) +
        `; database matches the acknowledged writes (${model.pets.size} pets, ${model.shelters.size} shelters)`,
    );
    // 5,000 cases take 10–35 s, depending on the database and on the specs running beside it.
  }, 120_000);
});
