import 'reflect-metadata';

import { DataSource } from 'typeorm';

import { Transactions } from './transactions.js';

describe('Transactions on SQLite', () => {
  let dataSource: DataSource;
  let transactions: Transactions;

  beforeEach(async () => {
    dataSource = await new DataSource({ type: 'better-sqlite3', database: ':memory:' }).initialize();
    await dataSource.query('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE)');
    transactions = new Transactions(dataSource);
  });
  afterEach(async () => {
    await dataSource.destroy();
  });

  const texts = async () =>
    (await dataSource.query<{ text: string }[]>('SELECT text FROM notes ORDER BY id')).map((row) => row.text);

  it('commits writes sent together, each with its own outcome: a failing one is rolled back alone', async () => {
    const outcomes = await Promise.allSettled([
      transactions.run((manager) => manager.query("INSERT INTO notes (text) VALUES ('a')")),
      transactions.run(async (manager) => {
        await manager.query("INSERT INTO notes (text) VALUES ('b')");
        await manager.query("INSERT INTO notes (text) VALUES ('a')"); // duplicate: this write fails
      }),
      transactions.run(async (manager) => {
        await manager.query("INSERT INTO notes (text) VALUES ('c')");
        return 'done';
      }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((outcomes[2] as PromiseFulfilledResult<string>).value).toBe('done');
    expect(await texts()).toEqual(['a', 'c']);
  });

  it('sees its own earlier writes inside a later write', async () => {
    await transactions.run((manager) => manager.query("INSERT INTO notes (text) VALUES ('first')"));
    const count = await transactions.run(
      async (manager) => (await manager.query<{ n: number }[]>('SELECT COUNT(*) AS n FROM notes'))[0].n,
    );
    expect(count).toBe(1);
  });

  it('changes its data version with every write, and only then', async () => {
    expect(transactions.seesEveryWrite).toBe(true);
    const before = transactions.dataVersion();
    expect(transactions.dataVersion()).toBe(before);
    await transactions.run((manager) => manager.query("INSERT INTO notes (text) VALUES ('x')"));
    const after = transactions.dataVersion();
    expect(after).not.toBe(before);
    await transactions.run((manager) => manager.query("INSERT INTO notes (text) VALUES ('x')")).catch(() => undefined);
    expect(transactions.dataVersion()).not.toBe(after);
  });
});
