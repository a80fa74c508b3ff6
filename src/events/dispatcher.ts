/**
 * Sends the outbox's deliveries: every `POLL_MS` it claims the due ones (on PostgreSQL with
 * `FOR UPDATE SKIP LOCKED`, so that each attempt is taken by one instance), posts each signed
 * with the `standardwebhooks` package, and records the outcome. A 2xx is delivered; anything
 * else is tried again after the retry schedule (with jitter) until three days have passed,
 * then marked failed; a webhook whose deliveries have all failed for three days is disabled.
 * At least once: a receiver deduplicates by `webhook-id`.
 */
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Webhook as Signer } from 'standardwebhooks';
import { type DataSource, type EntityManager, In, LessThanOrEqual } from 'typeorm';

import { Messages } from '../common/errors/messages.js';
import { type AppConfig, appConfig } from '../config/app.config.js';
import { Transactions } from '../database/transactions.js';
import { OutboxEvent } from './event.entity.js';
import { Poller } from './poller.js';
import { messageIdOf } from './outbox.js';
import { Webhook } from './webhook.entity.js';
import { refusedWebhookUrl } from './webhook-url.js';
import { WebhookDelivery } from './webhook-delivery.entity.js';

const POLL_MS = 100;
const BATCH = 50;
/** Attempts under way at once per instance; each holds a connection for up to TIMEOUT_MS. */
const MAX_IN_FLIGHT = 200;
/** How long a claimed attempt is held before another instance may take it (a process that died meanwhile). */
const LEASE_MS = 60_000;
const TIMEOUT_MS = 10_000;
export const GIVE_UP_AFTER_MS = 3 * 86_400_000;
const ERROR_LENGTH = 300;

interface Outcome {
  status: number | null;
  error: string | null;
}

