import { Catch, HttpException, HttpStatus, Inject, Logger, NotFoundException, Optional, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ERROR_CATALOG, MobileClawError, isErrorCode, type DeviceController, type ErrorCode, type FieldError } from '@mobileclaw/domain';
import { withoutAccessToken } from './api-token';
import { REST_ROUTE_METHODS, type RouteMethods } from './route-methods';

/**
 * HTTP status of every catalog code (README, "Errors"); the one REST-specific table beside the
 * domain's catalog, which gives the titles.
 */
export const HTTP_STATUS_BY_CODE: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  UNAUTHORIZED: 401,
  PROXIED_WITHOUT_API_TOKEN: 403,
  HOST_NOT_ALLOWED: 403,
  TOKEN_SCOPE_FORBIDDEN: 403,
  DEVICE_NOT_FOUND: 404,
  TASK_NOT_FOUND: 404,
  TOOL_NOT_FOUND: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  TASK_STATE_CONFLICT: 409,
  IDEMPOTENCY_KEY_IN_PROGRESS: 409,
  IDEMPOTENCY_KEY_REUSED: 422,
  DEVICE_BUSY: 409,
  STALE_FRAME: 409,
  DEVICE_AMBIGUOUS: 409,
  DEVICE_CONTROLLED: 409,
  CONTROL_NOT_HELD: 409,
  TOOL_CALL_NOT_PENDING: 409,
  NOT_SUPPORTED: 501,
  APPROVAL_REQUIRED: 403,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  ABORTED: 499,
  INTERNAL_ERROR: 500,
  DEVICE_ERROR: 502,
  PROTOCOL_ERROR: 502,
  UNSUPPORTED_VERSION: 502,
  DEVICE_DISCONNECTED: 503,
  DEVICE_REPLACED: 503,
  SHUTTING_DOWN: 503,
  STORAGE_ERROR: 503,
  TOOL_UNAVAILABLE: 503,
  TOOL_FAILED: 502,
  TOOL_BAD_RESPONSE: 502,
  SKILL_EXISTS: 409,
  SKILL_INVALID: 422,
  MEMORY_NOT_FOUND: 404,
  TIMEOUT: 504,
  TOOL_RESULT_TIMEOUT: 504,
  // Task outcomes end a task (`task.error`) and answer no request today. Were a route to fail with
  // one: a human refused (403), the task was canceled (409), the goal is out of reach (422), the
  // planner's upstream failed (502), the gateway stopped (503).
  APPROVAL_DENIED: 403,
  CANCELED: 409,
  GOAL_FAILED: 422,
  MAX_STEPS: 422,
  NO_EFFECT: 422,
  PLANNER_ERROR: 502,
  INTERRUPTED: 503,
  // Phone requests (wire protocol v1) answer no HTTP request today; were a route to fail with one.
  METHOD_NOT_FOUND: 404,
  TOO_MANY_REQUESTS: 429,
};

/** RFC 9457 problem details, extended with MobileClaw's stable `code`. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  /** Stable machine-readable code, e.g. `DEVICE_BUSY`. */
  code: string;
  deviceId?: string;
  requestId?: string;
  /** The phone's own code, for `DEVICE_ERROR`. */
  deviceCode?: string;
  /** Field errors, for `VALIDATION_FAILED`. */
  errors?: FieldError[];
  /** Who holds the phone, for `DEVICE_CONTROLLED`. */
  controller?: DeviceController;
}

/**
 * Codes for HTTP errors raised by the framework itself (unknown route, unparsable JSON, …);
 * `HTTP_<status>` (title `Error`) for a client-error status the catalog has no code for.
 */
function codeForHttpStatus(status: number): ErrorCode | `HTTP_${number}` {
  if (status === 400) return 'VALIDATION_FAILED';
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 404) return 'NOT_FOUND';
  if (status === 405) return 'METHOD_NOT_ALLOWED';
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 415) return 'UNSUPPORTED_MEDIA_TYPE';
  return status >= 500 ? 'INTERNAL_ERROR' : `HTTP_${status}`;
}

