/**
 * The durable outbox: every event is written in the same transaction as the change that
 * causes it, with one delivery per webhook that wants it, so there is never a change without
 * its event nor an event without its change. The dispatcher sends them afterwards.
 */
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

import { type AppConfig, appConfig } from '../config/app.config.js';
import { OutboxEvent } from './event.entity.js';
import type { EventType } from './event-types.js';
import { Webhook } from './webhook.entity.js';
import { WebhookDelivery } from './webhook-delivery.entity.js';

/** The `webhook-id` of an event: the same on every attempt, on every webhook. */
export const messageIdOf = (eventId: number) => `evt_${eventId}`;

@Injectable()
export class Outbox {
  /** Events wait for the broker only when there is one; otherwise they are born published. */
  private readonly toBroker: boolean;

  constructor(@Inject(appConfig.KEY) config: AppConfig) {
    this.toBroker = config.eventsAmqpUrl !== undefined;
  }

  /**
   * Records an event about `data` (the resource as the API shows it) inside the write's own
   * transaction; `shelterId` is the shelter it concerns, for webhooks of one shelter.
   */
  async record(manager: EntityManager, type: EventType, data: object, shelterId: number | null): Promise<void> {
    const webhooks = (await manager.find(Webhook, { where: { enabled: true } })).filter((webhook) =>
      webhook.wants(type, shelterId),
    );
    await this.recordFor(manager, webhooks, type, data, shelterId);
  }

  /** Records an event for these webhooks only (a test event); returns its deliveries. */
  async recordFor(
    manager: EntityManager,
    webhooks: Webhook[],
    type: EventType,
    data: object,
    shelterId: number | null,
  ): Promise<WebhookDelivery[]> {
    const now = new Date();
    // JSON.stringify writes the resource as the API shows it (its toJSON).
    const payload = JSON.stringify({ type, timestamp: now.toISOString(), data });
    const { identifiers } = await manager.insert(OutboxEvent, {
      type,
      shelter_id: shelterId,
      payload,
      created_at: now,
    });
    const eventId = identifiers[0].id as number;
    const deliveries = webhooks.map((webhook) =>
      manager.create(WebhookDelivery, {
        webhook_id: webhook.id,
        event_id: eventId,
        type,
        attempts: 0,
        last_status: null,
        last_error: null,
        next_attempt_at: now,
        delivered_at: null,
        failed_at: null,
        created_at: now,
        version: 1,
      }),
    );
    if (deliveries.length > 0) {
      await manager.insert(WebhookDelivery, deliveries);
    }
    return deliveries;
  }
}
