/** The events the service emits, by the change that causes them. */
export const EVENT_TYPES = [
  'interest.created',
  'interest.updated',
  'pet.created',
  'pet.updated',
  'pet.status_changed',
  'pet.deleted',
  'shelter.created',
  'shelter.updated',
  'shelter.deleted',
  'webhook.test',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];
