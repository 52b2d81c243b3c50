import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { MobileClawError } from '@mobileclaw/domain';

/** Largest JSON request body, in bytes (1 MiB); a larger one answers 413 `PAYLOAD_TOO_LARGE`. */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/** Charset labels of UTF-8, lower-case; JSON exchanged between systems must be UTF-8 (RFC 8259 §8.1). */
const UTF8_LABELS = new Set(['utf-8', 'utf8']);

/** `charset` parameter of a Content-Type header (quotes removed), or undefined. */
function charsetOf(contentType: string): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  return match ? (match[1] ?? match[2]).trim() : undefined;
}

/**
 * Express middleware, installed before the JSON body parser: a JSON body (`application/json`)
 * declared in any charset but UTF-8 (labels `utf-8`, `utf8`, any case; none means UTF-8) is refused
 * before it is read, with `UNSUPPORTED_MEDIA_TYPE` (415). The `utf8` spelling is rewritten to
 * `utf-8`, the only one the parser knows.
 */
export function requireUtf8JsonBody(request: Request, _response: Response, next: NextFunction): void {
  const contentType = request.headers['content-type'];
  if (!contentType || !request.is('application/json')) return next();
  const charset = charsetOf(contentType);
  if (charset === undefined) return next();
  if (!UTF8_LABELS.has(charset.toLowerCase())) {
    return next(new MobileClawError('UNSUPPORTED_MEDIA_TYPE', `unsupported charset "${charset}": JSON bodies must be UTF-8`));
  }
  request.headers['content-type'] = contentType.replace(/;\s*charset\s*=\s*(?:"[^"]*"|[^;\s]*)/i, '; charset=utf-8');
  next();
}

/** Methods whose body a route reads. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Express middleware, installed before the JSON body parser: a request body in any media type but
 * `application/json` (also none, or curl's default `application/x-www-form-urlencoded`) is refused with
 * `UNSUPPORTED_MEDIA_TYPE` (415) saying what to send — the parser would leave it unread and the route
 * would answer that the body is missing. The body's bytes are read and dropped, so that a client still
 * sending it reads the answer. A request without a body (none declared, or `Content-Length: 0`) passes.
 */
export function requireJsonMediaType(request: Request, _response: Response, next: NextFunction): void {
  if (!BODY_METHODS.has(request.method) || !hasBody(request) || request.is('application/json')) return next();
  const contentType = request.headers['content-type'];
  request.resume();
  const given = contentType === undefined ? 'none' : JSON.stringify(contentType.slice(0, 100));
  next(new MobileClawError('UNSUPPORTED_MEDIA_TYPE', `request body must be JSON: send Content-Type: application/json (Content-Type: ${given})`));
}

/** Whether a request carries a body: chunked, or a `Content-Length` above 0. */
function hasBody(request: Request): boolean {
  if (request.headers['transfer-encoding'] !== undefined) return true;
  const declared = request.headers['content-length'];
  return declared !== undefined && declared !== '0';
}

/**
 * Express middleware, installed before the JSON body parser: a JSON body whose declared
 * `Content-Length` is over `limitBytes` is answered at once with `PAYLOAD_TOO_LARGE` (413), not stored:
 * what comes of the body is read and dropped, so that a client still sending it is not reset before it
 * reads the answer. The parser itself would answer only after the whole declared body — never, when a
 * client declares more than it sends.
 */
export function refuseOversizedJsonBody(limitBytes: number = JSON_BODY_LIMIT_BYTES): (request: Request, response: Response, next: NextFunction) => void {
  return (request, response, next) => {
    const declared = request.headers['content-length'];
    if (declared === undefined || !/^\d+$/.test(declared) || !request.is('application/json')) return next();
    const bytes = Number(declared);
    if (bytes <= limitBytes) return next();
    request.resume();
    next(new MobileClawError('PAYLOAD_TOO_LARGE', `request body of ${bytes} bytes is over the limit of ${limitBytes} bytes`));
  };
}

/**
 * The JSON body parser's `verify` hook: it sees the raw bytes before they are decoded, and refuses
 * bytes that are not well-formed UTF-8 (the decoder would silently turn them into U+FFFD).
 * @throws MobileClawError `VALIDATION_FAILED` (400) "request body is not valid UTF-8".
 */
export function verifyUtf8Body(_request: IncomingMessage, _response: unknown, body: Buffer): void {
  if (!isUtf8(body)) throw new MobileClawError('VALIDATION_FAILED', 'request body is not valid UTF-8');
}
