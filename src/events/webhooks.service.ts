import { randomBytes } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';

import { ResourceNotFoundException, ValidationException } from '../common/errors/api.exception.js';
import { Messages, Rules } from '../common/errors/messages.js';
import { type ListPage, type PagedQueryDto, pagingOf } from '../common/resources/paging.js';
import { InjectResource } from '../common/resources/resources.module.js';
import type { VersionedResource } from '../common/resources/versioned-resource.js';
import { type AppConfig, appConfig } from '../config/app.config.js';
import { Transactions } from '../database/transactions.js';
import type { CreateWebhookDto, UpdateWebhookDto } from './dto/webhook.dto.js';
import { Outbox } from './outbox.js';
import { Webhook } from './webhook.entity.js';
import { refusedWebhookUrl } from './webhook-url.js';
import { WebhookDelivery } from './webhook-delivery.entity.js';

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

type WithSecret = ReturnType<Webhook['toJSON']> & { secret: string };

@Injectable()
export class WebhooksService {
  constructor(
    private readonly transactions: Transactions,
    private readonly outbox: Outbox,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
    @InjectResource(Webhook) private readonly webhooks: VersionedResource<Webhook>,
    @InjectResource(WebhookDelivery) private readonly deliveries: VersionedResource<WebhookDelivery>,
  ) {}

  findAll(query: PagedQueryDto): Promise<ListPage> {
    return this.webhooks.list({ where: {}, ...pagingOf(query) });
  }

  findOrFail(id: string): Promise<Webhook> {
    return this.webhooks.findOrFail(id);
  }

  /** 201 with the secret, shown only now; 400 for a URL this deployment does not send to. */
  async create(dto: CreateWebhookDto): Promise<WithSecret> {
    await this.assertUrl(dto.url);
    const secret = newSecret();
    const webhook = await this.transactions.run((manager) =>
      this.webhooks.create(
        {
          url: dto.url,
          events: dto.events,
          shelter_id: dto.shelter_id ?? null,
          description: dto.description ?? '',
          secret,
          enabled: true,
          disabled_reason: null,
          failing_since: null,
          created_at: new Date(),
        },
        manager,
      ),
    );
    return { ...webhook.toJSON(), secret };
  }

  /** Enabling it again forgets why it was disabled and how long it had been failing. */
  async update(id: string, dto: UpdateWebhookDto, ifMatch?: string): Promise<Webhook> {
    if (dto.url !== undefined) {
      await this.assertUrl(dto.url);
    }
    const columns: Partial<Webhook> = { ...dto };
    if (dto.enabled === true) {
      Object.assign(columns, { disabled_reason: null, failing_since: null });
    }
    return this.transactions.run((manager) => this.webhooks.update(manager, id, columns, ifMatch));
  }

  remove(id: string, ifMatch?: string): Promise<Webhook> {
    return this.transactions.run((manager) => this.webhooks.remove(manager, id, ifMatch));
  }

  async rotateSecret(id: string): Promise<WithSecret> {
    const secret = newSecret();
    const webhook = await this.transactions.run((manager) => this.webhooks.update(manager, id, { secret }));
    return { ...webhook.toJSON(), secret };
  }

  /** Sends a `webhook.test` event to this webhook only; answers its delivery. */
  async test(id: string): Promise<WebhookDelivery> {
    return this.transactions.run(async (manager) => {
      const webhook = await this.webhooks.findOrFail(id, manager);
      const [delivery] = await this.outbox.recordFor(
        manager,
        [webhook],
        'webhook.test',
        { webhook_id: webhook.id, message: 'A test event from adoption-service.' },
        webhook.shelter_id,
      );
      return delivery;
    });
  }

  /** The webhook's deliveries, newest last, paged as every list; 404 for an unknown webhook. */
  listDeliveries(id: string, query: PagedQueryDto): Promise<ListPage> {
    return this.deliveries.list({ where: { webhook_id: id as unknown as number }, ...pagingOf(query) });
  }

  /** Sends a delivery again now, whatever became of it. */
  async retry(id: string, deliveryId: string): Promise<WebhookDelivery> {
    const webhook = await this.webhooks.findOrFail(id);
    const delivery = await this.deliveries.findOrFail(deliveryId);
    if (delivery.webhook_id !== webhook.id) {
      throw new ResourceNotFoundException('delivery', deliveryId);
    }
    return this.transactions.run((manager) =>
      this.deliveries.update(manager, deliveryId, { next_attempt_at: new Date(), failed_at: null, delivered_at: null }),
    );
  }

  private async assertUrl(url: string): Promise<void> {
    if ((await refusedWebhookUrl(url, this.config.webhookAllowPrivate)) !== undefined) {
      throw new ValidationException([
        { field: 'url', message: Messages.invalidValue('url', Rules.webhookUrl(!this.config.webhookAllowPrivate)) },
      ]);
    }
  }
}
