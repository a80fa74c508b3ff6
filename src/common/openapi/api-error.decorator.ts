/** `@ApiError(409, Messages.stillReferenced(…))`: documents an operation's own error answer. */
import { STATUS_CODES } from 'node:http';

import { ApiResponse } from '@nestjs/swagger';

import { errorContent, errorExample } from './error-examples.js';

export const ApiError = (status: number, message: string) =>
  ApiResponse({ status, description: STATUS_CODES[status], content: errorContent([errorExample(status, message)]) });
