import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { OPENAPI_JSON_PATH, OPENAPI_UI_PATH } from '../openapi/openapi';
import { ApiTokenCheck, withoutAccessToken } from './api-token';
import type { GatewayApiOptions } from './api-token.guard';
import { sendProblem, toProblem } from './problem-details.filter';

/**
 * True for the paths {@link apiTokenMiddleware} guards: `/api` and everything under it, except the
 * public API description (`/api/openapi.json`, Swagger UI at `/api/docs` and its assets), and `/tools`
 * and everything under it (the OpenClaw-compatible `POST /tools/invoke`). Compared
 * case-insensitively, as Express routes.
 */
export function isGuardedApiPath(path: string): boolean {
  const p = path.toLowerCase();
  if (p === '/tools' || p.startsWith('/tools/')) return true;
  if (p !== '/api' && !p.startsWith('/api/')) return false;
  const docs = OPENAPI_UI_PATH.toLowerCase();
  return p !== OPENAPI_JSON_PATH.toLowerCase() && p !== docs && !p.startsWith(`${docs}/`);
}

/**
 * True for the paths a scoped API token may reach: `/api/memory` and everything under it (compared
 * case-insensitively, as Express routes). The memory routes keep such a caller to its scopes.
 */
export function isScopedTokenPath(path: string): boolean {
  const p = path.toLowerCase();
  return p === '/api/memory' || p.startsWith('/api/memory/');
}

/**
 * Express middleware applying {@link ApiTokenCheck} to every guarded `/api` and `/tools` path
 * ({@link isGuardedApiPath}). Install it before the body parser: an unauthenticated request is
 * answered 401 (problem details, `WWW-Authenticate: Bearer`) without its body being parsed, so a
 * stranger cannot make the server decode or buffer up to the body limit. With no token configured it
 * refuses only what the local-only rules refuse (403 `PROXIED_WITHOUT_API_TOKEN`: a request that came
 * through a proxy; 403 `HOST_NOT_ALLOWED`: a `Host` that is neither loopback nor in `allowedHosts`,
 * against DNS rebinding). A scoped token ({@link GatewayApiOptions.scopedTokens}) passes on the memory
 * paths ({@link isScopedTokenPath}) and is answered 403 `TOKEN_SCOPE_FORBIDDEN` on every other one.
 */
export function apiTokenMiddleware(options: GatewayApiOptions): RequestHandler {
  const check = new ApiTokenCheck(options.apiToken, options.allowedHosts, options.scopedTokens);
  return (request: Request, response: Response, next: NextFunction) => {
    if (!isGuardedApiPath(request.path)) return next();
    const asked = { method: request.method, headers: request.headers, url: request.originalUrl };
    const caller = isScopedTokenPath(request.path) ? check.callerOf(asked) : check.refusal(asked);
    const refusal = caller instanceof Error ? caller : undefined;
    if (!refusal) return next();
    sendProblem(response, toProblem(refusal, withoutAccessToken(request.originalUrl)));
  };
}