@Injectable()
export class WebhookDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly poller = new Poller(POLL_MS, () => this.tick());
  private readonly inFlight = new Set<Promise<void>>();
  /** Cuts the attempts under way short at shutdown: each is sent again after the restart. */
  private readonly shutdown = new AbortController();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: Transactions,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.poller.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.poller.stop();
    this.shutdown.abort();
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Claims what is due (up to the free attempt slots) and starts the attempts without waiting
   * for them: a receiver that takes its full 10 s holds one slot, not the deliveries behind it.
   */
  private async tick(): Promise<void> {
    try {
      const free = MAX_IN_FLIGHT - this.inFlight.size;
      if (free <= 0) {
        return;
      }
      for (const work of await this.claim(Math.min(BATCH, free))) {
        const attempt = this.attempt(work).catch((error: unknown) => {
          if (!this.poller.stopped) {
            this.logger.warn(`webhook delivery ${work.delivery.id}: ${(error as Error).message}`);
          }
        });
        this.inFlight.add(attempt);
        void attempt.finally(() => this.inFlight.delete(attempt));
      }
    } catch (error) {
      if (!this.poller.stopped) {
        this.logger.warn(`webhook dispatch: ${(error as Error).message}`);
      }
    }
  }

  /** The due deliveries, each held for LEASE_MS, with their events and webhooks. */
  private async claim(limit: number): Promise<{ delivery: WebhookDelivery; event: OutboxEvent; webhook: Webhook }[]> {
    // A plain read first: most polls find nothing, and then take no turn in the write queue.
    if (!(await this.dataSource.manager.existsBy(WebhookDelivery, { next_attempt_at: LessThanOrEqual(new Date()) }))) {
      return [];
    }
    return this.transactions.run(async (manager) => {
      const now = new Date();
      const select = manager
        .createQueryBuilder(WebhookDelivery, 'delivery')
        .where({ next_attempt_at: LessThanOrEqual(now) })
        .orderBy('delivery.id', 'ASC')
        .limit(limit);
      if (this.dataSource.options.type === 'postgres') {
        select.setLock('pessimistic_write').setOnLocked('skip_locked');
      }
      const deliveries = await select.getMany();
      if (deliveries.length === 0) {
        return [];
      }
      await manager.update(
        WebhookDelivery,
        { id: In(deliveries.map((delivery) => delivery.id)) },
        { next_attempt_at: new Date(now.getTime() + LEASE_MS) },
      );
      const events = new Map(
        (await manager.findBy(OutboxEvent, { id: In(deliveries.map((delivery) => delivery.event_id)) })).map(
          (event) => [event.id, event],
        ),
      );
      const webhooks = new Map(
        (await manager.findBy(Webhook, { id: In(deliveries.map((delivery) => delivery.webhook_id)) })).map(
          (webhook) => [webhook.id, webhook],
        ),
      );
      return deliveries.flatMap((delivery) => {
        const event = events.get(delivery.event_id);
        const webhook = webhooks.get(delivery.webhook_id);
        return event && webhook ? [{ delivery, event, webhook }] : [];
      });
    });
  }

  private async attempt(work: { delivery: WebhookDelivery; event: OutboxEvent; webhook: Webhook }): Promise<void> {
    const outcome = await this.send(work.event, work.webhook);
    if (this.poller.stopped) {
      return; // its claim lapses and the attempt is made again
    }
    await this.transactions.run((manager) => this.record(manager, work.delivery, work.webhook.id, outcome));
  }

  /** One POST of the event, signed; never throws. */
  private async send(event: OutboxEvent, webhook: Webhook): Promise<Outcome> {
    const refused = await refusedWebhookUrl(webhook.url, this.config.webhookAllowPrivate);
    if (refused !== undefined) {
      return { status: null, error: `URL refused: ${refused}` };
    }
    const id = messageIdOf(event.id);
    const at = new Date();
    try {
      const res = await fetch(webhook.url, {
        method: 'POST',
        redirect: 'manual',
        signal: AbortSignal.any([AbortSignal.timeout(TIMEOUT_MS), this.shutdown.signal]),
        headers: {
          'content-type': 'application/json',
          'user-agent': 'adoption-service-webhooks',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
          'webhook-signature': new Signer(webhook.secret).sign(id, at, event.payload),
        },
        body: event.payload,
      });
      await res.body?.cancel();
      return { status: res.status, error: res.ok ? null : `answered ${res.status}` };
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      return { status: null, error: String((error as Error).message + (cause ? ` (${cause})` : '')) };
    }
  }

  private async record(manager: EntityManager, claimed: WebhookDelivery, webhookId: number, outcome: Outcome) {
    const now = new Date();
    const attempts = claimed.attempts + 1;
    const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const error = outcome.error?.slice(0, ERROR_LENGTH) ?? null;
    if (delivered) {
      await manager.update(WebhookDelivery, claimed.id, {
        attempts,
        last_status: outcome.status,
        last_error: null,
        next_attempt_at: null,
        delivered_at: now,
      });
      await manager.update(Webhook, webhookId, { failing_since: null });
      return;
    }
    const schedule = this.config.webhookRetryScheduleMs;
    const delay = schedule[Math.min(attempts - 1, schedule.length - 1)] * (0.9 + Math.random() * 0.2);
    const giveUp = now.getTime() + delay - claimed.created_at.getTime() > GIVE_UP_AFTER_MS;
    await manager.update(WebhookDelivery, claimed.id, {
      attempts,
      last_status: outcome.status,
      last_error: error,
      next_attempt_at: giveUp ? null : new Date(now.getTime() + delay),
      failed_at: giveUp ? now : null,
    });
    const webhook = await manager.findOneBy(Webhook, { id: webhookId });
    if (webhook === null) {
      return;
    }
    const failingSince = webhook.failing_since ?? now;
    const disable = now.getTime() - failingSince.getTime() >= GIVE_UP_AFTER_MS;
    await manager.update(Webhook, webhookId, {
      failing_since: failingSince,
      ...(disable ? { enabled: false, disabled_reason: Messages.webhookDisabled(error ?? 'no answer') } : {}),
    });
  }
}
