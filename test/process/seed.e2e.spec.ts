/** `npm run seed`: the sample data, through the service's validation, twice adding nothing. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { provision } from '../support/database.js';
import { ServiceProcess } from '../support/server.js';

const SEED = join(process.cwd(), 'dist', 'scripts', 'seed.js');

async function seed(env: Record<string, string>): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [SEED], {
    env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env },
  });
  return stdout.trim();
}

describe('npm run seed', () => {
  it('loads five shelters and 36 pets while the service runs, and adds nothing the second time', async () => {
    const storage = await provision({ durable: true });
    const service = await ServiceProcess.start(storage.env);
    try {
      expect(await seed(storage.env)).toBe('Seeded 5 shelters and 36 pets; 0 were already there.');
      expect(await seed(storage.env)).toBe('Seeded 0 shelters and 0 pets; 41 were already there.');

      const shelters = (await service.http().get('/shelters').expect(200)).body as { id: number }[];
      const pets = (await service.http().get('/pets').expect(200)).body as Record<string, unknown>[];
      expect(shelters).toHaveLength(5);
      expect(pets).toHaveLength(36);
      const values = (field: string) => [...new Set(pets.map((pet) => pet[field]))].sort();
      expect(values('species')).toEqual(['cat', 'dog']);
      expect(values('status')).toEqual(['adopted', 'available', 'pending']);
      expect(values('size')).toEqual(['large', 'medium', 'small']);
      expect(values('shelter_id')).toEqual(shelters.map((shelter) => shelter.id).sort());
      await service.http().get('/pets').query({ species: 'cat', status: 'available' }).expect(200);
    } finally {
      await service.stop();
      await storage.release();
    }
  });
});