/** Builds the problem body for any thrown value. */
export function toProblem(exception: unknown, instance: string): ProblemDetails {
  if (exception instanceof MobileClawError) {
    // A code outside the catalog can only come from untyped code; it still gets an answer.
    const known = isErrorCode(exception.code);
    const status = known ? HTTP_STATUS_BY_CODE[exception.code] : 500;
    return {
      type: `urn:mobileclaw:error:${exception.code}`,
      title: known ? ERROR_CATALOG[exception.code].title : exception.code,
      status,
      detail: exception.message,
      instance,
      code: exception.code,
      ...(exception.deviceId !== undefined && { deviceId: exception.deviceId }),
      ...(exception.requestId !== undefined && { requestId: exception.requestId }),
      ...(exception.deviceCode !== undefined && { deviceCode: exception.deviceCode }),
      ...(exception.fieldErrors !== undefined && { errors: exception.fieldErrors }),
      ...(exception.controller !== undefined && { controller: exception.controller }),
    };
  }
  let status: number = HttpStatus.INTERNAL_SERVER_ERROR;
  let detail = 'internal error';
  if (exception instanceof HttpException) {
    status = exception.getStatus();
    const response = exception.getResponse();
    const message = typeof response === 'object' && response !== null ? (response as { message?: unknown }).message : response;
    detail = Array.isArray(message) ? message.join('; ') : String(message ?? exception.message);
  } else if (isHttpError(exception)) {
    // body-parser errors (malformed JSON, body over the limit) carry their own status.
    status = exception.status;
    detail = exception.type === 'entity.parse.failed' ? `request body is not valid JSON: ${exception.message}` : exception.message;
  }
  const code = codeForHttpStatus(status);
  return { type: `urn:mobileclaw:error:${code}`, title: isErrorCode(code) ? ERROR_CATALOG[code].title : 'Error', status, detail, instance, code };
}

function isHttpError(value: unknown): value is { status: number; message: string; type?: string } {
  return typeof value === 'object' && value !== null && typeof (value as { status?: unknown }).status === 'number' && (value as { status: number }).status >= 400 && (value as { status: number }).status < 600;
}

/**
 * Answers `problem` (status, `application/problem+json`); a 401 also gets `WWW-Authenticate: Bearer`
 * and a 405 the `Allow` header `allow` (e.g. `GET, HEAD`).
 */
export function sendProblem(response: Response, problem: ProblemDetails, allow?: string): void {
  if (problem.status === 401) response.setHeader('WWW-Authenticate', 'Bearer');
  if (allow !== undefined) response.setHeader('Allow', allow);
  response.status(problem.status).type('application/problem+json').send(JSON.stringify(problem));
}

/**
 * Turns every error into one documented JSON body: RFC 9457 problem details
 * (`application/problem+json`) with a stable `code`. `instance` is the request's path and query
 * without `access_token` (credentials are never echoed). A path no route matches but that exists
 * under other methods (from the injected {@link RouteMethods}) answers 405 `METHOD_NOT_ALLOWED` with
 * `Allow` instead of 404.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('HTTP');

  constructor(@Optional() @Inject(REST_ROUTE_METHODS) private readonly routes?: RouteMethods) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const url = request.originalUrl ?? request.url;
    const instance = withoutAccessToken(url);
    // The router's "no route" answer is a NotFoundException; when the path has routes, none for this method, it is a 405.
    const allowed = exception instanceof NotFoundException ? (this.routes?.allowed(request.path) ?? []) : [];
    const wrongMethod = allowed.length > 0 && !allowed.includes(request.method);
    const problem =
      wrongMethod
        ? toProblem(new MobileClawError('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${request.path}; allowed: ${allowed.join(', ')}`), instance)
        : toProblem(exception, instance);
    // Framework messages quote the URL ("Cannot GET /api/x?access_token=…"): quote it without the token.
    if (url !== instance) problem.detail = problem.detail.split(url).join(instance);
    if (problem.status >= 500 && !(exception instanceof MobileClawError)) this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    if (response.headersSent) {
      response.end();
      return;
    }
    sendProblem(response, problem, wrongMethod ? allowed.join(', ') : undefined);
  }
}
