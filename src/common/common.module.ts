/**
 * The HTTP pieces every route shares: the route table and what every answer carries
 * (request id, security headers, CORS, OPTIONS). The global pipeline itself is assembled in
 * AppModule.
 */
import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';

import { HttpFront } from './http/http-front.js';
import { RouteTable } from './http/route-table.js';

@Module({
  imports: [DiscoveryModule],
  providers: [RouteTable, HttpFront],
  exports: [RouteTable, HttpFront],
})
export class CommonModule {}
