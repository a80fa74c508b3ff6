/**
 * `@DirectRead()` marks a GET route whose only argument is its `@ResourceId()` (one resource
 * by id, the read clients make most) or its whole `@Query()` (a list, answered directly when
 * asked with no query string). Such a route may be answered straight from the request hooks,
 * before the adapter and Nest's route pipeline (see src/direct-reads.ts), with what that
 * pipeline would give it: the rate limit, the id rule, the handler's own result, its ETag or
 * 304, kept list bytes, and its request line. Its answer must depend on the stored data alone
 * (it is kept while the data is unchanged). Any other outcome (a bad id, a 404, a 429)
 * goes on through the full pipeline, as does every request to a route that gains a guard,
 * interceptor, pipe, filter or middleware of its own: the direct path then turns itself off
 * for that route at start-up.
 */
import { SetMetadata } from '@nestjs/common';

export const DIRECT_READ = 'directRead';

export const DirectRead = (): MethodDecorator => SetMetadata(DIRECT_READ, true);
