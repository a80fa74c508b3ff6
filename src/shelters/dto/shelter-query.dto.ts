import { LocatedQuery } from '../../common/resources/near.js';

/** GET /shelters takes paging, sorting and a location search; any other parameter is reported as unknown. */
export class ShelterQueryDto extends LocatedQuery(['id', 'name']) {}
