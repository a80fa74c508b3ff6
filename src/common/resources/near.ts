/**
 * Location searches of a list: `location` (a 5-digit US ZIP code or `latitude,longitude`) and
 * `distance` (miles, 1 to 500, default 100) keep the items whose point lies within the
 * distance; with `location` and no `sort`, the list is ordered by distance, then id, and
 * `sort=distance` / `-distance` may be asked. Each item then carries `distance` (miles, one
 * decimal) after its `id` (see ListQueries).
 */
import { Rules } from '../errors/messages.js';
import { zipCentroid, type Point } from '../geo/geo.js';
import { Satisfies } from '../validation/rules.js';
import { invalidQueryValue, type Page, PagedQuery, pagingOf, type Sort } from './paging.js';

export const DEFAULT_MILES = 100;
export const MAX_MILES = 500;
const ZIP = /^\d{5}$/;
const COORDINATES = /^([+-]?\d{1,3}(?:\.\d+)?)\s*,\s*([+-]?\d{1,3}(?:\.\d+)?)$/;
const MILES = /^\d{1,3}(?:\.\d+)?$/;

/** What a location search asks: the point, the radius, and whose point counts (see ListQuery). */
export interface Near extends Point {
  miles: number;
}

const LOCATION_RULE = Rules.location();
const DISTANCE_RULE = Rules.numberRange(1, MAX_MILES);

function coordinatesOf(text: string): Point | undefined {
  const match = COORDINATES.exec(text);
  if (match === null) {
    return undefined;
  }
  const [latitude, longitude] = [Number(match[1]), Number(match[2])];
  return Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180 ? { latitude, longitude } : undefined;
}

const isLocation = (value: unknown) =>
  typeof value === 'string' && (ZIP.test(value) || coordinatesOf(value) !== undefined);
const isMiles = (value: unknown) =>
  typeof value === 'string' && MILES.test(value) && Number(value) >= 1 && Number(value) <= MAX_MILES;

/** The query parameters of a list that can be searched by location, beside paging and sorting. */
export function LocatedQuery(sortFields: readonly string[]) {
  class LocatedQueryDto extends PagedQuery(sortFields, ['distance']) {
    @Satisfies('isLocation', isLocation, () => LOCATION_RULE, {
      type: 'string',
      description:
        `${LOCATION_RULE} Latitude −90 to 90, longitude −180 to 180, in decimal degrees (\`45.5231,-122.6765\`). ` +
        'Keeps the items whose shelter lies within `distance` of it, ordered by distance unless `sort` says otherwise; ' +
        'each item then carries `distance`, in miles. Shelters without a known ZIP code never match.',
    })
    location?: string;

    @Satisfies('isMiles', isMiles, () => DISTANCE_RULE, {
      type: 'number',
      minimum: 1,
      maximum: MAX_MILES,
      description: `${DISTANCE_RULE} ${Rules.onlyWith('location')} Miles, great-circle, default ${DEFAULT_MILES}.`,
    })
    distance?: string;
  }
  return LocatedQueryDto;
}

export type LocatedQueryDto = InstanceType<ReturnType<typeof LocatedQuery>>;

/**
 * The paging and sort of a list query and, with `location`, its search: a ZIP code the table
 * does not know, `distance` or a distance sort without `location` are the client's 400.
 */
export async function locatedPagingOf(query: LocatedQueryDto): Promise<{ sort: Sort; page?: Page; near?: Near }> {
  const paging = pagingOf(query);
  const sortGiven = query.sort !== undefined || query._sort !== undefined;
  if (query.location === undefined) {
    if (query.distance !== undefined) {
      throw invalidQueryValue('distance', Rules.onlyWith('location'));
    }
    if (paging.sort.column === 'distance') {
      throw invalidQueryValue(query.sort !== undefined ? 'sort' : '_sort', Rules.onlyWith('location'));
    }
    return paging;
  }
  const point = ZIP.test(query.location) ? await zipCentroid(query.location) : coordinatesOf(query.location);
  if (point === undefined) {
    throw invalidQueryValue('location', Rules.unknownZip(query.location));
  }
  const miles = query.distance === undefined ? DEFAULT_MILES : Number(query.distance);
  const sort = sortGiven ? paging.sort : { column: 'distance', descending: paging.sort.descending };
  return { ...paging, sort, near: { ...point, miles } };
}
