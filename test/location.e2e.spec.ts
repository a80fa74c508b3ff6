/**
 * Location searches of GET /pets and GET /shelters: `location` (ZIP code or latitude,longitude)
 * and `distance` in miles, checked against a haversine computed here from the same offline ZIP
 * table, with the other filters, sorting and paging.
 */
import type { INestApplication } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { lookup } from 'zipcodes';

import { createPet, createShelter, http, queryError, startApp, TOKEN } from './support/app.js';

interface Point {
  latitude: number;
  longitude: number;
}

function centroid(zip: string): Point {
  const entry = lookup(zip);
  if (entry === undefined) {
    throw new Error(`no ZIP ${zip}`);
  }
  return { latitude: entry.latitude, longitude: entry.longitude };
}

/** Great-circle miles on a sphere of radius 3958.8 miles. */
function haversine(a: Point, b: Point): number {
  const rad = (degrees: number) => (degrees * Math.PI) / 180;
  const h =
    Math.sin(rad(b.latitude - a.latitude) / 2) ** 2 +
    Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(rad(b.longitude - a.longitude) / 2) ** 2;
  return 2 * 3958.8 * Math.asin(Math.sqrt(h));
}

const miles = (from: Point, zip: string) => Math.round(haversine(from, centroid(zip)) * 10) / 10;

interface Item {
  id: number;
  name: string;
  distance?: number;
  shelter_id?: number;
}

