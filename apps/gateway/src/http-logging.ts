import type { Params } from 'nestjs-pino';
import { withoutAccessToken } from '@mobileclaw/trigger-rest';

/** pino-http's options (`Params['pinoHttp']` also admits a destination stream, or both in a pair). */
export type HttpLoggingOptions = Exclude<NonNullable<Params['pinoHttp']>, unknown[] | { write: unknown }>;

/** pino-http's serialized request (pino-std-serializers), as a custom serializer receives it. */
interface SerializedRequest {
  url?: string;
  [key: string]: unknown;
}

/**
 * pino-http settings of the gateway: JSON lines at `logLevel`, no per-request line, and no
 * credential in any line — the `Authorization` header and the `access_token` query parameter are
 * redacted, and the request URL every line carries loses its `access_token` parameter.
 */
export function httpLoggingOptions(logLevel: string): HttpLoggingOptions {
  return {
    level: logLevel,
    autoLogging: false,
    redact: ['req.headers.authorization', 'req.query.access_token'],
    serializers: {
      req: (req: SerializedRequest) => {
        if (typeof req.url === 'string') req.url = withoutAccessToken(req.url);
        return req;
      },
    },
    base: { service: 'mobileclaw-gateway' },
  };
}
