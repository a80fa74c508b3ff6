/** The shared pieces of list answers, for every resource module: kept answers, the streaming cap, and each resource's store. */
import { Global, Module } from '@nestjs/common';

import { ListAnswerCache } from './list-answer-cache.js';
import { References } from './references.js';
import { StreamedLists } from './streamed-lists.js';
import { VersionedStores } from './versioned-stores.js';

@Global()
@Module({
  providers: [ListAnswerCache, StreamedLists, References, VersionedStores],
  exports: [ListAnswerCache, StreamedLists, References, VersionedStores],
})
export class ResourcesModule {}
