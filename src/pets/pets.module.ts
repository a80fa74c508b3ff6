import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { ResourcesModule } from '../common/resources/resources.module.js';
import { EventsModule } from '../events/events.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { Pet } from './pet.entity.js';
import { PetStatusChange } from './pet-status-change.entity.js';
import { PetsController } from './pets.controller.js';
import { PetsService } from './pets.service.js';

@Module({
  imports: [
    EventsModule,
    IdempotencyModule,
    ResourcesModule.forFeature(Pet, 'pet'),
    TypeOrmModule.forFeature([Pet, PetStatusChange]),
  ],
  controllers: [PetsController],
  providers: [PetsService],
  exports: [PetsService],
})
export class PetsModule {}
