import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createPet, createShelter, http, startApp } from './support/app.js';
import { provision } from './support/database.js';

describe('persistence', () => {
  it('keeps every record across a restart on the same database', async () => {
    const storage = await provision({ durable: true });
    try {
      const first = await startApp(storage.env);
      const shelter = await createShelter(first);
      const pet = await createPet(first, shelter.id);
      await first.close();

      const second = await startApp(storage.env);
      try {
        await http(second).get(`/shelters/${shelter.id}`).expect(200, shelter);
        await http(second).get('/pets').expect(200, [pet]);
      } finally {
        await second.close();
      }
    } finally {
      await storage.release();
    }
  });

  it('creates the SQLite file and its folders on first start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'adoption-'));
    const file = join(dir, 'nested', 'adoption.sqlite');
    try {
      const app = await startApp({ DATABASE_URL: `sqlite:${file}` });
      await app.close();
      expect(existsSync(file)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
