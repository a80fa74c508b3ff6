/** Example error bodies for the OpenAPI document, in the exact shape the error filter writes. */
import { STATUS_CODES } from 'node:http';

import type { ErrorDetail } from '../errors/api.exception.js';

export const ERROR_SCHEMA_REF = '#/components/schemas/Error';
const EXAMPLE_REQUEST_ID = '5f0c2a36-9a4e-4c1b-8d0a-3e7b9c1d2f40';

export interface ErrorExample {
  summary: string;
  value: Record<string, unknown>;
}

export function errorExample(
  status: number,
  message: string,
  details?: ErrorDetail[],
  extra: Record<string, unknown> = {},
): ErrorExample {
  return {
    summary: message,
    value: {
      error: STATUS_CODES[status],
      message,
      status,
      ...(details ? { details } : {}),
      ...extra,
      request_id: EXAMPLE_REQUEST_ID,
    },
  };
}

/** A JSON error response with named examples. */
export function errorContent(examples: ErrorExample[]) {
  return {
    'application/json': {
      schema: { $ref: ERROR_SCHEMA_REF },
      examples: Object.fromEntries(examples.map((example, index) => [`example${index + 1}`, example])),
    },
  };
}
