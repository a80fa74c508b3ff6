import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createPet, createShelter, http, startApp } from './support/app.js';

describe('persistence on an SQLite file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'adoption-'));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'nested', 'adoption.sqlite')}` };

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates the file on first start and keeps every record across a restart', async () => {
    const first = await startApp(env);
    const shelter = await createShelter(first);
    const pet = await createPet(first, shelter.id);
    await first.close();

    const second = await startApp(env);
    try {
      await http(second).get(`/shelters/${shelter.id}`).expect(200, shelter);
      await http(second).get('/pets').expect(200, [pet]);
    } finally {
      await second.close();
    }
  });
});
