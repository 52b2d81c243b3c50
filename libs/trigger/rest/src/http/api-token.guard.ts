import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { PairingOptions } from '../pairing/pairing.options';
import { ApiTokenCheck, recordApiCaller, scopedTokenRefusal, type ApiCaller, type ScopedApiToken } from './api-token';

/** DI token of the API's settings. */
export const GATEWAY_API_OPTIONS = Symbol('GATEWAY_API_OPTIONS');

export interface GatewayApiOptions {
  /** When set, every `/api` and `/tools` request needs `Authorization: Bearer <apiToken>`. */
  apiToken?: string;
  /**
   * Tokens that reach only the memory API (`/api/memory…`) of the scopes each names; every other
   * route answers them 403 `TOKEN_SCOPE_FORBIDDEN`. Needs `apiToken`.
   */
  scopedTokens?: ScopedApiToken[];
  /** Without `apiToken`, host names served besides loopback ones (`MOBILECLAW_ALLOWED_HOSTS`); others get 403 `HOST_NOT_ALLOWED`. */
  allowedHosts?: string[];
  /** What `GET /api/pairing` shows a new phone; undefined = that route answers 404. */
  pairing?: PairingOptions;
  /** How long a tool call over HTTP (`/api/tools/{name}/invoke`, `/tools/invoke`) may take, in ms; default 120,000. */
  toolDeadlineMs?: number;
}

/**
 * Bearer-token check for the REST controllers ({@link ApiTokenCheck}). Open when no token is
 * configured (the gateway then only binds loopback), except to requests that came through a proxy and
 * to a `Host` that is neither loopback nor allowed (DNS rebinding). The host also installs
 * {@link apiTokenMiddleware}, which applies the same check before the body is read; this guard keeps
 * the controllers closed in hosts that do not.
 * @throws MobileClawError `UNAUTHORIZED` (HTTP 401) on a missing or wrong token; with no token
 *   configured, `PROXIED_WITHOUT_API_TOKEN` (403) on a proxied request and `HOST_NOT_ALLOWED` (403)
 *   when `Host` is neither loopback nor allowed.
 */
@Injectable()
export class ApiTokenGuard implements CanActivate {
  private readonly check: ApiTokenCheck;

  constructor(@Inject(GATEWAY_API_OPTIONS) options: GatewayApiOptions) {
    this.check = new ApiTokenCheck(options.apiToken, options.allowedHosts, options.scopedTokens);
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    const caller = this.check.callerOf({ method: request.method, headers: request.headers, url: request.originalUrl ?? request.url });
    if (caller instanceof Error) throw caller;
    this.admit(caller);
    recordApiCaller(request, caller);
    return true;
  }

  /** Whether an authorized caller may reach these routes: here only the API token. @throws MobileClawError `TOKEN_SCOPE_FORBIDDEN` for a scoped token. */
  protected admit(caller: ApiCaller): void {
    if (caller.kind === 'scoped') throw scopedTokenRefusal(caller.name);
  }
}

/**
 * {@link ApiTokenGuard} for the routes a scoped token may reach (the memory API): it admits the API
 * token and every scoped token, and records which one called ({@link apiCallerOf}) so that the route
 * can keep a scoped caller to its scopes.
 * @throws MobileClawError as {@link ApiTokenGuard}, except that a scoped token is let through.
 */
@Injectable()
export class ScopedApiTokenGuard extends ApiTokenGuard {
  protected override admit(): void {}
}
