import { PagedQuery } from '../../common/resources/paging.js';

/** GET /shelters takes paging and sorting parameters only; any other is reported as unknown. */
export class ShelterQueryDto extends PagedQuery(['id', 'name']) {}
