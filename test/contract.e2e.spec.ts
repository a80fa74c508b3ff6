/**
 * Contract tests: every operation of the OpenAPI document driven with valid and invalid
 * requests, each exchange checked against the document in both directions (see
 * support/contract.ts). A violation is an answer the document does not describe, a request
 * the document calls valid that the service refuses for its form, or one the service
 * accepts that the document calls invalid. Refusals for state (404 for an unknown id, an
 * unknown `shelter_id` in a body, 409, 412, 422, 429) are answers to well-formed requests.
 */
import type { INestApplication } from '@nestjs/common';
import type { OpenAPIV3 } from 'openapi-types';

import { Messages, Rules } from '../src/common/errors/messages.js';
import { http, startApp, validPet, validShelter } from './support/app.js';
import { Contract, type Exchange } from './support/contract.js';

const TOKEN = { Authorization: 'Bearer contract-token' };
const ADMIN = { Authorization: 'Bearer contract-admin' };
const REFUSED_FOR_FORM = [400, 413, 415, 401];

interface Request {
  method: string;
  url: string;
  headers?: Record<string, string>;
  /** A JSON value, or `raw` text sent as it is. */
  body?: unknown;
  raw?: string;
}

interface Tally {
  exchanges: number;
  accepted: number;
  refused: number;
  violations: string[];
}

