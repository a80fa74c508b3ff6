import type { AppConfig } from '../../config/app.config.js';
import { JsonList } from './json-list.js';
import { type DataVersion, ListAnswerCache } from './list-answer-cache.js';

const unchanged: DataVersion = { dataVersion: () => '1', seesEveryWrite: true };

/** A cache of `megabytes`, and how many times each key's answer was built. */
function cacheOf(megabytes: number) {
  const config = { listCacheBytes: megabytes * 1024 * 1024, listCacheTtlMs: 1000 } as AppConfig;
  const cache = new ListAnswerCache(config, unchanged);
  const builds = new Map<string, number>();
  const ask = (key: string, body = '[]') =>
    cache.answer(key, async () => {
      builds.set(key, (builds.get(key) ?? 0) + 1);
      return { answer: { list: await JsonList.whole(Buffer.from(body)) }, keep: true };
    });
  return { ask, builds };
}

describe('ListAnswerCache', () => {
  it('builds an answer once while the data is unchanged', async () => {
    const { ask, builds } = cacheOf(1);
    await ask('pets species=cat');
    await ask('pets species=cat');
    expect(builds.get('pets species=cat')).toBe(1);
  });

  it('counts every kept answer at least a kilobyte, so many empty lists cannot fill memory', async () => {
    const { ask, builds } = cacheOf(1);
    await ask('pets breed=first');
    // 5,000 different filters, each answering [] (2 bytes): counted by their bytes alone they
    // would take 10 KB of the megabyte and keep the first; counted with their entries they push it out.
    for (let index = 0; index < 5_000; index++) {
      await ask(`pets breed=b${index}`);
    }
    await ask('pets breed=first');
    expect(builds.get('pets breed=first')).toBe(2);
  });
});
