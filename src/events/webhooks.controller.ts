import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiExtraModels, ApiOkResponse, ApiOperation } from '@nestjs/swagger';

import { RequireAuth } from '../auth/auth.guard.js';
import { Created } from '../common/http/created.decorator.js';
import { IfMatch } from '../common/http/etag.js';
import { NoBody } from '../common/http/json-body.guard.js';
import { ResourceId } from '../common/http/resource-id.decorator.js';
import { ApiCallback } from '../common/openapi/api-callback.decorator.js';
import { ApiTag, TagOrder } from '../common/openapi/api-tag.decorator.js';
import { type ListPage, PAGE_HEADERS, PagedQuery } from '../common/resources/paging.js';
import {
  CreateWebhookDto,
  DeliveryResponse,
  UpdateWebhookDto,
  WebhookEventPayload,
  WebhookResponse,
  WebhookWithSecret,
} from './dto/webhook.dto.js';
import type { Webhook } from './webhook.entity.js';
import type { WebhookDelivery } from './webhook-delivery.entity.js';
import { WebhooksService } from './webhooks.service.js';

export class WebhookQueryDto extends PagedQuery(['id']) {}

@ApiTag(
  'webhooks',
  'Signed notifications of changes (Standard Webhooks) to URLs the administrator registers.',
  TagOrder.administration,
)
@RequireAuth('admin')
@ApiExtraModels(WebhookEventPayload)
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Post()
  @Created('/webhooks')
  @ApiOperation({
    operationId: 'createWebhook',
    summary: 'Register a webhook',
    description:
      'Answers 201 with the webhook and its signing `secret`, shown only here and by `rotate-secret`. In production ' +
      'the URL must be https and its host public (see docs/webhooks.md). Each delivery is a POST of a ' +
      '`WebhookEventPayload` (see the schemas) with the Standard Webhooks headers.',
  })
  @ApiCreatedResponse({ type: WebhookWithSecret })
  @ApiCallback(
    'event',
    '{$request.body#/url}',
    'WebhookEventPayload',
    'An event, signed: `webhook-id` (the same on every attempt), `webhook-timestamp`, `webhook-signature`.',
  )
  create(@Body() dto: CreateWebhookDto) {
    return this.webhooks.create(dto);
  }

  @Get()
  @ApiOperation({
    operationId: 'listWebhooks',
    summary: 'List webhooks',
    description: 'Every webhook, by id; paged as the other lists.',
  })
  @ApiOkResponse({ type: [WebhookResponse], headers: PAGE_HEADERS })
  findAll(@Query() query: WebhookQueryDto): Promise<ListPage> {
    return this.webhooks.findAll(query);
  }

  @Get(':id')
  @ApiOperation({
    operationId: 'getWebhook',
    summary: 'Get a webhook',
    description: 'The webhook, with why it was disabled if it was.',
  })
  @ApiOkResponse({ type: WebhookResponse })
  findOne(@ResourceId('webhook') id: string): Promise<Webhook> {
    return this.webhooks.findOrFail(id);
  }

  @Patch(':id')
  @ApiOperation({
    operationId: 'updateWebhook',
    summary: 'Update a webhook',
    description: '`url`, `events`, `shelter_id`, `description` or `enabled`; enabling it clears why it was disabled.',
  })
  @ApiOkResponse({ type: WebhookResponse })
  update(
    @ResourceId('webhook') id: string,
    @Body() dto: UpdateWebhookDto,
    @IfMatch() ifMatch?: string,
  ): Promise<Webhook> {
    return this.webhooks.update(id, dto, ifMatch);
  }

  @Delete(':id')
  @ApiOperation({
    operationId: 'deleteWebhook',
    summary: 'Delete a webhook',
    description: 'Deletes it and its deliveries.',
  })
  @ApiOkResponse({ type: WebhookResponse })
  remove(@ResourceId('webhook') id: string, @IfMatch() ifMatch?: string): Promise<Webhook> {
    return this.webhooks.remove(id, ifMatch);
  }

  @Post(':id/rotate-secret')
  @NoBody()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'rotateWebhookSecret',
    summary: "Replace a webhook's secret",
    description: 'Answers the webhook with its new secret; deliveries from now on are signed with it.',
  })
  @ApiOkResponse({ type: WebhookWithSecret })
  rotateSecret(@ResourceId('webhook') id: string) {
    return this.webhooks.rotateSecret(id);
  }

  @Post(':id/test')
  @NoBody()
  @HttpCode(202)
  @ApiOperation({
    operationId: 'testWebhook',
    summary: 'Send a test event',
    description: 'Sends a `webhook.test` event to this webhook only, and answers its delivery.',
  })
  @ApiAcceptedResponse({ type: DeliveryResponse })
  test(@ResourceId('webhook') id: string): Promise<WebhookDelivery> {
    return this.webhooks.test(id);
  }

  @Get(':id/deliveries')
  @ApiOperation({
    operationId: 'listWebhookDeliveries',
    summary: "A webhook's deliveries",
    description:
      'Each event sent or to send to it: attempts, the last answer, the next attempt; paged as the other lists.',
  })
  @ApiOkResponse({ type: [DeliveryResponse], headers: PAGE_HEADERS })
  deliveries(@ResourceId('webhook') id: string, @Query() query: WebhookQueryDto): Promise<ListPage> {
    return this.webhooks.listDeliveries(id, query);
  }

  @Post(':id/deliveries/:delivery_id/retry')
  @NoBody()
  @HttpCode(202)
  @ApiOperation({
    operationId: 'retryWebhookDelivery',
    summary: 'Send a delivery again',
    description: 'Sends the delivery again now, whether it was delivered, failed or still waiting.',
  })
  @ApiAcceptedResponse({ type: DeliveryResponse })
  retry(
    @ResourceId('webhook') id: string,
    @ResourceId('delivery', 'delivery_id') deliveryId: string,
  ): Promise<WebhookDelivery> {
    return this.webhooks.retry(id, deliveryId);
  }
}
