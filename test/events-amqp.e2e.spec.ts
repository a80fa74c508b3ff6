/**
 * The broker option: with EVENTS_AMQP_URL, every event also reaches RabbitMQ (RabbitMQ runs on
 * 127.0.0.1:5672 on the machines this project is built on), read here from a queue of the
 * test's own bound to the topic exchange.
 */
import type { INestApplication } from '@nestjs/common';
import amqp from 'amqplib';

import { createPet, createShelter, http, startApp, TOKEN } from './support/app.js';
import { eventually } from './support/webhook-receiver.js';

const AMQP_URL = process.env.TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

interface Message {
  routingKey: string;
  persistent: boolean;
  messageId: string;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
}

describe('events published to RabbitMQ', () => {
  let app: INestApplication;
  let connection: amqp.ChannelModel;
  let channel: amqp.Channel;
  const messages: Message[] = [];

  beforeAll(async () => {
    connection = await amqp.connect(AMQP_URL);
    channel = await connection.createChannel();
    await channel.assertExchange('adoption.events', 'topic', { durable: true });
    // A queue of this run only: removed when the connection closes.
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
    await channel.bindQueue(queue, 'adoption.events', '#');
    await channel.consume(queue, (message) => {
      if (message !== null) {
        messages.push({
          routingKey: message.fields.routingKey,
          persistent: message.properties.deliveryMode === 2,
          messageId: String(message.properties.messageId),
          body: JSON.parse(message.content.toString()) as Message['body'],
        });
        channel.ack(message);
      }
    });
    app = await startApp({ EVENTS_AMQP_URL: AMQP_URL });
  });
  afterAll(async () => {
    await app.close();
    await connection.close();
  });

  it('publishes every event, persistent, with its type as routing key and the webhook payload', async () => {
    const shelter = await createShelter(app, { name: 'Broker' });
    const pet = await createPet(app, shelter.id, { name: 'Rabbit' });
    await http(app).patch(`/pets/${pet.id}`).set('Authorization', TOKEN).send({ status: 'adopted' }).expect(200);
    await http(app).delete(`/pets/${pet.id}`).set('Authorization', TOKEN).expect(200);

    const expected = ['shelter.created', 'pet.created', 'pet.updated', 'pet.status_changed', 'pet.deleted'];
    const mine = () =>
      messages.filter(
        (message) =>
          message.body.data.id === pet.id ||
          (message.body.data.name === 'Broker' && message.body.type.startsWith('shelter')),
      );
    await eventually(() => mine().length >= expected.length, 10_000);
    const received = mine();
    expect(received.map((message) => message.routingKey)).toEqual(expected);
    expect(received.map((message) => message.body.type)).toEqual(expected);
    expect(received.every((message) => message.persistent && /^evt_\d+$/.test(message.messageId))).toBe(true);
    expect(new Set(received.map((message) => message.messageId)).size).toBe(expected.length);
    expect(received[3].body.data).toMatchObject({ id: pet.id, from: 'available', to: 'adopted' });
  });
});
