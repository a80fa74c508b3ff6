/**
 * The shared pieces of resources. Imported once by the application for what every resource
 * shares (kept list answers, the streaming cap, the references between resources), and by each
 * resource module with `ResourcesModule.forFeature(Pet, 'pet')` for that entity's own parts,
 * each a provider of its own so a test can replace any of them:
 *   - `VersionedRecords` (reads and conditional writes), token `recordsToken(Pet)`;
 *   - `ListQueries` (list SQL), token `listQueriesToken(Pet)`;
 *   - `VersionedResource` (the answers: 404, 412, references, kept lists), injected with
 *     `@InjectResource(Pet)`.
 */
import { type DynamicModule, Global, Inject, Module, type Type } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';

import type { ResourceName } from '../errors/messages.js';
import { ListAnswerCache } from './list-answer-cache.js';
import { ListQueries } from './list-queries.js';
import { References } from './references.js';
import { StreamedLists } from './streamed-lists.js';
import { VersionedRecords } from './versioned-records.js';
import { VersionedResource } from './versioned-resource.js';
import type { Versioned } from './versioning.js';

export const recordsToken = (entity: Type<Versioned>): string => `${entity.name}VersionedRecords`;
export const listQueriesToken = (entity: Type<Versioned>): string => `${entity.name}ListQueries`;
export const resourceToken = (entity: Type<Versioned>): string => `${entity.name}VersionedResource`;

/** Injects the entity's VersionedResource (its module imports `ResourcesModule.forFeature(entity, name)`). */
export const InjectResource = (entity: Type<Versioned>): ParameterDecorator & PropertyDecorator =>
  Inject(resourceToken(entity));

/** The module `forFeature` fills in, once per entity (the shared pieces stay single, in ResourcesModule). */
@Module({})
export class ResourceFeatureModule {}

@Global()
@Module({
  providers: [ListAnswerCache, StreamedLists, References],
  exports: [ListAnswerCache, StreamedLists, References],
})
export class ResourcesModule {
  /**
   * The parts of one entity's resource, whose answers name it `name` (`Pet with 'id' 7 not
   * found.`); also registers the entity with the connection.
   */
  static forFeature<T extends Versioned>(entity: Type<T>, name: ResourceName): DynamicModule {
    const records = recordsToken(entity);
    const lists = listQueriesToken(entity);
    const resource = resourceToken(entity);
    return {
      module: ResourceFeatureModule,
      // Registers the entity with the connection too (autoLoadEntities), as TypeOrmModule.forFeature does.
      imports: [TypeOrmModule.forFeature([entity])],
      providers: [
        {
          provide: records,
          inject: [getDataSourceToken()],
          useFactory: (dataSource: DataSource) => new VersionedRecords(entity, dataSource),
        },
        {
          provide: lists,
          inject: [records, getDataSourceToken()],
          useFactory: (parts: VersionedRecords<T>, dataSource: DataSource) => new ListQueries(parts, dataSource),
        },
        {
          provide: resource,
          inject: [records, lists, ListAnswerCache, StreamedLists, References],
          useFactory: (
            parts: VersionedRecords<T>,
            queries: ListQueries<T>,
            answers: ListAnswerCache,
            streams: StreamedLists,
            references: References,
          ) => new VersionedResource(name, parts, queries, answers, streams, references),
        },
      ],
      exports: [records, lists, resource],
    };
  }
}