describe('location search', () => {
  let app: INestApplication;
  const PORTLAND = '97202';
  const portland = centroid(PORTLAND);
  const shelters: Record<string, { id: number; zip?: string }> = {};
  const pets: Record<string, { id: number; shelter: string }> = {};

  beforeAll(async () => {
    app = await startApp();
    const addresses: Record<string, [string, string | undefined]> = {
      sellwood: [`8 Tacoma St, Portland, OR ${PORTLAND}`, PORTLAND],
      downtown: ['1120 SW 5th Ave, Portland, OR 97204-1912', '97204'],
      seattle: ['100 Pike St, Seattle, WA 98101', '98101'],
      salem: ['900 Court St NE, Salem, OR 97301', '97301'],
      newYork: ['350 5th Ave, New York, NY 10118', '10118'],
      nowhere: ['12 Main St, Springfield', undefined],
      unknownZip: ['1 Lost Rd, Nowhere 00000', undefined],
    };
    for (const [name, [address, zip]] of Object.entries(addresses)) {
      shelters[name] = { id: (await createShelter(app, { name, address })).id, zip };
    }
    const petsAt: [string, string, string][] = [
      ['Rex', 'sellwood', 'dog'],
      ['Ada', 'sellwood', 'cat'],
      ['Bo', 'downtown', 'dog'],
      ['Cy', 'seattle', 'cat'],
      ['Di', 'salem', 'dog'],
      ['Ed', 'newYork', 'dog'],
      ['Fay', 'nowhere', 'cat'],
      ['Gus', 'unknownZip', 'dog'],
    ];
    for (const [name, shelter, species] of petsAt) {
      pets[name] = { id: (await createPet(app, shelters[shelter].id, { name, species })).id, shelter };
    }
  });
  afterAll(async () => {
    await app.close();
  });

  const get = async (path: string) => {
    const res = await http(app).get(path);
    expect(res.status).toBe(200);
    return { items: res.body as Item[], res };
  };
  const shelterDistance = (name: string) => miles(portland, shelters[name].zip!);

  it('finds the shelters within 100 miles by default, nearest first, each with its distance after the id', async () => {
    const eugene = await createShelter(app, { name: 'eugene', address: '99 W 10th Ave, Eugene, OR 97401' });
    expect(miles(portland, '97401')).toBeGreaterThan(100);
    const { items } = await get(`/shelters?location=${PORTLAND}`);
    await http(app).delete(`/shelters/${eugene.id}`).set('Authorization', TOKEN).expect(200);
    expect(items.map((item) => [item.name, item.distance])).toEqual([
      ['sellwood', 0],
      ['downtown', shelterDistance('downtown')],
      ['salem', shelterDistance('salem')],
    ]);
    expect(Object.keys(items[1]).slice(-2)).toEqual(['id', 'distance']);
    expect(items[1]).toEqual({
      name: 'downtown',
      address: '1120 SW 5th Ave, Portland, OR 97204-1912',
      phone: '+1-555-123-4567',
      email: 'hello@happytails.org',
      hours: 'Mon-Fri 9:00-17:00',
      available_pet_count: 12,
      adoption_fee_range: '75-200',
      id: shelters.downtown.id,
      distance: shelterDistance('downtown'),
    });
  });

  it('widens with distance, and takes latitude,longitude as the location', async () => {
    const wide = await get(`/shelters?location=${PORTLAND}&distance=200`);
    expect(wide.items.map((item) => item.name)).toEqual(['sellwood', 'downtown', 'salem', 'seattle']);
    expect(wide.items[3].distance).toBe(shelterDistance('seattle'));

    const seattle = centroid('98101');
    const near = await get(`/shelters?location=${seattle.latitude},${seattle.longitude}&distance=1.5`);
    expect(near.items.map((item) => [item.name, item.distance])).toEqual([['seattle', 0]]);

    const point = { latitude: 45.5231, longitude: -122.6765 };
    const pdx = await get('/shelters?location=45.5231,-122.6765&distance=10');
    expect(pdx.items.map((item) => [item.name, item.distance])).toEqual(
      ['sellwood', 'downtown']
        .map((name) => [name, miles(point, shelters[name].zip!)] as const)
        .sort((a, b) => a[1] - b[1]),
    );
  });

  it('finds pets by their shelter, combined with the other filters, ties broken by id', async () => {
    const { items } = await get(`/pets?location=${PORTLAND}&distance=200`);
    expect(items.map((pet) => [pet.name, pet.distance])).toEqual([
      ['Rex', 0],
      ['Ada', 0],
      ['Bo', shelterDistance('downtown')],
      ['Di', shelterDistance('salem')],
      ['Cy', shelterDistance('seattle')],
    ]);
    expect(Object.keys(items[0]).slice(-2)).toEqual(['id', 'distance']);

    const dogs = await get(`/pets?location=${PORTLAND}&distance=200&species=dog`);
    expect(dogs.items.map((pet) => pet.name)).toEqual(['Rex', 'Bo', 'Di']);
    const inShelter = await get(`/pets?location=${PORTLAND}&shelter_id=${shelters.seattle.id}&distance=500`);
    expect(inShelter.items.map((pet) => pet.name)).toEqual(['Cy']);
  });

  it('sorts by another field or by distance descending, and pages with X-Total-Count and Link', async () => {
    const byName = await get(`/pets?location=${PORTLAND}&distance=200&sort=name`);
    expect(byName.items.map((pet) => pet.name)).toEqual(['Ada', 'Bo', 'Cy', 'Di', 'Rex']);
    expect(byName.items.every((pet) => typeof pet.distance === 'number')).toBe(true);

    const farthest = await get(`/pets?location=${PORTLAND}&distance=200&sort=-distance`);
    // Ties (one shelter's pets) stay in id order, as for every sort.
    expect(farthest.items.map((pet) => pet.name)).toEqual(['Cy', 'Di', 'Bo', 'Rex', 'Ada']);

    const page = await get(`/pets?location=${PORTLAND}&distance=200&limit=2&offset=2`);
    expect(page.items.map((pet) => pet.name)).toEqual(['Bo', 'Di']);
    expect(page.res.headers['x-total-count']).toBe('5');
    expect(page.res.headers.link).toContain(`location=${PORTLAND}`);
    expect(page.res.headers.link).toContain('rel="next"');
  });

  it('never matches a shelter without a known ZIP code, and answers as before without location', async () => {
    for (const location of ['0,0', '40,-100', PORTLAND]) {
      const { items } = await get(`/shelters?location=${location}&distance=500`);
      expect(items.map((item) => item.name)).not.toContain('nowhere');
      expect(items.map((item) => item.name)).not.toContain('unknownZip');
    }
    const plain = await get('/pets?limit=100');
    expect(plain.items).toHaveLength(Object.keys(pets).length);
    expect(plain.items.every((pet) => !('distance' in pet))).toBe(true);
  });

  it('moves a shelter when its address changes', async () => {
    const moving = await createShelter(app, { name: 'moving', address: '2 Rock Rd, Denver, CO 80202' });
    const inPortland = async () =>
      (await get(`/shelters?location=${PORTLAND}&distance=20`)).items.map((item) => item.name);
    expect(await inPortland()).not.toContain('moving');

    await http(app)
      .patch(`/shelters/${moving.id}`)
      .set('Authorization', TOKEN)
      .send({ address: '3 Bybee Blvd, Portland, OR 97202' })
      .expect(200);
    expect(await inPortland()).toEqual(['sellwood', 'moving', 'downtown']);

    await http(app)
      .put(`/shelters/${moving.id}`)
      .set('Authorization', TOKEN)
      .send({ ...moving, address: 'somewhere without a code', id: undefined })
      .expect(200);
    expect(await inPortland()).not.toContain('moving');
    await http(app).delete(`/shelters/${moving.id}`).set('Authorization', TOKEN).expect(200);
  });

  it.each([
    [
      '/pets?location=9720',
      'location',
      "Invalid value for 'location'. Must be a 5-digit US ZIP code or latitude,longitude.",
    ],
    [
      '/pets?location=portland',
      'location',
      "Invalid value for 'location'. Must be a 5-digit US ZIP code or latitude,longitude.",
    ],
    [
      '/shelters?location=91,10',
      'location',
      "Invalid value for 'location'. Must be a 5-digit US ZIP code or latitude,longitude.",
    ],
    [
      '/shelters?location=45,-181',
      'location',
      "Invalid value for 'location'. Must be a 5-digit US ZIP code or latitude,longitude.",
    ],
    ['/pets?location=00000', 'location', "Invalid value for 'location'. Unknown ZIP code 00000."],
    ['/shelters?location=00000', 'location', "Invalid value for 'location'. Unknown ZIP code 00000."],
    ['/pets?location=97202&distance=0', 'distance', "Invalid value for 'distance'. Must be a number from 1 to 500."],
    ['/pets?location=97202&distance=501', 'distance', "Invalid value for 'distance'. Must be a number from 1 to 500."],
    [
      '/shelters?location=97202&distance=ten',
      'distance',
      "Invalid value for 'distance'. Must be a number from 1 to 500.",
    ],
    ['/pets?distance=50', 'distance', "Invalid value for 'distance'. Must be given together with 'location'."],
    ['/shelters?distance=50', 'distance', "Invalid value for 'distance'. Must be given together with 'location'."],
    ['/pets?sort=distance', 'sort', "Invalid value for 'sort'. Must be given together with 'location'."],
    ['/shelters?sort=-distance', 'sort', "Invalid value for 'sort'. Must be given together with 'location'."],
  ])('answers %s with 400 and one detail', async (path, field, message) => {
    const res = await http(app).get(path);
    expect({ status: res.status, body: res.body as unknown }).toEqual({
      status: 400,
      body: queryError(field, message),
    });
  });
});

