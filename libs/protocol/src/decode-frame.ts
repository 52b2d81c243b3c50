import { describeJsonValue, quoteText } from './describe-json-value';
import { parseJsonLine } from './parse-json-line';
import { DEVICE_ID_PATTERN, FRAME_TYPES, type Frame, type FrameType } from './frames';

/**
 * Outcome of {@link decodeFrame}: a typed frame, or why the line is not one — `PROTOCOL_ERROR` for a
 * line that breaks the framing rules, `VALIDATION_FAILED` for a well-formed `request` whose `params`
 * do not fit its (known) method.
 */
export type DecodeResult =
  | { ok: true; frame: Frame }
  | {
      ok: false;
      code: 'PROTOCOL_ERROR' | 'VALIDATION_FAILED';
      /** Human-readable reason, e.g. `frame has no "type"`. */
      reason: string;
      /** Set when the line names a request (so its caller can be failed at once). */
      requestId?: string;
      /**
       * Present (true) when the line is a `request` frame: its `requestId` is then the phone's own
       * (an answer may name it), not one the gateway sent.
       */
      request?: true;
    };

const MAX_ID_LENGTH = 256;

/**
 * Deepest nesting of arrays and objects a frame may have, the frame object itself being level 1.
 * `JSON.parse` takes any depth, but whatever later walks a frame recursively (`JSON.stringify` when
 * an event is forwarded or stored, a logger) overflows the stack at about 4,000 levels on Node's
 * default stack; 1,024 leaves room for a UI tree at its 500-level limit (2 JSON levels per node).
 */
export const MAX_FRAME_DEPTH = 1024;

