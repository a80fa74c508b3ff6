/**
 * With `EVENTS_AMQP_URL`, publishes every event of the outbox to RabbitMQ as well: to the
 * durable topic exchange `adoption.events`, routing key = the event type, persistent, with
 * publisher confirms. An event is marked published only once the broker confirmed it, in the
 * transaction that claimed it (on PostgreSQL with `FOR UPDATE SKIP LOCKED`, so that several
 * instances share the work); a broker that is down is tried again on the next poll. At least
 * once: consumers deduplicate by the message id (`evt_<n>`, the webhooks' `webhook-id`).
 */
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { ChannelModel, ConfirmChannel } from 'amqplib';
import { type DataSource, IsNull } from 'typeorm';

import { type AppConfig, appConfig } from '../config/app.config.js';
import { Transactions } from '../database/transactions.js';
import { OutboxEvent } from './event.entity.js';
import { messageIdOf } from './outbox.js';
import { Poller } from './poller.js';

export const EVENTS_EXCHANGE = 'adoption.events';
const POLL_MS = 100;
const BATCH = 100;

@Injectable()
export class BrokerPublisher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Events');
  private readonly poller = new Poller(POLL_MS, () => this.tick());
  private connection?: ChannelModel;
  private channel?: ConfirmChannel;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly transactions: Transactions,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.eventsAmqpUrl === undefined) {
      return;
    }
    this.poller.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.poller.stop();
    await this.connection?.close().catch(() => undefined);
  }

  private async tick(): Promise<void> {
    try {
      if (!(await this.dataSource.manager.existsBy(OutboxEvent, { published_at: IsNull() }))) {
        return;
      }
      const channel = await this.open();
      await this.transactions.run(async (manager) => {
        const select = manager
          .createQueryBuilder(OutboxEvent, 'event')
          .where({ published_at: IsNull() })
          .orderBy('event.id', 'ASC')
          .limit(BATCH);
        if (this.dataSource.options.type === 'postgres') {
          select.setLock('pessimistic_write').setOnLocked('skip_locked');
        }
        const events = await select.getMany();
        for (const event of events) {
          channel.publish(EVENTS_EXCHANGE, event.type, Buffer.from(event.payload), {
            persistent: true,
            contentType: 'application/json',
            messageId: messageIdOf(event.id),
            timestamp: Math.floor(event.created_at.getTime() / 1000),
            type: event.type,
          });
        }
        await channel.waitForConfirms();
        if (events.length > 0) {
          await manager.update(
            OutboxEvent,
            events.map((event) => event.id),
            { published_at: new Date() },
          );
        }
      });
    } catch (error) {
      if (!this.poller.stopped) {
        this.logger.warn(`publishing events to the broker: ${(error as Error).message}; trying again`);
      }
      await this.connection?.close().catch(() => undefined);
      this.connection = undefined;
      this.channel = undefined;
    }
  }

  /** The confirm channel, connected and with the exchange declared, made again after a failure. */
  private async open(): Promise<ConfirmChannel> {
    if (this.channel === undefined) {
      // The client is loaded only by a service that publishes to a broker.
      const { default: amqp } = await import('amqplib');
      const connection = await amqp.connect(this.config.eventsAmqpUrl!);
      connection.on('error', () => undefined);
      connection.on('close', () => {
        this.connection = undefined;
        this.channel = undefined;
      });
      const channel = await connection.createConfirmChannel();
      await channel.assertExchange(EVENTS_EXCHANGE, 'topic', { durable: true });
      this.connection = connection;
      this.channel = channel;
    }
    return this.channel;
  }
}
