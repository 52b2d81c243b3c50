import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { PairingOptions } from '../pairing/pairing.options';
import { ApiTokenCheck } from './api-token';

/** DI token of the API's settings. */
export const GATEWAY_API_OPTIONS = Symbol('GATEWAY_API_OPTIONS');

export interface GatewayApiOptions {
  /** When set, every `/api` and `/tools` request needs `Authorization: Bearer <apiToken>`. */
  apiToken?: string;
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
    this.check = new ApiTokenCheck(options.apiToken, options.allowedHosts);
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    const refusal = this.check.refusal({ method: request.method, headers: request.headers, url: request.originalUrl ?? request.url });
    if (refusal) throw refusal;
    return true;
  }
}
