/**
 * What every answer carries, set before routing in one pass: `X-Request-Id`, the security
 * headers (helmet's, worked out once at start-up) and CORS when it is configured. Then, once
 * the rate-limit headers are set too, the answers given before routing: 400 to an HTTP/1.1
 * request without `Host`, 417 to an `Expect` other than `100-continue`, and `OPTIONS` on any
 * path the API serves (204 with `Allow`, without auth).
 */
import type { ServerResponse } from 'node:http';

import { Inject, Injectable } from '@nestjs/common';
import helmet from 'helmet';

import { type AppConfig, appConfig } from '../../config/app.config.js';
import { Messages } from '../errors/messages.js';
import { sendError } from './answers.js';
import { corsHandler } from './cors.js';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id.js';
import type { RequestHook } from './request-hooks.js';
import { RouteTable } from './route-table.js';

/** Where the docs page lives: it gets a looser policy, as it loads its own scripts, styles and images. */
export const DOCS_PREFIX = '/docs';

/** Nothing may be loaded or framed from the API's answers. */
const API_POLICY = { defaultSrc: ["'none'"], frameAncestors: ["'none'"] };
const DOCS_POLICY = {
  defaultSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:'],
  connectSrc: ["'self'"],
  frameAncestors: ["'none'"],
};

/**
 * helmet's headers with the given content security policy, read by running helmet once
 * against a recording response: they are the same for every answer.
 */
function securityHeaders(directives: Record<string, string[]>): [string, string][] {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  const middleware = helmet({ contentSecurityPolicy: { useDefaults: false, directives } });
  let done = false;
  middleware({ headers: {} } as never, recorder as never, () => (done = true));
  if (!done) {
    throw new Error('helmet did not finish synchronously');
  }
  return headers;
}

@Injectable()
export class HttpFront {
  private readonly apiHeaders = securityHeaders(API_POLICY);
  private readonly docsHeaders = securityHeaders(DOCS_POLICY);
  private readonly cors: ReturnType<typeof corsHandler>;

  constructor(
    @Inject(appConfig.KEY) config: AppConfig,
    private readonly routes: RouteTable,
  ) {
    this.cors = corsHandler(config);
  }

  /** The headers of every answer. */
  readonly hook: RequestHook = (req, res) => {
    res.setHeader(REQUEST_ID_HEADER, requestIdOf(req));
    const url = req.url ?? '/';
    for (const [name, value] of url.startsWith(DOCS_PREFIX) ? this.docsHeaders : this.apiHeaders) {
      res.setHeader(name, value);
    }
    if (this.cors !== undefined) {
      // The cors middleware finishes synchronously: it either calls `next` or has answered.
      let passed = false;
      this.cors(req, res, () => (passed = true));
      if (!passed) {
        return true;
      }
    }
    return false;
  };

  /** The requests answered before routing, in the contract's shape. */
  readonly answers: RequestHook = (req, res) => {
    // Node's own checks would answer these with an empty body (see app.setup.ts).
    if (req.httpVersionMajor === 1 && req.httpVersionMinor === 1) {
      if (req.headers.host === undefined) {
        sendError(req, res, 400, Messages.malformedRequest());
        return true;
      }
      const expect = req.headers.expect;
      if (expect !== undefined && !CONTINUE.test(expect)) {
        sendError(req, res, 417, Messages.expectationFailed());
        return true;
      }
    }
    return req.method === 'OPTIONS' && this.answerOptions(res, req.url ?? '/');
  };

  private answerOptions(res: ServerResponse, url: string): boolean {
    const allowed = this.routes.allowedMethods(url.split('?', 1)[0]);
    if (allowed === undefined) {
      return false;
    }
    res.statusCode = 204;
    res.setHeader('Allow', allowed.join(', '));
    res.end();
    return true;
  }
}

/** An `Expect` asking for `100 Continue`, as Node's HTTP server recognises it. */
export const CONTINUE = /(?:^|\W)100-continue(?:$|\W)/i;
