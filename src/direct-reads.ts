/**
 * The reads clients make most, one resource by id or a list asked with a plain query string,
 * on a route marked `@DirectRead()`, answered from the request hooks, after the request line,
 * the common headers and the rate-limit count and before the adapter's router and Nest's route
 * pipeline, which cost more than the rest of such a request. The answer is the one the pipeline
 * would give: the same handler is called with the same argument, and its result is written by
 * `payloadOf` as the adapters write it (ETag, 304, HEAD). Only the plain case is answered here: a GET or HEAD with a canonical id, no body,
 * no exhausted rate-limit window, and a result. Anything else (a bad id, a 404, a 429, a body,
 * `Expect`) is left to the full pipeline, which answers it as for any route; the rate-limit
 * count made before is not made again. Answers sent are kept (ReadAnswerCache) while the data
 * is unchanged, and sent again as they are.
 *
 * The path is on only where nothing but the application's own pipeline applies: at start-up a
 * marked route is left to Nest when it, its controller or the application has a guard,
 * interceptor, pipe or filter beyond that pipeline, or when a module configures middleware.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse } from 'node:querystring';
import { pipeline } from 'node:stream';

import { Injectable, Logger, type OnApplicationBootstrap, RequestMethod, type Type } from '@nestjs/common';
import {
  EXCEPTION_FILTERS_METADATA,
  GUARDS_METADATA,
  INTERCEPTORS_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  PIPES_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { ApplicationConfig, DiscoveryService, MetadataScanner, ModulesContainer } from '@nestjs/core';

import { JSON_TYPE, payloadOf } from './common/http/answers.js';
import { DIRECT_READ } from './common/http/direct-read.decorator.js';
import { ReadAnswerCache } from './common/http/read-answer-cache.js';
import { answeredBy, type RequestHook } from './common/http/request-hooks.js';
import { isIdText } from './common/validation/rules.js';
import { RateLimiter } from './rate-limit/rate-limiter.js';

/** What the application's pipeline is made of: the direct path answers as it would. */
export interface Pipeline {
  guards: Type[];
  pipes: Type[];
  filters: Type[];
  /** The module whose `configure` installs the request hooks (and no middleware). */
  hookModule: Type;
  /** Metadata keys by which a route states a rule of its own (an auth requirement): such a route is left to the pipeline. */
  routeRules: string[];
}

/** A marked route: its pattern (for the request line), and its handler called as Nest would call it. */
interface DirectRoute {
  pattern: string;
  /** The handler's result for the path's id, or (a list) for the parsed query string. */
  read: (argument: string) => Promise<unknown>;
}

/** What a marked route takes: its path id, or its whole query (of this DTO class). */
type RouteShape = { pattern: string; takes: 'id' } | { pattern: string; takes: 'query'; dto: Type };

const ENHANCERS = [GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA, EXCEPTION_FILTERS_METADATA];

/**
 * Query strings answered here: names and values of letters, digits and `_.,~-` only, which
 * Express's and Fastify's parsers read alike. Any other goes through the router.
 */
const PLAIN_QUERY = /^[\w.,~=&-]*$/;
/** Longer query strings go through the router (Express reads at most 1,000 parameters). */
const MAX_QUERY_LENGTH = 1_000;

