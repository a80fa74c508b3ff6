import { ApiProperty, PartialType } from '@nestjs/swagger';

import { Rules } from '../../common/errors/messages.js';
import {
  IsBool,
  IsOptionalText,
  IsPositiveInteger,
  IsText,
  MayBeOmitted,
  Satisfies,
} from '../../common/validation/rules.js';
import { EVENT_TYPES } from '../event-types.js';

const MAX_EVENTS = EVENT_TYPES.length;
const isEventList = (value: unknown) =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.length <= MAX_EVENTS &&
  new Set(value).size === value.length &&
  (value.every((item) => (EVENT_TYPES as readonly unknown[]).includes(item)) ||
    (value.length === 1 && value[0] === '*'));

/** The body of POST /webhooks. */
export class CreateWebhookDto {
  /** Checked further by the service: scheme, and in production a public host. */
  @IsText(2000)
  url!: string;

  @Satisfies('isEventList', isEventList, () => Rules.eventList(EVENT_TYPES), {
    type: 'array',
    items: { type: 'string', enum: [...EVENT_TYPES, '*'] },
    minItems: 1,
    description: `${Rules.eventList(EVENT_TYPES)} \`webhook.test\` is always sent to the webhook tested.`,
  })
  events!: string[];

  /** Only this shelter's events. */
  @MayBeOmitted()
  @IsPositiveInteger()
  shelter_id?: number;

  @MayBeOmitted()
  @IsOptionalText(500)
  description?: string;
}

/** The body of PATCH /webhooks/{id}: any of these. */
export class UpdateWebhookDto extends PartialType(CreateWebhookDto) {
  @MayBeOmitted()
  @IsBool()
  enabled?: boolean;
}

/** A webhook as the API returns it (the secret only when it is made or rotated). */
export class WebhookResponse {
  @ApiProperty({ type: 'string' })
  url!: string;

  @ApiProperty({ type: 'array', items: { type: 'string' } })
  events!: string[];

  @ApiProperty({ type: 'integer', nullable: true })
  shelter_id!: number | null;

  @ApiProperty({ type: 'string' })
  description!: string;

  @ApiProperty({ type: 'boolean' })
  enabled!: boolean;

  @ApiProperty({ type: 'string', nullable: true, description: 'Why the service disabled it, or null.' })
  disabled_reason!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at!: string;

  @ApiProperty({ type: 'integer', minimum: 1 })
  id!: number;
}

export class WebhookWithSecret extends WebhookResponse {
  @ApiProperty({ type: 'string', example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', description: 'Shown only now.' })
  secret!: string;
}

/** One delivery of an event to a webhook. */
export class DeliveryResponse {
  @ApiProperty({ type: 'integer' })
  webhook_id!: number;

  @ApiProperty({ type: 'string', description: 'The `webhook-id` header of every attempt.' })
  event_id!: string;

  @ApiProperty({ type: 'string' })
  type!: string;

  @ApiProperty({ type: 'integer' })
  attempts!: number;

  @ApiProperty({ type: 'integer', nullable: true })
  last_status!: number | null;

  @ApiProperty({ type: 'string', nullable: true })
  last_error!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  next_attempt_at!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  delivered_at!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  failed_at!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time' })
  created_at!: string;

  @ApiProperty({ type: 'integer' })
  id!: number;
}

/**
 * The body of every delivery (and of every message to the broker), in the Standard Webhooks
 * format; the headers `webhook-id`, `webhook-timestamp` and `webhook-signature` sign it.
 */
export class WebhookEventPayload {
  @ApiProperty({ enum: EVENT_TYPES })
  type!: string;

  @ApiProperty({ type: 'string', format: 'date-time', description: 'When the change was made.' })
  timestamp!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The resource as the API shows it (after the change; as it was for `*.deleted`); `pet.status_changed` ' +
      'adds `from` and `to`; `webhook.test` is `{ "webhook_id", "message" }`.',
  })
  data!: Record<string, unknown>;
}
