import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Params } from 'nestjs-pino';
import pinoPretty from 'pino-pretty';
import { withoutAccessToken } from '@mobileclaw/trigger-rest';
import { taskLogFields } from './task-log-context';

/** pino-http's options (`Params['pinoHttp']` also admits a destination stream, or both in a pair). */
export type HttpLoggingOptions = Exclude<NonNullable<Params['pinoHttp']>, unknown[] | { write: unknown }>;

/** pino-http's serialized request (pino-std-serializers), as a custom serializer receives it. */
interface SerializedRequest {
  url?: string;
  [key: string]: unknown;
}

/** The header a request id comes in and goes out with. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** An incoming request id the gateway adopts: 1–128 visible ASCII characters (no space, no control character). */
const ACCEPTED_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/**
 * Where no credential or typed text may appear in a log line, whatever logs it (pino `redact`, value
 * `[Redacted]`): the `Authorization`, `Proxy-Authorization`, `Cookie` and `X-Api-Key` request headers,
 * the `access_token` query parameter, and — at the top of a logged object or one level down — fields
 * named like a secret (`token`, `deviceToken`, `apiToken`, `apiKey`, `password`) or like typed text
 * (`text`: an `input` command's text may be a password).
 */
export const REDACTED_LOG_PATHS: readonly string[] = [
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.query.access_token',
  ...['token', 'deviceToken', 'apiToken', 'apiKey', 'password', 'text'].flatMap((field) => [field, `*.${field}`]),
];

/**
 * The request id of an HTTP request: its `X-Request-Id` when it sent an acceptable one (1–128 visible
 * ASCII characters), else a new UUID. The answer carries it back in `X-Request-Id` (set before any
 * handler runs; a handler may replace it — the screenshot route names its command's request id there).
 */
export function requestIdOf(request: IncomingMessage, response: ServerResponse): string {
  const sent = request.headers['x-request-id'];
  const id = typeof sent === 'string' && ACCEPTED_REQUEST_ID.test(sent) ? sent : randomUUID();
  response.setHeader(REQUEST_ID_HEADER, id);
  return id;
}

/**
 * pino-http settings of the gateway: lines at `logLevel`, no per-request line; every line logged while
 * an HTTP request is handled carries it as `req` (with its id, `req.id`, see {@link requestIdOf}),
 * every line logged on behalf of a task carries `taskId` and `deviceId` ({@link taskLogFields}); no
 * credential and no typed text in any line ({@link REDACTED_LOG_PATHS}), and the request URL loses its
 * `access_token` parameter.
 */
export function httpLoggingOptions(logLevel: string): HttpLoggingOptions {
  return {
    level: logLevel,
    autoLogging: false,
    genReqId: requestIdOf,
    redact: [...REDACTED_LOG_PATHS],
    mixin: () => taskLogFields(),
    serializers: {
      req: (req: SerializedRequest) => {
        if (typeof req.url === 'string') req.url = withoutAccessToken(req.url);
        return req;
      },
    },
    base: { service: 'mobileclaw-gateway' },
  };
}

/**
 * nestjs-pino's `pinoHttp` parameter for the gateway: {@link httpLoggingOptions}, written as JSON lines
 * to stdout, or with `format: 'pretty'` through pino-pretty (synchronously, coloured when `colorize`).
 */
export function gatewayLogging(logLevel: string, format: 'json' | 'pretty', colorize = process.stdout.isTTY === true): NonNullable<Params['pinoHttp']> {
  const options = httpLoggingOptions(logLevel);
  if (format === 'json') return options;
  // One line per entry: the Nest context leads the message; other fields (req, taskId…) follow indented.
  return [options, pinoPretty({ colorize, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname,service,context', messageFormat: '{if context}[{context}] {end}{msg}' })];
}
