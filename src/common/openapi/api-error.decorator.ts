/** `@ApiError(409, Messages.shelterHasPets('1', 3))`: documents an operation's own error answer. */
import { STATUS_CODES } from 'node:http';

import { ApiResponse } from '@nestjs/swagger';

import { errorContent, errorExample } from './error-examples.js';

export const ApiError = (status: number, message: string) =>
  ApiResponse({ status, description: STATUS_CODES[status], content: errorContent([errorExample(status, message)]) });
