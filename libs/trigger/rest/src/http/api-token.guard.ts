import { createHash, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { MobileClawError } from '@mobileclaw/domain';

/** DI token of the API's settings. */
export const GATEWAY_API_OPTIONS = Symbol('GATEWAY_API_OPTIONS');

export interface GatewayApiOptions {
  /** When set, every `/api` request needs `Authorization: Bearer <apiToken>`. */
  apiToken?: string;
}

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * Bearer-token check for the REST API, compared in constant time. Open when no token is configured
 * (the gateway then only binds loopback).
 * @throws MobileClawError `UNAUTHORIZED` (HTTP 401) on a missing or wrong token.
 */
@Injectable()
export class ApiTokenGuard implements CanActivate {
  private readonly expected: Buffer | undefined;

  constructor(@Inject(GATEWAY_API_OPTIONS) options: GatewayApiOptions) {
    this.expected = options.apiToken ? digest(options.apiToken) : undefined;
  }

  canActivate(context: ExecutionContext): boolean {
    if (this.expected === undefined) return true;
    const request = context.switchToHttp().getRequest<Request>();
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(header);
    if (match && timingSafeEqual(digest(match[1].trim()), this.expected)) return true;
    // EventSource and <img> cannot send headers: GETs may carry the token as `?access_token=` (RFC 6750 §2.3).
    const query = request.method === 'GET' ? request.query['access_token'] : undefined;
    if (!match && typeof query === 'string' && query && timingSafeEqual(digest(query), this.expected)) return true;
    throw new MobileClawError('UNAUTHORIZED', match ? 'invalid API token' : 'missing "Authorization: Bearer <token>" header');
  }
}
