/**
 * The framework floor of `npm run bench`: NestJS on the given adapter with one controller
 * and nothing else (no guards, interceptors, pipes, middleware or logging), answering
 * `GET /pets/:id` from the baseline's prepared statement with the same JSON. What NestJS
 * itself costs on this machine: the service cannot be faster than this, only as close.
 *
 *   node bench/framework-floor.mjs <sqlite file> <port> <express|fastify>
 */
import 'reflect-metadata';

import { Controller, Get, Module, NotFoundException, Param } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';

import { openRaw, petBody } from './raw-pets.mjs';

const [file, port, adapter] = process.argv.slice(2);
const { petById, shelters } = openRaw(file);

// Plain JavaScript, so the decorators are applied by hand.
class PetsController {
  findOne(id) {
    const row = petById.get(Number(id));
    if (!row) {
      throw new NotFoundException();
    }
    return petBody(row);
  }
}
Param('id')(PetsController.prototype, 'findOne', 0);
Get(':id')(PetsController.prototype, 'findOne', Object.getOwnPropertyDescriptor(PetsController.prototype, 'findOne'));
Controller('pets')(PetsController);

class SheltersController {
  findAll() {
    return shelters.all();
  }
}
Get()(
  SheltersController.prototype,
  'findAll',
  Object.getOwnPropertyDescriptor(SheltersController.prototype, 'findAll'),
);
Controller('shelters')(SheltersController);

class FloorModule {}
Module({ controllers: [PetsController, SheltersController] })(FloorModule);

const app = await NestFactory.create(FloorModule, adapter === 'fastify' ? new FastifyAdapter() : new ExpressAdapter(), {
  logger: false,
});
await app.listen(Number(port), '127.0.0.1');
process.stdout.write(`framework floor (${adapter}) listening\n`);
