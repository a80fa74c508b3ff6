/**
 * Paging, sorting and the richer filters of GET /pets and GET /shelters, with the aliases
 * of the JSON mock the API was first prototyped on. A client that uses none of them gets
 * the answers it always got (the other suites).
 */
import type { INestApplication } from '@nestjs/common';

import { createPet, createShelter, expectResponse, http, queryError, startApp, TOKEN } from './support/app.js';

const PETS = 250;
const DATES = ['2025-01-10', '2025-02-20', '2025-03-30', '2025-04-05', '2025-05-15'];

interface PetBody {
  id: number;
  name: string;
  species: string;
  status: string;
  age_months: number;
  intake_date: string;
  temperament: string;
  breed: string;
  shelter_id: number;
}

/** The targets of a `Link` header by relation. */
function linksOf(header: string | undefined): Record<string, string> {
  const links: Record<string, string> = {};
  for (const part of (header ?? '').split(', ')) {
    const match = /^<([^>]+)>; rel="(\w+)"$/.exec(part);
    if (match) {
      links[match[2]] = match[1];
    }
  }
  return links;
}

describe('paged, sorted and filtered lists', () => {
  let app: INestApplication;
  let pets: PetBody[];
  let shelterIds: number[];

  beforeAll(async () => {
    app = await startApp();
    shelterIds = [];
    for (const name of ['Zoo Rescue', 'Alpha Paws', 'Mid Town', 'alpha lower']) {
      shelterIds.push((await createShelter(app, { name })).id);
    }
    pets = [];
    for (let start = 0; start < PETS; start += 25) {
      const batch = Array.from({ length: Math.min(25, PETS - start) }, (_, offset) => {
        const index = start + offset;
        return createPet(app, shelterIds[index % 2], {
          name: `Pet ${String(index).padStart(3, '0')}`,
          species: index % 3 === 0 ? 'dog' : 'cat',
          status: ['available', 'pending', 'adopted'][index % 3 === 1 ? 1 : index % 5 === 0 ? 2 : 0],
          age_months: index % 60,
          intake_date: DATES[index % DATES.length],
          temperament: index % 4 === 0 ? 'Calm, friendly' : 'playful; 100% energy',
          breed: index % 2 === 0 ? 'Siamese' : 'Beagle',
        });
      });
      pets.push(...(await Promise.all(batch)));
    }
    pets.sort((a, b) => a.id - b.id);
  }, 60_000);
  afterAll(async () => {
    await app.close();
  });

  it('walks 250 pets sorted by -intake_date page by page through Link, with no gaps or repeats', async () => {
    const expected = [...pets]
      .sort((a, b) => (a.intake_date === b.intake_date ? a.id - b.id : a.intake_date < b.intake_date ? 1 : -1))
      .map((pet) => pet.id);
    const seen: number[] = [];
    let next: string | undefined = '/pets?sort=-intake_date&limit=30';
    let pages = 0;
    while (next !== undefined) {
      const res = await http(app).get(next).expect(200);
      expect(res.headers['x-total-count']).toBe(String(PETS));
      const links = linksOf(res.headers.link);
      expect(links.first).toBe('/pets?sort=-intake_date&limit=30&offset=0');
      expect(links.last).toBe('/pets?sort=-intake_date&limit=30&offset=240');
      if (pages > 0) {
        expect(links.prev).toBe(`/pets?sort=-intake_date&limit=30&offset=${(pages - 1) * 30}`);
      } else {
        expect(links.prev).toBeUndefined();
      }
      seen.push(...(res.body as PetBody[]).map((pet) => pet.id));
      next = links.next;
      pages++;
    }
    expect(pages).toBe(9);
    expect(seen).toEqual(expected);
  });

  it('sorts by each allowed field, either way, ties broken by id', async () => {
    const cases: [string, (a: PetBody, b: PetBody) => number][] = [
      ['name', (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id)],
      ['-age_months', (a, b) => b.age_months - a.age_months || a.id - b.id],
      ['age_months', (a, b) => a.age_months - b.age_months || a.id - b.id],
      ['-id', (a, b) => b.id - a.id],
      ['intake_date', (a, b) => a.intake_date.localeCompare(b.intake_date) || a.id - b.id],
    ];
    for (const [sort, compare] of cases) {
      const res = await http(app).get('/pets').query({ sort }).expect(200);
      expect((res.body as PetBody[]).map((pet) => pet.id)).toEqual([...pets].sort(compare).map((pet) => pet.id));
      expect(res.headers['x-total-count']).toBeUndefined();
      expect(res.headers.link).toBeUndefined();
    }
  });

  it('sorts shelters by name by code point and pages them', async () => {
    const res = await http(app).get('/shelters').query({ sort: 'name', limit: 3, offset: 1 }).expect(200);
    expect((res.body as { name: string }[]).map((shelter) => shelter.name)).toEqual([
      'Mid Town',
      'Zoo Rescue',
      'alpha lower',
    ]);
    expect(res.headers['x-total-count']).toBe('4');
    expect(linksOf(res.headers.link)).toEqual({
      first: '/shelters?sort=name&limit=3&offset=0',
      prev: '/shelters?sort=name&limit=3&offset=0',
      last: '/shelters?sort=name&limit=3&offset=3',
    });
  });

  it('keeps every other parameter in the links, question marks and commas included', async () => {
    const res = await http(app).get('/pets?limit=1&q=a?b&species=cat,dog').expect(200, []);
    expect(linksOf(res.headers.link).first).toBe('/pets?limit=1&q=a%3Fb&species=cat%2Cdog&offset=0');
    const search = await http(app).get('/pets?q=Pet 00&status=available,adopted&limit=2').expect(200);
    const next = linksOf(search.headers.link).next;
    expect(next).toBe('/pets?q=Pet+00&status=available%2Cadopted&limit=2&offset=2');
    const expected = pets.filter((pet) => pet.name.startsWith('Pet 00') && pet.status !== 'pending');
    await http(app).get(next).expect(200, expected.slice(2, 4));
  });

  it('answers an empty page past the end, with links back', async () => {
    const res = await http(app).get('/pets?limit=10&offset=1000').expect(200, []);
    expect(res.headers['x-total-count']).toBe(String(PETS));
    expect(linksOf(res.headers.link)).toEqual({
      first: '/pets?limit=10&offset=0',
      prev: '/pets?limit=10&offset=240',
      last: '/pets?limit=10&offset=240',
    });
  });

  it('filters by any of comma-separated values', async () => {
    const res = await http(app).get('/pets').query({ status: 'pending,adopted', species: 'cat' }).expect(200);
    const expected = pets.filter((pet) => pet.species === 'cat' && ['pending', 'adopted'].includes(pet.status));
    expect(expected.length).toBeGreaterThan(10);
    expect(res.body).toEqual(expected);
  });

  it('filters by inclusive age and intake date ranges', async () => {
    const res = await http(app)
      .get('/pets')
      .query({ age_months_min: 11, age_months_max: 23, intake_date_from: '2025-02-20', intake_date_to: '2025-04-05' })
      .expect(200);
    const expected = pets.filter(
      (pet) =>
        pet.age_months >= 11 &&
        pet.age_months <= 23 &&
        pet.intake_date >= '2025-02-20' &&
        pet.intake_date <= '2025-04-05',
    );
    expect(expected.length).toBeGreaterThan(10);
    expect(res.body).toEqual(expected);
    expect(res.body).toContainEqual(expect.objectContaining({ age_months: 11, intake_date: '2025-02-20' }));
    expect(res.body).toContainEqual(expect.objectContaining({ age_months: 23, intake_date: '2025-04-05' }));
  });

  it('finds a case-insensitive substring with temperament and with q, % and _ taken literally', async () => {
    const calm = pets.filter((pet) => pet.temperament === 'Calm, friendly');
    await http(app).get('/pets').query({ temperament: 'calm' }).expect(200, calm);
    await http(app)
      .get('/pets')
      .query({ temperament: '100%' })
      .expect(
        200,
        pets.filter((pet) => pet.temperament.includes('100%')),
      );
    await http(app).get('/pets').query({ temperament: '1_0' }).expect(200, []);
    await http(app)
      .get('/pets')
      .query({ q: '%' })
      .expect(
        200,
        pets.filter((pet) => pet.temperament.includes('%')),
      );
    const beagles = pets.filter((pet) => pet.breed === 'Beagle');
    expect(beagles).toHaveLength(PETS / 2);
    await http(app).get('/pets').query({ q: 'BEAG' }).expect(200, beagles);
    await http(app)
      .get('/pets')
      .query({ q: 'pet 00' })
      .expect(
        200,
        pets.filter((pet) => pet.name.startsWith('Pet 00')),
      );
    await http(app)
      .get('/pets')
      .query({ q: 'friendly', temperament: 'calm', species: 'dog' })
      .expect(
        200,
        calm.filter((pet) => pet.species === 'dog'),
      );
  });

  it('accepts the json-server aliases as the tutorials use them', async () => {
    const dogsOfShelter = pets
      .filter((pet) => pet.species === 'dog' && pet.shelter_id === shelterIds[1])
      .sort((a, b) => (a.intake_date === b.intake_date ? a.id - b.id : a.intake_date < b.intake_date ? 1 : -1));
    await http(app)
      .get(`/pets?species=dog&shelter_id=${shelterIds[1]}&_sort=intake_date&_order=desc`)
      .expect(200, dogsOfShelter);

    const res = await http(app).get('/pets?_limit=2&_start=0&_sort=name&_order=asc').expect(200);
    expect((res.body as PetBody[]).map((pet) => pet.name)).toEqual(['Pet 000', 'Pet 001']);
    expect(res.headers['x-total-count']).toBe(String(PETS));
    expect(linksOf(res.headers.link).next).toBe('/pets?_limit=2&_start=2&_sort=name&_order=asc');

    const offset = await http(app).get('/pets?_limit=3&_offset=3').expect(200);
    expect((offset.body as PetBody[]).map((pet) => pet.id)).toEqual(pets.slice(3, 6).map((pet) => pet.id));
    await http(app)
      .get('/pets?_sort=-age_months&_limit=1')
      .expect(200, [[...pets].sort((a, b) => b.age_months - a.age_months || a.id - b.id)[0]]);
  });

  it.each([
    ['limit=0', 'limit', "Invalid value for 'limit'. Must be an integer from 1 to 100."],
    ['limit=101', 'limit', "Invalid value for 'limit'. Must be an integer from 1 to 100."],
    ['limit=1.5', 'limit', "Invalid value for 'limit'. Must be an integer from 1 to 100."],
    ['limit=5&offset=-1', 'offset', "Invalid value for 'offset'. Must be an integer from 0 to 2147483647."],
    ['offset=5', 'offset', "Invalid value for 'offset'. Must be given together with 'limit'."],
    ['limit=5&_limit=5', '_limit', "Invalid value for '_limit'. Must not be given together with 'limit'."],
    [
      'sort=color',
      'sort',
      "Invalid value for 'sort'. Must be one of the allowed values (id, -id, name, -name, age_months, -age_months, intake_date, -intake_date).",
    ],
    ['_order=up', '_order', "Invalid value for '_order'. Must be one of the allowed values (asc, desc)."],
    [
      'status=available,sold',
      'status',
      "Invalid value for 'status'. Must be one of the allowed values (available, pending, adopted).",
    ],
    ['species=cat,', 'species', "Invalid value for 'species'. Must be one of the allowed values (cat, dog)."],
    ['age_months_min=abc', 'age_months_min', "Invalid value for 'age_months_min'. Must be an integer from 0 to 600."],
    [
      'intake_date_from=2025-02-30',
      'intake_date_from',
      "Invalid value for 'intake_date_from'. Must be a date in YYYY-MM-DD format.",
    ],
    ['q=', 'q', "Invalid value for 'q'. Must be a non-empty string of at most 100 characters."],
    ['limit=2&limit=3', 'limit', "Invalid value for 'limit'. Must be given once, as a single value."],
  ])('answers 400 for %s', async (query, field, message) => {
    await expectResponse(http(app).get(`/pets?${query}`), 400, queryError(field, message));
  });

  it('answers 400 for a sort field shelters do not have', async () => {
    await expectResponse(
      http(app).get('/shelters?sort=age_months'),
      400,
      queryError('sort', "Invalid value for 'sort'. Must be one of the allowed values (id, -id, name, -name)."),
    );
  });

  it('changes nothing when a list request is refused', async () => {
    await http(app).get('/pets?limit=0').expect(400);
    const res = await http(app).get('/pets').set('Authorization', TOKEN).expect(200);
    expect(res.body).toEqual(pets);
  });
});