@Injectable()
export class DirectReads implements OnApplicationBootstrap {
  private readonly logger = new Logger('DirectReads');
  /** Routes of one resource, by their path up to the id (`/pets/`). */
  private readonly byId = new Map<string, DirectRoute>();
  /** Routes of a list, by their path (`/shelters`): answered here when their query string is plain. */
  private readonly lists = new Map<string, DirectRoute>();
  private pipeline?: Pipeline;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly modules: ModulesContainer,
    private readonly application: ApplicationConfig,
    private readonly rateLimiter: RateLimiter,
    private readonly answers: ReadAnswerCache,
  ) {}

  /** The hook, last of the request hooks, for an application made of `pipeline`. */
  hookFor(pipeline: Pipeline): RequestHook {
    this.pipeline = pipeline;
    return this.hook;
  }

  onApplicationBootstrap(): void {
    const pipeline = this.pipeline;
    if (pipeline === undefined) {
      return;
    }
    const outside = this.outsideThePipeline(pipeline);
    for (const wrapper of this.discovery.getControllers()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      const controller = wrapper.metatype as Type | undefined;
      if (!instance || !controller) {
        continue;
      }
      const prototype = Object.getPrototypeOf(instance) as Record<string, (...args: unknown[]) => unknown>;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler = prototype[name];
        if (Reflect.getMetadata(DIRECT_READ, handler) !== true) {
          continue;
        }
        const shape = routeShape(controller, name, handler);
        const refused =
          outside ?? ownEnhancer(controller, handler, pipeline.routeRules) ?? (shape ? undefined : 'its arguments');
        if (refused !== undefined || shape === undefined) {
          this.logger.warn(`${controller.name}.${name} is answered by the full pipeline: ${refused}.`);
          continue;
        }
        const { pattern } = shape;
        if (shape.takes === 'id') {
          this.byId.set(pattern.slice(0, pattern.lastIndexOf(':')), {
            pattern,
            read: (id) => handler.call(instance, id) as Promise<unknown>,
          });
        } else {
          this.lists.set(pattern, {
            pattern,
            read: async (query) => handler.call(instance, await this.validQuery(query, shape.dto)),
          });
        }
      }
    }
  }

  private readonly hook: RequestHook = (req, res) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || hasBody(req)) {
      return false;
    }
    const url = req.url ?? '';
    const query = url.indexOf('?');
    let path = query === -1 ? url : url.slice(0, query);
    // One trailing slash is the same route, as for the routers.
    if (path.length > 1 && path.endsWith('/')) {
      path = path.slice(0, -1);
    }
    const queryString = query === -1 ? '' : url.slice(query + 1);
    const list = this.lists.get(path);
    if (list !== undefined) {
      if (queryString.length > MAX_QUERY_LENGTH || !PLAIN_QUERY.test(queryString) || !this.mayAnswer(req)) {
        return false;
      }
      // By the URL as asked (a page's Link repeats its path) and the encodings accepted.
      return this.keptOrRead(req, res, list, queryString, `${url} ${req.headers['accept-encoding'] ?? ''}`);
    }
    const slash = path.lastIndexOf('/');
    const route = this.byId.get(path.slice(0, slash + 1));
    const id = path.slice(slash + 1);
    if (route === undefined || !isIdText(id) || !this.mayAnswer(req)) {
      return false;
    }
    return this.keptOrRead(req, res, route, id, `${route.pattern} ${id}`);
  };

  /** The kept answer for `key` if it is current, else the route's handler's, kept for the next time. */
  private keptOrRead(
    req: IncomingMessage,
    res: ServerResponse,
    route: DirectRoute,
    argument: string,
    key: string,
  ): boolean | Promise<boolean> {
    const version = this.answers.version();
    if (this.answers.sendKept(req, res, key, version)) {
      answeredBy(req, route.pattern);
      return true;
    }
    return route.read(argument).then(
      (result) => {
        const sent = answer(req, res, route.pattern, result);
        if (sent !== undefined) {
          this.answers.keep(res, key, version, sent);
        }
        return sent !== undefined;
      },
      () => false,
    );
  }

  /** True unless the count made before found an exhausted window (the guard answers 429 then). */
  private mayAnswer(req: IncomingMessage): boolean {
    const blocks = this.rateLimiter.blocksOf(req);
    return Array.isArray(blocks) && blocks.length === 0;
  }

  /** A query string as the route's handler gets it: parsed as the adapters parse it, through the application's pipes. */
  private async validQuery(query: string, dto: Type): Promise<unknown> {
    let value: unknown = parse(query);
    for (const pipe of this.application.getGlobalPipes()) {
      value = await pipe.transform(value, { type: 'query', metatype: dto, data: undefined });
    }
    return value;
  }

  /** Why no route may be answered directly, or undefined. */
  private outsideThePipeline(pipeline: Pipeline): string | undefined {
    const extra = (instances: object[], allowed: Type[]) =>
      instances.find((instance) => !allowed.some((type) => instance instanceof type));
    const guard = extra(this.application.getGlobalGuards(), pipeline.guards);
    const pipe = extra(this.application.getGlobalPipes(), pipeline.pipes);
    const filter = extra(this.application.getGlobalFilters(), pipeline.filters);
    const interceptor = this.application.getGlobalInterceptors()[0];
    const found = guard ?? pipe ?? filter ?? interceptor;
    if (found !== undefined) {
      return `the application also has ${found.constructor.name}`;
    }
    for (const module of this.modules.values()) {
      const type = module.metatype;
      const prototype = type.prototype as { configure?: unknown } | undefined;
      if (type !== pipeline.hookModule && typeof prototype?.configure === 'function') {
        return `${type.name} configures middleware`;
      }
    }
    return undefined;
  }
}

