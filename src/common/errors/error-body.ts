/** The contract's error body, in its key order: the one shape every error answer has. */
import { STATUS_CODES } from 'node:http';

import type { ErrorDetail } from './api.exception.js';

export interface ErrorBody {
  error: string;
  message: string;
  status: number;
  details?: ErrorDetail[];
  retry_after?: number;
  request_id: string;
}

export function errorBody(
  status: number,
  message: string,
  requestId: string,
  details?: ErrorDetail[],
  retryAfter?: number,
): ErrorBody {
  const body: Partial<ErrorBody> = { error: STATUS_CODES[status] ?? 'Error', message, status };
  if (details) {
    body.details = details;
  }
  if (retryAfter !== undefined) {
    body.retry_after = retryAfter;
  }
  body.request_id = requestId;
  return body as ErrorBody;
}
