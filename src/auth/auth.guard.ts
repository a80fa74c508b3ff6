/**
 * Reads are open; writes need an accepted bearer token (401 without one, 403 when refused).
 * A route may state its own rule with `@RequireAuth(...)`: token management needs the admin key.
 */
import type { IncomingMessage } from 'node:http';

import {
  applyDecorators,
  type CanActivate,
  type ExecutionContext,
  Inject,
  Injectable,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiBearerAuth } from '@nestjs/swagger';

import { type AppConfig, appConfig } from '../config/app.config.js';
import { SECURITY_SCHEMES } from '../common/openapi/security-schemes.js';
import { ForbiddenException, UnauthorizedException } from '../common/errors/api.exception.js';
import { AuthService } from './auth.service.js';
import type { PrincipalStatus } from './principal.js';

export type AuthRequirement = 'none' | 'token' | 'admin';

/** The metadata key of a route's own `@RequireAuth` rule. */
export const AUTH_REQUIREMENT = 'authRequirement';
const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const RequireAuth = (requirement: AuthRequirement) =>
  requirement === 'none'
    ? SetMetadata(AUTH_REQUIREMENT, requirement)
    : applyDecorators(SetMetadata(AUTH_REQUIREMENT, requirement), ApiBearerAuth(SECURITY_SCHEMES[requirement]));

@Injectable()
export class AuthGuard implements CanActivate {
  /** Each route's own `@RequireAuth` rule (or `null`), read once. */
  private readonly rules = new WeakMap<object, AuthRequirement | null>();

  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    @Inject(appConfig.KEY) private readonly config: AppConfig,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const req = context.switchToHttp().getRequest<IncomingMessage>();
    const requirement = this.ruleOf(context) ?? (READ_METHODS.has(req.method ?? '') ? 'none' : 'token');
    if (requirement === 'none') {
      return true;
    }
    return this.auth.principalOf(req).then(({ status }) => this.decide(requirement, status));
  }

  private decide(requirement: AuthRequirement, status: PrincipalStatus): boolean {
    if (status === 'anonymous') {
      throw new UnauthorizedException();
    }
    // Development accepts any non-empty token, for token management too.
    const development = this.config.authMode === 'development';
    const allowed =
      requirement === 'admin'
        ? status === 'admin' || development
        : status === 'accepted' || (status === 'admin' && development);
    if (!allowed) {
      throw new ForbiddenException(status === 'rejected' ? 'invalid_token' : 'insufficient_scope');
    }
    return true;
  }

  private ruleOf(context: ExecutionContext): AuthRequirement | null {
    const handler = context.getHandler();
    let rule = this.rules.get(handler);
    if (rule === undefined) {
      rule =
        this.reflector.getAllAndOverride<AuthRequirement | undefined>(AUTH_REQUIREMENT, [
          handler,
          context.getClass(),
        ]) ?? null;
      this.rules.set(handler, rule);
    }
    return rule;
  }
}