/** The route's own guard, interceptor, pipe, filter or rule, if it or its controller has one. */
function ownEnhancer(controller: Type, handler: object, rules: string[]): string | undefined {
  for (const key of [...ENHANCERS, ...rules]) {
    for (const target of [controller, handler]) {
      const value = Reflect.getMetadata(key, target) as unknown;
      if (value !== undefined && (!Array.isArray(value) || value.length > 0)) {
        return `it has its own ${key.replaceAll('_', '')}`;
      }
    }
  }
  return undefined;
}

/**
 * What a GET route takes when it takes only its path's last parameter (`/pets/:id`, through
 * `@ResourceId`) or only its whole query (`/shelters`, through `@Query()`); undefined otherwise.
 */
function routeShape(controller: Type, name: string, handler: object): RouteShape | undefined {
  if (Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.GET) {
    return undefined;
  }
  const prefix = Reflect.getMetadata(PATH_METADATA, controller) as unknown;
  const suffix = Reflect.getMetadata(PATH_METADATA, handler) as unknown;
  if (typeof prefix !== 'string' || typeof suffix !== 'string') {
    return undefined;
  }
  const pattern = `/${[prefix, suffix]
    .map((part) => part.replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/')}`;
  const args = Object.entries(
    (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, { data?: unknown }>,
  );
  if (args.length !== 1) {
    return undefined;
  }
  const [[key, { data }]] = args;
  const param = /\/:(\w+)$/.exec(pattern)?.[1];
  const others = (param === undefined ? pattern : pattern.slice(0, -param.length - 2)).includes(':');
  if (others) {
    return undefined;
  }
  if (param !== undefined) {
    return (data as { param?: string } | undefined)?.param === param ? { pattern, takes: 'id' } : undefined;
  }
  const [dto] = (Reflect.getMetadata('design:paramtypes', controller.prototype as object, name) ?? []) as Type[];
  return key === `${RouteParamtypes.QUERY}:0` && data === undefined && dto !== undefined
    ? { pattern, takes: 'query', dto }
    : undefined;
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return (
    (length !== undefined && length !== '0') ||
    req.headers['transfer-encoding'] !== undefined ||
    req.headers.expect !== undefined
  );
}

/**
 * Writes a handler's result as the adapters do, and returns its JSON when it is one resource
 * (sent, or not for a 304); undefined, with nothing sent, for a result that is neither a
 * resource nor a list (the full pipeline answers).
 */
function answer(
  req: IncomingMessage,
  res: ServerResponse,
  pattern: string,
  result: unknown,
): string | Buffer | undefined {
  const payload = payloadOf(req, res, result, 200);
  if (payload === undefined) {
    return undefined;
  }
  answeredBy(req, pattern);
  res.statusCode = payload.status;
  if (payload.kind === 'stream') {
    res.setHeader('Content-Type', JSON_TYPE);
    if (payload.length !== undefined) {
      res.setHeader('Content-Length', payload.length);
    }
    // A connection that closes first ends the stream too (and frees what it holds).
    pipeline(payload.stream, res, () => undefined);
    return '';
  }
  if (payload.kind === 'empty') {
    res.end();
    return typeof res.getHeader('ETag') === 'string' ? JSON.stringify(result) : '';
  }
  const body = payload.body;
  res.setHeader('Content-Type', payload.type);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
  return body;
}
