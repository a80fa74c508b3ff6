import { Module } from '@nestjs/common';

import { ResourcesModule } from '../common/resources/resources.module.js';
import { EventsModule } from '../events/events.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { PetsModule } from '../pets/pets.module.js';
import { Interest } from './interest.entity.js';
import { InterestsController, PetInterestsController } from './interests.controller.js';
import { InterestsService } from './interests.service.js';

@Module({
  imports: [EventsModule, IdempotencyModule, PetsModule, ResourcesModule.forFeature(Interest, 'interest')],
  controllers: [InterestsController, PetInterestsController],
  providers: [InterestsService],
})
export class InterestsModule {}
