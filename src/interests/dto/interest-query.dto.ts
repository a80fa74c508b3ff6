import { PagedQuery } from '../../common/resources/paging.js';
import { IsIdText, IsOneOrMoreOf } from '../../common/validation/rules.js';
import { INTEREST_STATUSES } from '../interest.entity.js';

/** Filters of GET /interests and GET /pets/{id}/interests, combined with AND, beside paging and sorting. */
export class InterestQueryDto extends PagedQuery(['id', 'created_at']) {
  @IsIdText('pet')
  pet_id?: string;

  @IsIdText('shelter')
  shelter_id?: string;

  @IsOneOrMoreOf(INTEREST_STATUSES)
  status?: string;
}
