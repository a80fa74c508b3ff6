/**
 * Events of the service's changes: the outbox every write records them in, webhooks that
 * receive them signed, and the dispatcher that sends them. Resource modules import it for the
 * Outbox.
 */
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';

import { ResourcesModule } from '../common/resources/resources.module.js';
import { BrokerPublisher } from './broker-publisher.js';
import { WebhookDispatcher } from './dispatcher.js';
import { OutboxEvent } from './event.entity.js';
import { Outbox } from './outbox.js';
import { Webhook } from './webhook.entity.js';
import { WebhookDelivery } from './webhook-delivery.entity.js';
import { WebhooksController } from './webhooks.controller.js';
import { WebhooksService } from './webhooks.service.js';

@Module({
  imports: [
    TypeOrmModule.forFeature([OutboxEvent]),
    ResourcesModule.forFeature(Webhook, 'webhook'),
    ResourcesModule.forFeature(WebhookDelivery, 'delivery'),
  ],
  controllers: [WebhooksController],
  providers: [Outbox, WebhooksService, WebhookDispatcher, BrokerPublisher],
  exports: [Outbox],
})
export class EventsModule {}