/** True when `value` nests arrays/objects more than `limit` levels deep (`value` is level 1). Walks with an explicit stack. */
function nestedDeeperThan(value: object, limit: number): boolean {
  const stack: { item: object; depth: number }[] = [{ item: value, depth: 1 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (next.depth > limit) return true;
    for (const child of Object.values(next.item)) if (typeof child === 'object' && child !== null) stack.push({ item: child as object, depth: next.depth + 1 });
  }
  return false;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_LENGTH;
}

/** A `PROTOCOL_ERROR` result; `request`: the line is a phone's `request` frame. */
function fail(reason: string, requestId?: string, request = false): DecodeResult {
  const named = requestId === undefined ? {} : { requestId };
  return request ? { ok: false, code: 'PROTOCOL_ERROR', reason, ...named, request } : { ok: false, code: 'PROTOCOL_ERROR', reason, ...named };
}

type Check = (f: Record<string, unknown>) => string | null;

const optionalObject = (f: Record<string, unknown>, key: string): string | null =>
  f[key] === undefined || isObject(f[key]) ? null : `"${key}" must be an object`;

const optionalId = (f: Record<string, unknown>, key: string): boolean => f[key] === undefined || isId(f[key]);

const optionalNumber = (f: Record<string, unknown>, key: string): string | null =>
  f[key] === undefined || (typeof f[key] === 'number' && Number.isFinite(f[key])) ? null : `"${key}" must be a number`;

const CHECKS: Record<FrameType, Check> = {
  hello: (f) => {
    if (typeof f['protocolVersion'] !== 'number' || !Number.isInteger(f['protocolVersion'])) return '"protocolVersion" must be an integer';
    if (typeof f['deviceId'] !== 'string' || !DEVICE_ID_PATTERN.test(f['deviceId'])) return '"deviceId" must be 1-128 chars of [A-Za-z0-9._:-]';
    if (typeof f['token'] !== 'string') return '"token" must be a string';
    if (f['capabilities'] !== undefined && !(Array.isArray(f['capabilities']) && f['capabilities'].every((c) => typeof c === 'string')))
      return '"capabilities" must be an array of strings';
    const device = f['device'];
    if (device !== undefined) {
      if (!isObject(device)) return '"device" must be an object';
      const screen = device['screen'];
      if (screen !== undefined && !(isObject(screen) && typeof screen['width'] === 'number' && typeof screen['height'] === 'number'))
        return '"device.screen" must have numeric "width" and "height"';
    }
    return optionalObject(f, 'client');
  },
  welcome: (f) =>
    !isId(f['sessionId'])
      ? '"sessionId" must be a non-empty string'
      : typeof f['heartbeatIntervalMs'] !== 'number' || typeof f['maxFrameBytes'] !== 'number'
        ? '"heartbeatIntervalMs" and "maxFrameBytes" must be numbers'
        : null,
  error: (f) => (typeof f['code'] !== 'string' || f['code'] === '' ? '"code" must be a non-empty string' : null),
  action: (f) =>
    !isId(f['requestId'])
      ? '"requestId" must be a non-empty string'
      : typeof f['command'] !== 'string' || f['command'] === ''
        ? '"command" must be a non-empty string'
        : optionalNumber(f, 'timeoutMs'),
  cancel: (f) => (!isId(f['requestId']) ? '"requestId" must be a non-empty string' : null),
  response: (f) => {
    if (f['status'] === 'success') return optionalObject(f, 'data');
    if (f['status'] === 'error') {
      const error = f['error'];
      return isObject(error) && typeof error['code'] === 'string' && error['code'] !== '' ? null : '"error.code" must be a non-empty string';
    }
    return '"status" must be "success" or "error"';
  },
  ping: (f) => optionalNumber(f, 'ts'),
  pong: (f) => optionalNumber(f, 'ts'),
  event: (f) => (typeof f['event'] !== 'string' || f['event'] === '' ? '"event" must be a non-empty string' : optionalObject(f, 'data')),
  request: (f) => {
    if (!isId(f['requestId'])) return '"requestId" must be a non-empty string';
    if (typeof f['method'] !== 'string' || f['method'] === '') return '"method" must be a non-empty string';
    if (!isObject(f['params'])) return '"params" must be an object';
    const timeoutMs = f['timeoutMs'];
    return timeoutMs === undefined || (typeof timeoutMs === 'number' && Number.isFinite(timeoutMs) && timeoutMs > 0) ? null : '"timeoutMs" must be a positive number';
  },
  result: (f) => {
    if (!isId(f['requestId'])) return '"requestId" must be a non-empty string';
    if (f['ok'] === true) return isObject(f['result']) ? null : '"result" must be an object';
    if (f['ok'] !== false) return '"ok" must be true or false';
    const error = f['error'];
    if (!isObject(error) || typeof error['code'] !== 'string' || error['code'] === '') return '"error.code" must be a non-empty string';
    if (typeof error['message'] !== 'string') return '"error.message" must be a string';
    return error['retryable'] === undefined || typeof error['retryable'] === 'boolean' ? null : '"error.retryable" must be a boolean';
  },
};

/**
 * Checks of a `request`'s `params` by method: a problem is `VALIDATION_FAILED` (the frame itself is
 * well-formed). A method not listed here is decoded as is; the gateway answers it `METHOD_NOT_FOUND`.
 */
const PARAMS_CHECKS = new Map<string, Check>([
  ['tools.catalog', () => null],
  [
    'tools.invoke',
    (p) => {
      if (!isId(p['name'])) return '"params.name" must be a non-empty string';
      if (optionalObject(p, 'arguments') !== null) return '"params.arguments" must be an object';
      return optionalId(p, 'toolCallId') ? null : `"params.toolCallId" must be a non-empty string of at most ${MAX_ID_LENGTH} chars`;
    },
  ],
]);

const KNOWN_TYPES = new Set<string>(FRAME_TYPES);

/**
 * Decodes one line (without its `\n`) into a typed frame of wire protocol v1 (docs/protocol.md).
 * Never throws: malformed JSON, a non-object, a frame nested deeper than {@link MAX_FRAME_DEPTH}
 * levels, a missing or unknown `type`, or a frame whose fields have the wrong shape give
 * `{ok: false, code: 'PROTOCOL_ERROR'}`, with a `reason` of at most a few hundred characters (a bad
 * `type` is described by its kind, never serialised). A well-formed `request` of a known method
 * whose `params` do not fit it gives `{ok: false, code: 'VALIDATION_FAILED'}` with its `requestId`.
 * The shared test vectors in `docs/protocol-vectors.json` (every implementation) and
 * `docs/protocol-request-vectors.json` (phone requests) pin its behaviour.
 */
export function decodeFrame(line: Buffer | string): DecodeResult {
  let value: unknown;
  try {
    value = typeof line === 'string' ? JSON.parse(line) : parseJsonLine(line);
  } catch {
    return fail('malformed JSON');
  }
  if (!isObject(value)) return fail('frame is not a JSON object');
  const type = value['type'];
  const requestId = isId(value['requestId']) ? value['requestId'] : undefined;
  if (nestedDeeperThan(value, MAX_FRAME_DEPTH)) return fail(`frame is nested deeper than ${MAX_FRAME_DEPTH} levels`, requestId);
  if (type === undefined) return fail('frame has no "type"', requestId);
  if (typeof type !== 'string') return fail(`"type" must be a string, got ${describeJsonValue(type)}`, requestId);
  if (!KNOWN_TYPES.has(type)) return fail(`unknown frame type ${quoteText(type)}`, requestId);
  if (type === 'response' && requestId === undefined) return fail('"requestId" must be a non-empty string');
  const problem = CHECKS[type as FrameType](value);
  if (type === 'request') {
    if (problem !== null) return fail(`request: ${problem}`, requestId, true);
    const method = value['method'] as string;
    const invalid = PARAMS_CHECKS.get(method)?.(value['params'] as Record<string, unknown>) ?? null;
    if (invalid !== null) return { ok: false, code: 'VALIDATION_FAILED', reason: `${method}: ${invalid}`, requestId: requestId as string, request: true };
  }
  if (problem !== null) return fail(`${type}: ${problem}`, requestId);
  return { ok: true, frame: value as unknown as Frame };
}

/** Serialises a frame as one line: compact JSON + `\n`. */
export function encodeFrame(frame: Frame): string {
  return JSON.stringify(frame) + '\n';
}

/** After a top-level `"requestId"` key: `: "<string of 1-256 raw chars>"` (sticky, from the key's end). */
const REQUEST_ID_VALUE = /\s*:\s*"((?:[^"\\]|\\.){1,256})"/y;

/**
 * Finds the top-level `requestId` in the first bytes of a frame that was too large to decode (so
 * that its caller can get `PAYLOAD_TOO_LARGE` at once). A `"requestId"` key nested deeper (e.g. in
 * `data`) is ignored. Returns undefined when none is visible.
 */
export function peekRequestId(head: Buffer): string | undefined {
  const text = head.toString('utf8');
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      if (end >= text.length) return undefined;
      if (depth === 1 && end - i === 10 && text.startsWith('requestId', i + 1)) {
        REQUEST_ID_VALUE.lastIndex = end + 1;
        const match = REQUEST_ID_VALUE.exec(text);
        if (match) {
          try {
            return JSON.parse(`"${match[1]}"`) as string;
          } catch {
            return undefined;
          }
        }
      }
      i = end;
    } else if (c === '{' || c === '[') depth += 1;
    else if (c === '}' || c === ']') depth -= 1;
  }
  return undefined;
}
