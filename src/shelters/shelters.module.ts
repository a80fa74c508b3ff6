import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { ResourcesModule } from '../common/resources/resources.module.js';
import { EventsModule } from '../events/events.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { Shelter } from './shelter.entity.js';
import { SheltersController } from './shelters.controller.js';
import { SheltersService } from './shelters.service.js';

@Module({
  imports: [
    EventsModule,
    IdempotencyModule,
    ResourcesModule.forFeature(Shelter, 'shelter'),
    TypeOrmModule.forFeature([Shelter]),
  ],
  controllers: [SheltersController],
  providers: [SheltersService],
  exports: [SheltersService],
})
export class SheltersModule {}
