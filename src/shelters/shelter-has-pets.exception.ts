import { HttpStatus } from '@nestjs/common';

import { ApiException } from '../common/errors/api.exception.js';
import { Messages } from '../common/errors/messages.js';

/** 409: a shelter cannot be deleted while pets still refer to it. */
export class ShelterHasPetsException extends ApiException {
  constructor(id: string, pets: number) {
    super(HttpStatus.CONFLICT, Messages.shelterHasPets(id, pets));
  }
}
