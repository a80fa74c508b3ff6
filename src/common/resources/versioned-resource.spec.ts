import 'reflect-metadata';

import type { EntityManager } from 'typeorm';

import { ApiException } from '../errors/api.exception.js';
import type { ListAnswerCache } from './list-answer-cache.js';
import type { ListQueries } from './list-queries.js';
import type { References } from './references.js';
import type { StreamedLists } from './streamed-lists.js';
import type { VersionedRecords } from './versioned-records.js';
import { VersionedResource } from './versioned-resource.js';

interface Thing {
  id: number;
  version: number;
  name: string;
}

/** The resource over records held in a map: the answers it chooses, with no database behind it. */
function resourceOver(rows: Map<number, Thing>, writes: { lost: boolean }) {
  const records = {
    entity: class {},
    find: (id: number) => Promise.resolve(rows.get(id)),
    update: (_manager: EntityManager, row: Thing, columns: Partial<Thing>) => {
      if (!writes.lost) {
        rows.set(row.id, { ...row, ...columns, version: row.version + 1 });
      }
      return Promise.resolve(!writes.lost);
    },
    delete: (_manager: EntityManager, row: Thing) => Promise.resolve(!writes.lost && rows.delete(row.id)),
    lock: () => Promise.resolve(),
  } as unknown as VersionedRecords<Thing>;
  const references = {
    registerParent: () => undefined,
    assertParentsExist: () => Promise.resolve(),
    assertUnreferenced: () => Promise.resolve(),
  } as unknown as References;
  return new VersionedResource<Thing>(
    'pet',
    records,
    {} as ListQueries<Thing>,
    {} as ListAnswerCache,
    {} as StreamedLists,
    references,
  );
}

const manager = {} as EntityManager;

async function refusal(work: Promise<unknown>) {
  const error = (await work.catch((caught: unknown) => caught)) as ApiException;
  expect(error).toBeInstanceOf(ApiException);
  return [error.getStatus(), error.message];
}

describe('VersionedResource', () => {
  let rows: Map<number, Thing>;
  let writes: { lost: boolean };
  let resource: VersionedResource<Thing>;

  beforeEach(() => {
    rows = new Map([[1, { id: 1, version: 3, name: 'Rex' }]]);
    writes = { lost: false };
    resource = resourceOver(rows, writes);
  });

  it('answers 404 naming the id as sent, also for ids no row can have', async () => {
    expect(await refusal(resource.findOrFail('2'))).toEqual([404, "Pet with 'id' 2 not found."]);
    expect(await refusal(resource.findOrFail('99999999999999'))).toEqual([
      404,
      "Pet with 'id' 99999999999999 not found.",
    ]);
    expect(await resource.findOrFail('1')).toEqual({ id: 1, version: 3, name: 'Rex' });
  });

  it('answers 412 for a stale If-Match before writing, and writes with a current one', async () => {
    const stale = 'The pet was modified by another request. Fetch it again and retry.';
    expect(await refusal(resource.update(manager, '1', { name: 'Max' }, '"1.2"'))).toEqual([412, stale]);
    expect(rows.get(1)?.name).toBe('Rex');
    expect(await resource.update(manager, '1', { name: 'Max' }, '"1.3"')).toEqual({ id: 1, version: 4, name: 'Max' });
  });

  it('answers a write that another request overtook: 412 with If-Match, 404 without', async () => {
    writes.lost = true;
    expect(await refusal(resource.update(manager, '1', { name: 'Max' }, '"1.3"'))).toEqual([
      412,
      'The pet was modified by another request. Fetch it again and retry.',
    ]);
    expect(await refusal(resource.remove(manager, '1'))).toEqual([404, "Pet with 'id' 1 not found."]);
  });

  it('lets a check refuse before the If-Match is looked at, and deletes returning the row as it was', async () => {
    const conflict = new ApiException(409, 'refused');
    const check = () => {
      throw conflict;
    };
    expect(await refusal(resource.remove(manager, '1', '"1.0"', check))).toEqual([409, 'refused']);
    expect(await resource.remove(manager, '1', '"1.3"')).toEqual({ id: 1, version: 3, name: 'Rex' });
    expect(rows.size).toBe(0);
  });
});
