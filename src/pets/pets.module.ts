import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { SheltersModule } from '../shelters/shelters.module.js';
import { Pet } from './pet.entity.js';
import { PetsController } from './pets.controller.js';
import { PetsService } from './pets.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Pet]), SheltersModule],
  controllers: [PetsController],
  providers: [PetsService],
})
export class PetsModule {}
