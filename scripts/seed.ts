/**
 * Loads the sample shelters and pets of `seed-data.ts` into the database that DATABASE_URL
 * names (the same default as `npm start`), through the service's own validation and services:
 *   npm run seed
 * Idempotent: a shelter already there (same name) or a pet already there (same name, shelter
 * and intake date) is left alone, so running it twice adds nothing. Safe while the service runs.
 */
import 'reflect-metadata';

import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';

import { AppModule } from '../src/app.module.js';
import { ValidationPipe } from '../src/common/validation/validation.pipe.js';
import { CreatePetDto } from '../src/pets/dto/create-pet.dto.js';
import { Pet } from '../src/pets/pet.entity.js';
import { PetsService } from '../src/pets/pets.service.js';
import { CreateShelterDto } from '../src/shelters/dto/create-shelter.dto.js';
import { Shelter } from '../src/shelters/shelter.entity.js';
import { SheltersService } from '../src/shelters/shelters.service.js';
import { PETS, SHELTERS } from './seed-data.js';

const app = await NestFactory.createApplicationContext(AppModule, { logger: ['error'] });
try {
  const validation = new ValidationPipe();
  const dataSource = app.get(DataSource);
  const counts = { shelters: 0, pets: 0, present: 0 };

  const shelterIds: number[] = [];
  for (const body of SHELTERS) {
    // The same validation as POST /shelters.
    const dto = validation.transform({ ...body }, { type: 'body', metatype: CreateShelterDto }) as CreateShelterDto;
    const existing = await dataSource.getRepository(Shelter).findOneBy({ name: dto.name });
    if (existing) {
      counts.present++;
      shelterIds.push(existing.id);
      continue;
    }
    shelterIds.push((await app.get(SheltersService).create(dto)).id);
    counts.shelters++;
  }

  for (const { shelter, body } of PETS) {
    const dto = validation.transform(
      { ...body, shelter_id: shelterIds[shelter] },
      { type: 'body', metatype: CreatePetDto },
    ) as CreatePetDto;
    const existing = await dataSource
      .getRepository(Pet)
      .findOneBy({ name: dto.name, shelter_id: dto.shelter_id, intake_date: dto.intake_date });
    if (existing) {
      counts.present++;
      continue;
    }
    await app.get(PetsService).create(dto);
    counts.pets++;
  }
  process.stdout.write(
    `Seeded ${counts.shelters} shelters and ${counts.pets} pets; ${counts.present} were already there.\n`,
  );
} catch (error) {
  const details = (error as { details?: Array<{ field: string; message: string }> }).details;
  process.stderr.write(`${details?.map((detail) => detail.message).join('\n') ?? String(error)}\n`);
  process.exitCode = 1;
} finally {
  await app.close();
}