describe('the migration that adds shelters’ places', () => {
  it('fills them in for the shelters already stored', async () => {
    const app = await startApp();
    try {
      const dataSource = app.get<DataSource>(getDataSourceToken());
      // Back to the schema before that migration (undoing the later ones too).
      const executed = async () =>
        (await dataSource.query<{ name: string }[]>('SELECT name FROM migrations')).map((row) => row.name);
      while ((await executed()).includes('ShelterLocation1764000000000')) {
        await dataSource.undoLastMigration();
      }
      const insert = (name: string, address: string) =>
        dataSource.query(
          'INSERT INTO shelters (name, address, phone, email, hours, available_pet_count, adoption_fee_range, version) ' +
            (dataSource.options.type === 'postgres'
              ? 'VALUES ($1, $2, $3, $4, $5, $6, $7, 1)'
              : 'VALUES (?, ?, ?, ?, ?, ?, ?, 1)'),
          [name, address, '+1-555-123-4567', 'a@b.org', 'daily', 1, '10-20'],
        );
      await insert('before', '8 Tacoma St, Portland, OR 97202');
      await insert('without', '12 Main St, Springfield');
      await dataSource.runMigrations();

      const res = await http(app).get('/shelters?location=97202&distance=5').expect(200);
      expect((res.body as Item[]).map((item) => [item.name, item.distance])).toEqual([['before', 0]]);
    } finally {
      await app.close();
    }
  });
});
