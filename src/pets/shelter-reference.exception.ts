import { ValidationException } from '../common/errors/api.exception.js';
import { Messages, Rules } from '../common/errors/messages.js';

/** 400: a pet body names a shelter that does not exist. */
export class UnknownShelterReferenceException extends ValidationException {
  constructor(shelterId: number) {
    const id = Number.isSafeInteger(shelterId) ? String(shelterId) : BigInt(shelterId).toString();
    const message = Messages.invalidValue('shelter_id', Rules.referenceNotFound('shelter', id));
    super([{ field: 'shelter_id', message }]);
  }
}