describe('the service and its OpenAPI document, both ways', () => {
  let app: INestApplication;
  let contract: Contract;
  const tally: Tally = { exchanges: 0, accepted: 0, refused: 0, violations: [] };

  beforeAll(async () => {
    app = await startApp();
    const document = await http(app).get('/openapi.json').expect(200);
    contract = new Contract(document.body as OpenAPIV3.Document);
  });
  afterAll(async () => {
    await app.close();
    process.stdout.write(
      `contract: ${tally.exchanges} exchanges (${tally.accepted} accepted, ${tally.refused} refused for their form), ` +
        `${tally.violations.length} violations\n`,
    );
  });

  /** Refused for what the request says rather than for the state it meets. */
  function refusedForForm(request: Request, exchange: Exchange): boolean {
    const body = (exchange.responseText === '' ? {} : JSON.parse(exchange.responseText)) as {
      message?: string;
      details?: { field: string; message: string }[];
    };
    if (exchange.status === 404) {
      return body.message === Messages.endpointNotFound();
    }
    if (!REFUSED_FOR_FORM.includes(exchange.status)) {
      return false;
    }
    const shelterId = (request.body as { shelter_id?: unknown } | undefined)?.shelter_id;
    const unknownShelter = Messages.invalidValue('shelter_id', Rules.referenceNotFound('shelter', String(shelterId)));
    return !(exchange.status === 400 && body.details?.every((detail) => detail.message === unknownShelter));
  }

  /** Sends the request, checks the exchange both ways, and returns it. */
  async function exchange(request: Request, server = app, tallied = tally): Promise<Exchange> {
    const headers = { ...request.headers };
    let body = request.raw;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const agent = http(server);
    let pending = agent[request.method.toLowerCase() as 'get'](request.url);
    for (const [name, value] of Object.entries(headers)) {
      pending = pending.set(name, value);
    }
    const res = body === undefined ? await pending : await pending.send(body);
    const sent: Exchange = {
      method: request.method,
      url: request.url,
      headers,
      body,
      status: res.status,
      responseHeaders: res.headers,
      responseText: res.text ?? '',
    };
    const where = `${request.method} ${request.url} → ${res.status}`;
    const problems = contract.requestProblems(sent);
    const refused = refusedForForm(request, sent);
    tallied.exchanges++;
    tallied[refused ? 'refused' : 'accepted']++;
    for (const problem of contract.responseProblems(sent)) {
      tallied.violations.push(`${where}: answer: ${problem}`);
    }
    if (problems.length === 0 && refused) {
      tallied.violations.push(`${where}: valid by the document, refused: ${sent.responseText.slice(0, 160)}`);
    }
    if (problems.length > 0 && !refused) {
      tallied.violations.push(`${where}: accepted, invalid by the document: ${problems.join('; ')}`);
    }
    return sent;
  }

  async function all(requests: Request[]): Promise<string[]> {
    const before = tally.violations.length;
    for (const request of requests) {
      await exchange(request);
    }
    return tally.violations.slice(before);
  }

  const json = (sent: Exchange) => JSON.parse(sent.responseText) as { id: number };
  const ids = { shelter: 0, emptyShelter: 0, pet: 0, otherPet: 0, token: 0 };
  let petTag = '';
  let shelterTag = '';

  it('creates shelters, pets and tokens in every valid form', async () => {
    const shelters = [
      validShelter(),
      validShelter({ adoption_fee_range: '$75-$200' }),
      validShelter({ adoption_fee_range: '$75.00 - $200.00', email: 'é@refuge.fr' }),
      validShelter({ adoption_fee_range: '75-200 USD', available_pet_count: 0 }),
      validShelter({ adoption_fee_range: 'usd 0-100000', name: ' Spaced ', hours: '24/7' }),
    ];
    const before = tally.violations.length;
    const created = [];
    for (const body of shelters) {
      created.push(await exchange({ method: 'POST', url: '/shelters', headers: TOKEN, body }));
    }
    [ids.shelter, ids.emptyShelter] = created.map((sent) => json(sent).id);
    const pets = [
      validPet(ids.shelter),
      validPet(ids.shelter, { species: 'dog', breed: 'Beagle', size: 'medium', gender: 'male', status: 'pending' }),
      validPet(ids.shelter, { status: 'adopted', size: 'large', temperament: '', description: '' }),
      validPet(ids.shelter, { medical: { spayed_neutered: false, vaccinations: [] }, age_months: 0 }),
      validPet(ids.shelter, { name: 'Épagneul', breed: 'Épagneul', intake_date: '2000-01-01', age_months: 600 }),
    ];
    for (const body of pets) {
      const sent = await exchange({ method: 'POST', url: '/pets', headers: TOKEN, body });
      ids.otherPet = json(sent).id;
      ids.pet ||= ids.otherPet;
    }
    const keyed = { ...TOKEN, 'Idempotency-Key': 'contract-key-1' };
    await exchange({ method: 'POST', url: '/pets', headers: keyed, body: validPet(ids.shelter, { name: 'Once' }) });
    await exchange({ method: 'POST', url: '/pets', headers: keyed, body: validPet(ids.shelter, { name: 'Once' }) });
    await exchange({ method: 'POST', url: '/pets', headers: keyed, body: validPet(ids.shelter, { name: 'Twice' }) });
    await exchange({
      method: 'POST',
      url: '/shelters',
      headers: { ...TOKEN, 'Idempotency-Key': 'contract-key-2' },
      body: validShelter(),
    });
    await exchange({ method: 'POST', url: '/pets', headers: TOKEN, body: validPet(424242) });
    for (const body of [{ name: 'ci' }, { name: 'premium', tier: 'premium', expires_in_days: 365 }]) {
      ids.token = json(await exchange({ method: 'POST', url: '/auth/tokens', headers: ADMIN, body })).id;
    }
    expect(tally.violations.slice(before)).toEqual([]);
  });

  it('reads in every valid form: lists, filters, paging, single resources, conditional reads, HEAD', async () => {
    const petQueries = [
      '',
      'species=cat',
      'species=cat,dog',
      'species=dog,cat,dog',
      'status=available,pending',
      'status=adopted',
      'size=small,medium,large',
      'gender=female',
      'gender=male,female',
      'breed=siamese',
      'breed=%C3%A9pagneul',
      `shelter_id=${ids.shelter}`,
      `shelter_id=${ids.emptyShelter}`,
      'shelter_id=424242',
      'temperament=calm',
      'q=sunny',
      'q=%25',
      'age_months_min=1&age_months_max=100',
      'age_months_min=600',
      'intake_date_from=2024-01-01&intake_date_to=2025-12-31',
      'limit=2',
      'limit=2&offset=2',
      'limit=100&offset=2147483647',
      'sort=-name',
      'sort=intake_date&limit=3',
      'sort=-age_months',
      '_limit=2&_start=0',
      '_limit=1&_offset=1',
      'limit=1&_start=1',
      '_limit=1&offset=2',
      '_sort=name&_order=desc',
      '_order=desc',
      '_sort=-id&_order=asc',
      `species=dog&shelter_id=${ids.shelter}&_sort=intake_date&_order=desc`,
      'species=cat&status=available&size=small&gender=female&breed=Siamese&limit=5&sort=name',
    ];
    const shelterQueries = [
      '',
      'limit=1',
      'limit=1&offset=1',
      'sort=-name',
      '_limit=2&_start=1',
      '_sort=id&_order=desc',
    ];
    const requests: Request[] = [];
    for (const method of ['GET', 'HEAD']) {
      requests.push(
        ...petQueries.map((query) => ({ method, url: `/pets${query && `?${query}`}` })),
        ...shelterQueries.map((query) => ({ method, url: `/shelters${query && `?${query}`}` })),
        { method, url: `/pets/${ids.pet}` },
        { method, url: `/pets/${ids.pet}`, headers: TOKEN },
        { method, url: `/pets/${ids.pet}`, headers: { Authorization: 'Basic xyz' } },
        { method, url: `/pets/${ids.pet}/history` },
        { method, url: `/shelters/${ids.shelter}` },
        { method, url: `/shelter/${ids.shelter}` },
        { method, url: '/pets/424242' },
        { method, url: '/pets/1000000000000000' },
        { method, url: '/shelters/2147483648' },
        { method, url: '/shelter/9007199254740991' },
        { method, url: '/pets/424242/history' },
        { method, url: '/auth/tokens', headers: ADMIN },
        { method, url: '/health/live' },
        { method, url: '/health/ready' },
        { method, url: '/health/live', headers: TOKEN },
      );
    }
    expect(await all(requests)).toEqual([]);

    petTag = String((await exchange({ method: 'GET', url: `/pets/${ids.pet}` })).responseHeaders.etag);
    shelterTag = String((await exchange({ method: 'GET', url: `/shelters/${ids.shelter}` })).responseHeaders.etag);
    const conditional: Request[] = [];
    for (const method of ['GET', 'HEAD']) {
      conditional.push(
        { method, url: `/pets/${ids.pet}`, headers: { 'If-None-Match': petTag } },
        { method, url: `/pets/${ids.pet}`, headers: { 'If-None-Match': `"0.0", ${petTag}` } },
        { method, url: `/pets/${ids.pet}`, headers: { 'If-None-Match': '*' } },
        { method, url: `/pets/${ids.pet}`, headers: { 'If-None-Match': '"0.0"' } },
        { method, url: `/shelters/${ids.shelter}`, headers: { 'If-None-Match': shelterTag } },
        { method, url: `/shelter/${ids.shelter}`, headers: { 'If-None-Match': shelterTag } },
      );
    }
    expect(await all(conditional)).toEqual([]);
  });

  it('answers OPTIONS on every path, whatever its id looks like', async () => {
    const paths = [
      '/pets',
      `/pets/${ids.pet}`,
      '/pets/abc',
      '/pets/0/history',
      '/shelters',
      `/shelters/${ids.shelter}`,
      '/shelters/-1',
      '/shelter/1',
      '/auth/tokens',
      '/auth/tokens/1',
      '/health/live',
      '/health/ready',
    ];
    expect(await all(paths.map((url) => ({ method: 'OPTIONS', url })))).toEqual([]);
  });

  it('writes in every valid form: PUT, partial PATCH, If-Match, DELETE, revocation', async () => {
    const pet = `/pets/${ids.pet}`;
    const shelter = `/shelters/${ids.shelter}`;
    const patches: unknown[] = [
      { medical: { vaccinations: ['rabies'] } },
      { medical: { spayed_neutered: false } },
      { medical: { spayed_neutered: true, vaccinations: [] } },
      { name: 'Renamed' },
      { species: 'dog' },
      { breed: 'Mixed' },
      { age_months: 7 },
      { gender: 'male' },
      { size: 'large' },
      { temperament: '' },
      { description: 'x'.repeat(5000) },
      { shelter_id: ids.emptyShelter },
      { shelter_id: ids.shelter },
      { status: 'pending' },
      { intake_date: '2024-02-29' },
      { status: 'available', name: 'Whiskers' },
      { shelter_id: 424242 },
    ];
    const requests: Request[] = [
      ...patches.map((body) => ({ method: 'PATCH', url: pet, headers: TOKEN, body })),
      { method: 'PUT', url: pet, headers: TOKEN, body: validPet(ids.shelter) },
      { method: 'PUT', url: pet, headers: TOKEN, body: validPet(424242) },
      { method: 'PUT', url: pet, headers: { ...TOKEN, 'If-Match': '"0.0"' }, body: validPet(ids.shelter) },
      { method: 'PATCH', url: pet, headers: { ...TOKEN, 'If-Match': '"0.0"' }, body: { name: 'Stale' } },
      { method: 'PATCH', url: pet, headers: { ...TOKEN, 'If-Match': '*' }, body: { name: 'Any' } },
      { method: 'PATCH', url: shelter, headers: TOKEN, body: { name: 'Renamed shelter' } },
      { method: 'PATCH', url: shelter, headers: TOKEN, body: { adoption_fee_range: ' 10-20 ' } },
      { method: 'PATCH', url: shelter, headers: TOKEN, body: { phone: '+1-555-999-0000', hours: 'Daily' } },
      { method: 'PATCH', url: shelter, headers: TOKEN, body: { available_pet_count: 100000 } },
      { method: 'PATCH', url: shelter, headers: { ...TOKEN, 'If-Match': shelterTag }, body: { hours: 'Never' } },
      { method: 'PUT', url: shelter, headers: TOKEN, body: validShelter() },
      { method: 'PUT', url: '/shelters/424242', headers: TOKEN, body: validShelter() },
      { method: 'PATCH', url: '/pets/424242', headers: TOKEN, body: { name: 'Ghost' } },
      { method: 'DELETE', url: '/pets/424242', headers: TOKEN },
      { method: 'DELETE', url: shelter, headers: TOKEN },
      { method: 'DELETE', url: `/pets/${ids.otherPet}`, headers: { ...TOKEN, 'If-Match': '"0.0"' } },
      { method: 'DELETE', url: `/pets/${ids.otherPet}`, headers: TOKEN },
      { method: 'DELETE', url: `/shelters/${ids.emptyShelter}`, headers: TOKEN },
      { method: 'DELETE', url: `/auth/tokens/${ids.token}`, headers: ADMIN },
      { method: 'DELETE', url: '/auth/tokens/424242', headers: ADMIN },
    ];
    expect(await all(requests)).toEqual([]);
  });

  it('refuses malformed ids on every operation that takes one, as the document says it does', async () => {
    const malformed = ['0', '-1', 'abc', '1.5', '1e3', '01', '+1', '10000000000000000', '%20', '1%2C2'];
    const requests: Request[] = [];
    for (const id of malformed) {
      requests.push(
        { method: 'GET', url: `/pets/${id}` },
        { method: 'HEAD', url: `/pets/${id}` },
        { method: 'GET', url: `/pets/${id}/history` },
        { method: 'PUT', url: `/pets/${id}`, headers: TOKEN, body: validPet(ids.shelter) },
        { method: 'PATCH', url: `/pets/${id}`, headers: TOKEN, body: { name: 'x' } },
        { method: 'DELETE', url: `/pets/${id}`, headers: TOKEN },
        { method: 'GET', url: `/shelters/${id}` },
        { method: 'GET', url: `/shelter/${id}` },
        { method: 'PATCH', url: `/shelters/${id}`, headers: TOKEN, body: { name: 'x' } },
        { method: 'DELETE', url: `/shelters/${id}`, headers: TOKEN },
        { method: 'DELETE', url: `/auth/tokens/${id}`, headers: ADMIN },
      );
    }
    expect(await all(requests)).toEqual([]);
  });

  it('refuses malformed query strings, as the document says it does', async () => {
    const petQueries = [
      'color=red',
      'species=',
      'species',
      'species=bird',
      'species=cat,',
      'species=Cat',
      'species=cat&species=dog',
      'species[]=cat',
      'status=sold',
      'status=available,,pending',
      'size=huge',
      'gender=x',
      'breed=',
      'breed=%20%20',
      `breed=${'b'.repeat(101)}`,
      'shelter_id=',
      'shelter_id',
      'shelter_id=0',
      'shelter_id=abc',
      'shelter_id=01',
      'shelter_id=1.0',
      'shelter_id=-3',
      'limit=0',
      'limit=101',
      'limit=1.5',
      'limit=01',
      'offset=1',
      '_start=1',
      'limit=1&_limit=1',
      'limit=1&offset=-1',
      'limit=1&offset=1&_start=1',
      '_limit=1&_start=1&_offset=1',
      'sort=color',
      'sort=name&_sort=id',
      '_order=up',
      'age_months_min=abc',
      'age_months_max=601',
      'intake_date_from=2025-02-30',
      'intake_date_to=yesterday',
      'q=',
      `temperament=${'t'.repeat(101)}`,
    ];
    const requests: Request[] = [];
    for (const method of ['GET', 'HEAD']) {
      requests.push(
        ...petQueries.map((query) => ({ method, url: `/pets?${query}` })),
        ...['species=cat', 'limit=0', 'offset=3', 'q=x'].map((query) => ({ method, url: `/shelters?${query}` })),
      );
    }
    expect(await all(requests)).toEqual([]);
  });

  it('refuses malformed bodies, missing tokens and unknown endpoints, as the document says it does', async () => {
    const pet = validPet(ids.shelter);
    const shelter = validShelter();
    const without = (body: Record<string, unknown>, field: string) =>
      Object.fromEntries(Object.entries(body).filter(([name]) => name !== field));
    const bodies: [string, unknown][] = [
      ...Object.keys(pet).map((field): [string, unknown] => ['/pets', without(pet, field)]),
      ...Object.keys(pet).map((field): [string, unknown] => ['/pets', { ...pet, [field]: null }]),
      ...Object.keys(shelter).map((field): [string, unknown] => ['/shelters', without(shelter, field)]),
      ['/pets', { ...pet, color: 'red' }],
      ['/pets', { ...pet, medical: { spayed_neutered: true } }],
      ['/pets', { ...pet, medical: { ...pet.medical, color: 'red' } }],
      ['/pets', { ...pet, medical: [] }],
      ['/pets', { ...pet, name: '' }],
      ['/pets', { ...pet, name: '   ' }],
      ['/pets', { ...pet, name: 'a\u0000b' }],
      ['/pets', { ...pet, name: 'n'.repeat(101) }],
      ['/pets', { ...pet, species: 'Cat' }],
      ['/pets', { ...pet, age_months: 601 }],
      ['/pets', { ...pet, age_months: 1.5 }],
      ['/pets', { ...pet, age_months: '12' }],
      ['/pets', { ...pet, shelter_id: 0 }],
      ['/pets', { ...pet, shelter_id: String(ids.shelter) }],
      ['/pets', { ...pet, status: 'sold' }],
      ['/pets', { ...pet, intake_date: '2023-02-29' }],
      ['/pets', { ...pet, medical: { spayed_neutered: 'yes', vaccinations: [''] } }],
      ['/pets', { ...pet, medical: { spayed_neutered: true, vaccinations: Array(51).fill('x') } }],
      ['/pets', { ...pet, temperament: 't'.repeat(501) }],
      ['/pets', []],
      ['/pets', 'pet'],
      ['/shelters', { ...shelter, phone: '555-1234' }],
      ['/shelters', { ...shelter, email: 'no-at-sign' }],
      ['/shelters', { ...shelter, email: 'a b@c.de' }],
      ['/shelters', { ...shelter, adoption_fee_range: 'cheap' }],
      ['/shelters', { ...shelter, adoption_fee_range: '€75-200' }],
      ['/shelters', { ...shelter, adoption_fee_range: '75' }],
      ['/shelters', { ...shelter, adoption_fee_range: 'US$75-200' }],
      ['/shelters', { ...shelter, adoption_fee_range: 75 }],
      ['/shelters', { ...shelter, available_pet_count: -1 }],
      ['/shelters', { ...shelter, available_pet_count: 100001 }],
      ['/auth/tokens', {}],
      ['/auth/tokens', { name: 'x', tier: 'gold' }],
      ['/auth/tokens', { name: 'x', tier: null }],
      ['/auth/tokens', { name: 'x', expires_in_days: 0 }],
      ['/auth/tokens', { name: 'x', expires_in_days: 366 }],
      ['/auth/tokens', { name: 'x', admin: true }],
    ];
    const requests: Request[] = bodies.map(([url, body]) => ({
      method: 'POST',
      url,
      headers: url === '/auth/tokens' ? ADMIN : TOKEN,
      body,
    }));
    const petPath = `/pets/${ids.pet}`;
    const shelterPath = `/shelters/${ids.shelter}`;
    for (const body of [
      {},
      { medical: {} },
      { id: 7 },
      { name: null },
      { medical: null },
      { medical: { color: 'red' } },
      { medical: { vaccinations: null } },
      { status: 'sold' },
      { name: 'x', color: 'red' },
    ]) {
      requests.push({ method: 'PATCH', url: petPath, headers: TOKEN, body });
    }
    for (const body of [{}, { phone: '555' }, { adoption_fee_range: null }, { email: '' }]) {
      requests.push({ method: 'PATCH', url: shelterPath, headers: TOKEN, body });
    }
    requests.push(
      { method: 'PUT', url: petPath, headers: TOKEN, body: { name: 'Partial' } },
      { method: 'PUT', url: shelterPath, headers: TOKEN, body: { name: 'Partial' } },
      { method: 'POST', url: '/pets', headers: TOKEN, raw: '{"name":', body: undefined },
      { method: 'POST', url: '/pets', headers: { ...TOKEN, 'Content-Type': 'application/json' }, raw: '{"name":' },
      { method: 'POST', url: '/pets', headers: { ...TOKEN, 'Content-Type': 'text/plain' }, raw: JSON.stringify(pet) },
      { method: 'POST', url: '/pets', headers: { ...TOKEN, 'Content-Type': 'application/json' }, raw: 'null' },
      { method: 'POST', url: '/pets', headers: { ...TOKEN, 'Content-Type': 'application/json' }, raw: '0' },
      { method: 'POST', url: '/pets', headers: TOKEN, body: { ...pet, description: 'd'.repeat(110_000) } },
      { method: 'POST', url: '/pets', headers: { ...TOKEN, 'Idempotency-Key': 'not visible' }, body: pet },
      { method: 'POST', url: '/pets', body: pet },
      { method: 'POST', url: '/pets', headers: { Authorization: 'Bearer ' }, body: pet },
      { method: 'POST', url: '/pets', headers: { Authorization: 'Token abc' }, body: pet },
      { method: 'PATCH', url: petPath, body: { name: 'x' } },
      { method: 'DELETE', url: petPath },
      { method: 'GET', url: '/auth/tokens' },
      { method: 'POST', url: '/auth/tokens', body: { name: 'x' } },
      { method: 'DELETE', url: '/pets', headers: TOKEN },
      { method: 'PUT', url: '/pets', headers: TOKEN, body: pet },
      { method: 'GET', url: '/unknown' },
      { method: 'GET', url: '/PETS' },
      { method: 'POST', url: `/pets/${ids.pet}/history`, headers: TOKEN, body: {} },
      { method: 'OPTIONS', url: '/nowhere' },
    );
    expect(await all(requests)).toEqual([]);
  });

  it('answers past the rate limit as the document says', async () => {
    const limited = await startApp({ RATE_LIMIT_PER_MINUTE: '3' });
    try {
      const before = tally.violations.length;
      for (const url of ['/pets', '/pets', '/shelters', '/pets', `/pets/1`, '/health/live', '/pets']) {
        await exchange({ method: 'GET', url }, limited);
      }
      await exchange({ method: 'POST', url: '/pets', headers: TOKEN, body: validPet(1) }, limited);
      expect(tally.violations.slice(before)).toEqual([]);
    } finally {
      await limited.close();
    }
  });

  it('notices a departure from the document in either direction', () => {
    const answer: Exchange = {
      method: 'GET',
      url: '/pets/1',
      headers: {},
      status: 200,
      responseHeaders: {
        'content-type': 'application/json; charset=utf-8',
        'x-request-id': 'r1',
        'x-ratelimit-limit': '10',
        'x-ratelimit-remaining': '9',
        'x-ratelimit-reset': '1700000000',
        etag: '"1.1"',
      },
      responseText: JSON.stringify({ ...validPet(1), id: 1 }),
    };
    expect(contract.responseProblems(answer)).toEqual([]);
    expect(contract.requestProblems(answer)).toEqual([]);
    expect(contract.responseProblems({ ...answer, status: 418 })).toEqual(['status 418 is not declared']);
    expect(
      contract.responseProblems({ ...answer, responseHeaders: { ...answer.responseHeaders, etag: undefined } }),
    ).toEqual(['header ETag is missing']);
    expect(
      contract.responseProblems({ ...answer, responseText: JSON.stringify({ ...validPet(1), id: 1, color: 'red' }) }),
    ).toHaveLength(1);
    expect(contract.requestProblems({ ...answer, url: '/pets/01' })).not.toEqual([]);
    expect(contract.requestProblems({ ...answer, url: '/pets?offset=2' })).toEqual([
      'query parameter offset without limit',
    ]);
    expect(contract.requestProblems({ ...answer, url: '/pets?species=cat,bird' })).not.toEqual([]);
    const jsonType = { 'Content-Type': 'application/json' };
    const patch = { ...answer, method: 'PATCH', headers: { ...TOKEN, ...jsonType } };
    expect(contract.requestProblems({ ...patch, body: '{"medical":{"vaccinations":["rabies"]}}' })).toEqual([]);
    expect(contract.requestProblems({ ...patch, body: '{"medical":{}}' })).not.toEqual([]);
    expect(contract.requestProblems({ ...patch, body: '{"name":"x"}', headers: jsonType })).toEqual([
      'no bearer token',
    ]);
  });

  it('counts at least 300 exchanges and no violation', () => {
    expect(tally.violations).toEqual([]);
    expect(tally.exchanges).toBeGreaterThanOrEqual(300);
    expect(tally.refused).toBeGreaterThan(100);
    expect(tally.accepted).toBeGreaterThan(100);
  });
});
