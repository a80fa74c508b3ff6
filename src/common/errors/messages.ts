/**
 * Every sentence the API says, built from a field name and a rule so that the exact
 * strings of the contract come out by construction. Nothing else writes messages.
 */

/** A resource's singular name as clients read it: `pet`, `shelter`, `token`, or a new module's. */
export type ResourceName = string;

const capitalised = (resource: ResourceName) => resource[0].toUpperCase() + resource.slice(1);
const notFoundSentence = (resource: ResourceName, id: string) => `${capitalised(resource)} with 'id' ${id} not found.`;

/** `a`, `a and b`, `a, b and c`. */
const listed = (items: string[]) =>
  items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/** The second sentence of an "Invalid value" message: what the field must be. */
export const Rules = {
  text: (max: number) => `Must be a non-empty string of at most ${max} characters.`,
  optionalText: (max: number) => `Must be a string of at most ${max} characters.`,
  oneOf: (values: readonly string[]) => `Must be one of the allowed values (${values.join(', ')}).`,
  integerRange: (min: number, max: number) => `Must be an integer from ${min} to ${max}.`,
  numberRange: (min: number, max: number) => `Must be a number from ${min} to ${max}.`,
  location: () => 'Must be a 5-digit US ZIP code or latitude,longitude.',
  unknownZip: (zip: string) => `Unknown ZIP code ${zip}.`,
  eventList: (types: readonly string[]) =>
    `Must be a non-empty array of distinct event types (${types.join(', ')}), or ["*"].`,
  webhookUrl: (production: boolean) =>
    production ? 'Must be an https URL of a public host.' : 'Must be an http or https URL.',
  boolean: () => 'Must be true or false.',
  positiveInteger: () => 'Must be a positive integer.',
  date: () => 'Must be a date in YYYY-MM-DD format.',
  phone: () => 'Must match the format +1-XXX-XXX-XXXX.',
  email: () => 'Must be a valid email address.',
  usd: () => 'Must be in USD.',
  feeRange: () => 'Must be written as <low>-<high> in USD, for example 75-200.',
  object: (fields: readonly string[]) => `Must be an object with ${fields.map((field) => `'${field}'`).join(' and ')}.`,
  textList: (maxItems: number) => `Must be an array of at most ${maxItems} non-empty strings.`,
  referenceNotFound: (resource: ResourceName, id: string) => notFoundSentence(resource, id),
  singleQueryValue: () => 'Must be given once, as a single value.',
  notWith: (other: string) => `Must not be given together with '${other}'.`,
  onlyWith: (other: string) => `Must be given together with '${other}'.`,
  visibleText: (max: number) => `Must be 1 to ${max} visible characters.`,
} as const;

export const Messages = {
  missingField: (field: string) => `Missing required field: ${field}`,
  invalidValue: (field: string, rule: string) => `Invalid value for '${field}'. ${rule}`,
  unknownField: (field: string) => `Unknown field: '${field}'.`,
  unknownQueryParameter: (name: string) => `Unknown query parameter: '${name}'.`,
  invalidQuery: () => 'Invalid query parameter format',
  idempotencyKeyReused: () => 'Idempotency-Key was already used with a different request body.',
  idempotencyInProgress: () => 'A request with this Idempotency-Key is still in progress.',
  webhookDisabled: (lastError: string) => `Every delivery failed for 3 days; the last: ${lastError}.`,
  petAdopted: (id: string) => `Pet with 'id' ${id} has been adopted and takes no more interest.`,
  openInterestExists: (petId: string, interestId: number) =>
    `An open interest from this email in pet ${petId} already exists (id ${interestId}).`,
  invalidId: (resource: ResourceName) => `Invalid ${resource} 'id'. Must be a positive integer.`,
  notFound: (resource: ResourceName, id: string) => notFoundSentence(resource, id),
  endpointNotFound: () => 'The requested endpoint does not exist.',
  bodyNotJson: () => 'Request body is not valid JSON.',
  bodyNotUtf8: () => 'Request body is not valid UTF-8.',
  bodyNotObject: () => 'Request body must be a JSON object.',
  bodyEmpty: () => 'Request body must contain at least one field.',
  bodyTooLarge: (limitBytes: number) => `Request body exceeds the ${formatBytes(limitBytes)} limit.`,
  unsupportedMediaType: () => 'Content-Type must be application/json.',
  tokenRequired: () => 'Authentication token is required for this operation.',
  tokenRejected: () => 'Invalid or expired authentication token.',
  rateLimited: (seconds: number) => `Rate limit exceeded. Try again in ${seconds} seconds.`,
  stillReferenced: (
    resource: ResourceName,
    id: string,
    counts: { count: number; names: { one: string; many: string } }[],
  ) =>
    `${capitalised(resource)} with 'id' ${id} still has ${listed(
      counts.map(({ count, names }) => `${count} ${count === 1 ? names.one : names.many}`),
    )}. Move or delete them first.`,
  preconditionFailed: (resource: ResourceName) =>
    `The ${resource} was modified by another request. Fetch it again and retry.`,
  malformedRequest: () => 'The request is malformed and cannot be processed.',
  expectationFailed: () => "The only expectation the service meets is 'Expect: 100-continue'.",
  internal: () => 'An unexpected error occurred. Please try again later.',
  unavailable: () => 'The service is temporarily unavailable. Please try again later.',
} as const;

/** 102400 → "100 KB"; sizes that are not whole kilobytes are given in bytes. */
function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) {
    return `${bytes / (1024 * 1024)} MB`;
  }
  return bytes % 1024 === 0 ? `${bytes / 1024} KB` : `${bytes} bytes`;
}
