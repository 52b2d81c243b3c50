import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { decodeFrame, encodeFrame, MAX_FRAME_DEPTH, peekRequestId } from './decode-frame';
import { FRAME_TYPES, type Frame } from './frames';
import { LineFrameDecoder } from './line-frame-decoder';

interface Vector {
  name: string;
  line: string;
  expect: { ok: true; type: string } | { ok: false; code: 'PROTOCOL_ERROR' | 'VALIDATION_FAILED'; requestId?: string };
}

interface VectorFile {
  version: number;
  description: string;
  vectors: Vector[];
}

const readVectors = (name: string): VectorFile => JSON.parse(readFileSync(resolve(__dirname, '../../../docs', name), 'utf8')) as VectorFile;
/** Every implementation's vectors (the Android app runs them too). */
const file = readVectors('protocol-vectors.json');
/** The phone requests' vectors (`request`, `result`), for implementations that send requests. */
const requestFile = readVectors('protocol-request-vectors.json');
const vectors = [...file.vectors, ...requestFile.vectors];
const valid = vectors.filter((v) => v.expect.ok);

describe('docs/protocol-vectors.json and docs/protocol-request-vectors.json', () => {
  it('are version 1 with at least 40 uniquely named vectors each, of the documented shape', () => {
    for (const { version, description, vectors: own } of [file, requestFile]) {
      expect(version).toBe(1);
      expect(description.length).toBeGreaterThan(0);
      expect(own.length).toBeGreaterThanOrEqual(40);
    }
    expect(new Set(vectors.map((v) => v.name)).size).toBe(vectors.length);
    for (const v of vectors) {
      expect(typeof v.line).toBe('string');
      expect(v.line).not.toContain('\n');
      const keys = Object.keys(v.expect).sort();
      if (v.expect.ok) expect(keys).toEqual(['ok', 'type']);
      else expect(keys).toEqual(v.expect.requestId === undefined ? ['code', 'ok'] : ['code', 'ok', 'requestId']);
    }
  });

  it('have a valid vector for every frame type and invalid vectors with and without requestId', () => {
    const types = new Set(valid.map((v) => (v.expect as { type: string }).type));
    expect([...types].sort()).toEqual([...FRAME_TYPES].sort());
    // The file every implementation runs holds the frames every implementation knows; requests and results live apart.
    const commonTypes = new Set(file.vectors.filter((v) => v.expect.ok).map((v) => (v.expect as { type: string }).type));
    expect([...commonTypes].sort()).toEqual(FRAME_TYPES.filter((t) => t !== 'request' && t !== 'result').sort());
    expect(file.vectors.every((v) => v.expect.ok || v.expect.code === 'PROTOCOL_ERROR')).toBe(true);
    expect(requestFile.vectors.some((v) => !v.expect.ok && v.expect.code === 'VALIDATION_FAILED')).toBe(true);
    const invalid = vectors.filter((v) => !v.expect.ok);
    expect(invalid.some((v) => !v.expect.ok && v.expect.requestId !== undefined)).toBe(true);
    expect(invalid.some((v) => !v.expect.ok && v.expect.requestId === undefined)).toBe(true);
  });
});

describe('decodeFrame', () => {
  it.each(vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    for (const input of [v.line, Buffer.from(v.line, 'utf8')]) {
      const result = decodeFrame(input);
      if (v.expect.ok) {
        if (!result.ok) throw new Error(`expected a "${v.expect.type}" frame, got: ${result.reason}`);
        expect(result.frame.type).toBe(v.expect.type);
        expect(result.frame).toEqual(JSON.parse(v.line));
      } else {
        expect(result.ok).toBe(false);
        if (result.ok) return;
        expect(result.code).toBe(v.expect.code);
        expect(result.requestId).toBe(v.expect.requestId);
        expect(result.reason.length).toBeGreaterThan(0);
      }
    }
  });

  it('never throws on arbitrary prefixes of valid frames', () => {
    for (const v of valid) {
      for (let end = 0; end < v.line.length; end += 7) {
        const result = decodeFrame(v.line.slice(0, end));
        expect(typeof result.ok).toBe('boolean');
      }
    }
  });

  it('keeps unicode text exactly (CJK, emoji with ZWJ, RTL, quotes, backslashes)', () => {
    const text = '你好 👩‍👩‍👧 🇯🇵 مرحبا שלום "q" \\ 100%';
    const result = decodeFrame(Buffer.from(JSON.stringify({ type: 'action', requestId: 'r1', command: 'input', text }), 'utf8'));
    expect(result.ok && result.frame.type === 'action' && result.frame['text']).toBe(text);
  });

  it('reports the reason of a failure', () => {
    expect(decodeFrame('{"type":"ping"')).toMatchObject({ ok: false, reason: 'malformed JSON' });
    expect(decodeFrame('[]')).toMatchObject({ ok: false, reason: 'frame is not a JSON object' });
    expect(decodeFrame('{}')).toMatchObject({ ok: false, reason: 'frame has no "type"' });
    expect(decodeFrame('{"type":"reply","requestId":"r1"}')).toMatchObject({ ok: false, reason: 'unknown frame type "reply"', requestId: 'r1' });
    expect(decodeFrame('{"type":"action","requestId":"r1"}')).toMatchObject({ ok: false, reason: 'action: "command" must be a non-empty string', requestId: 'r1' });
  });

  it('names what is wrong with a request or a result', () => {
    const reasonOf = (frame: object) => {
      const result = decodeFrame(JSON.stringify(frame));
      return result.ok ? 'decoded' : `${result.code} ${result.reason}`;
    };
    const request = { type: 'request', requestId: 'r1', method: 'tools.invoke', params: { name: 'weather' } };
    expect(reasonOf({ ...request, requestId: '' })).toBe('PROTOCOL_ERROR request: "requestId" must be a non-empty string');
    expect(reasonOf({ ...request, method: '' })).toBe('PROTOCOL_ERROR request: "method" must be a non-empty string');
    expect(reasonOf({ ...request, params: 'x' })).toBe('PROTOCOL_ERROR request: "params" must be an object');
    expect(reasonOf({ ...request, timeoutMs: 'x' })).toBe('PROTOCOL_ERROR request: "timeoutMs" must be a positive number');
    expect(reasonOf({ ...request, timeoutMs: 1 })).toBe('decoded');
    expect(reasonOf({ ...request, params: {} })).toBe('VALIDATION_FAILED tools.invoke: "params.name" must be a non-empty string');
    expect(reasonOf({ ...request, params: { name: 'n'.repeat(257) } })).toBe('VALIDATION_FAILED tools.invoke: "params.name" must be a non-empty string');
    expect(reasonOf({ ...request, params: { name: 'n'.repeat(256) } })).toBe('decoded');
    expect(reasonOf({ ...request, params: { name: 'weather', arguments: [] } })).toBe('VALIDATION_FAILED tools.invoke: "params.arguments" must be an object');
    expect(reasonOf({ ...request, params: { name: 'weather', toolCallId: '' } })).toBe('VALIDATION_FAILED tools.invoke: "params.toolCallId" must be a non-empty string of at most 256 chars');
    expect(reasonOf({ ...request, params: { name: 'weather', toolCallId: 't'.repeat(256) } })).toBe('decoded');
    expect(reasonOf({ ...request, method: 'tools.catalog', params: { anything: [1] } })).toBe('decoded');
    expect(reasonOf({ ...request, method: 'toString', params: {} })).toBe('decoded');
    const result = { type: 'result', requestId: 'r1', ok: false, error: { code: 'TIMEOUT', message: 'slow' } };
    expect(reasonOf({ ...result, requestId: 5 })).toBe('PROTOCOL_ERROR result: "requestId" must be a non-empty string');
    expect(reasonOf({ ...result, ok: 1 })).toBe('PROTOCOL_ERROR result: "ok" must be true or false');
    expect(reasonOf({ ...result, ok: true })).toBe('PROTOCOL_ERROR result: "result" must be an object');
    expect(reasonOf({ ...result, error: { code: 'TIMEOUT' } })).toBe('PROTOCOL_ERROR result: "error.message" must be a string');
    expect(reasonOf({ ...result, error: 'TIMEOUT' })).toBe('PROTOCOL_ERROR result: "error.code" must be a non-empty string');
    expect(reasonOf({ ...result, error: { code: 'TIMEOUT', message: '', retryable: 0 } })).toBe('PROTOCOL_ERROR result: "error.retryable" must be a boolean');
    expect(reasonOf({ ...result, error: { code: 'TIMEOUT', message: '', retryable: true } })).toBe('decoded');
  });

  it('marks a failed request frame as the phone\'s own request, naming its request id when valid', () => {
    expect(decodeFrame('{"type":"request","requestId":"r7","method":"tools.invoke","params":{"name":1}}')).toEqual({
      ok: false,
      code: 'VALIDATION_FAILED',
      reason: 'tools.invoke: "params.name" must be a non-empty string',
      requestId: 'r7',
      request: true,
    });
    expect(decodeFrame('{"type":"request","method":"tools.invoke","params":{}}')).toEqual({ ok: false, code: 'PROTOCOL_ERROR', reason: 'request: "requestId" must be a non-empty string', request: true });
    expect(decodeFrame('{"type":"response","requestId":"r7","status":"ok"}')).toStrictEqual({ ok: false, code: 'PROTOCOL_ERROR', reason: 'response: "status" must be "success" or "error"', requestId: 'r7' });
  });
});

describe('encodeFrame', () => {
  it.each(valid.map((v) => [v.name, v] as const))('round-trips %s', (_name, v) => {
    const decoded = decodeFrame(v.line);
    if (!decoded.ok) throw new Error(decoded.reason);
    const line = encodeFrame(decoded.frame);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.indexOf('\n')).toBe(line.length - 1);
    const again = decodeFrame(line.slice(0, -1));
    expect(again).toEqual({ ok: true, frame: decoded.frame });
  });

  it('writes compact JSON, one line, escaping newlines inside strings', () => {
    const frame: Frame = { type: 'action', requestId: 'r1', command: 'input', text: 'a\nb\r\n"c" 世界 👋' };
    const line = encodeFrame(frame);
    expect(line).toBe('{"type":"action","requestId":"r1","command":"input","text":"a\\nb\\r\\n\\"c\\" 世界 👋"}\n');
    expect(line.split('\n')).toHaveLength(2);
  });

  it('goes through LineFrameDecoder and decodeFrame unchanged', () => {
    const frames: Frame[] = [
      { type: 'ping', ts: 1767225600000 },
      { type: 'response', requestId: 'r1', status: 'success', data: { text: '世界 👋 "x"\n' } },
      { type: 'event', event: 'screen', data: { width: 2400, height: 1080, rotation: 1 } },
    ];
    const out: Frame[] = [];
    const decoder = new LineFrameDecoder({
      maxFrameBytes: 1024,
      onFrame: (line) => {
        const result = decodeFrame(line);
        if (result.ok) out.push(result.frame);
      },
      onOversized: () => undefined,
    });
    const bytes = Buffer.from(frames.map(encodeFrame).join(''), 'utf8');
    for (let i = 0; i < bytes.length; i += 1) decoder.push(bytes.subarray(i, i + 1));
    expect(out).toEqual(frames);
  });
});

describe('peekRequestId', () => {
  const head = (text: string) => Buffer.from(text, 'utf8');

  it('finds the requestId at the start of a frame', () => {
    expect(peekRequestId(head('{"type":"response","requestId":"a1b2c3d4-1","status":"success","data":{"base64":"iVBOR'))).toBe('a1b2c3d4-1');
  });

  it('matches the exact key "requestId" only', () => {
    expect(peekRequestId(head('{"requestIdX":"a","xrequestId":"b","requestI":"c","requestId":"d"}'))).toBe('d');
    expect(peekRequestId(head('{"requestIdX":"a","xrequestId":"b","requestI":"c"}'))).toBeUndefined();
    expect(peekRequestId(head('{"requestid":"a"}'))).toBeUndefined();
  });

  it('skips escaped quotes and backslashes inside keys and values when scanning', () => {
    expect(peekRequestId(head('{"k":"a\\"requestId\\":\\"x","requestId":"y"}'))).toBe('y');
    expect(peekRequestId(head('{"k":"a\\\\","requestId":"y"}'))).toBe('y');
    expect(peekRequestId(head('{"requestId\\"":"x","requestId":"z"}'))).toBe('z');
  });

  it('is back at the top level after a nested object or array closes', () => {
    expect(peekRequestId(head('{"data":{"list":[1,{"x":2}]},"requestId":"top"}'))).toBe('top');
    expect(peekRequestId(head('[{"requestId":"in-array"}]'))).toBeUndefined();
  });

  it('skips a requestId whose value is not a string and keeps looking', () => {
    expect(peekRequestId(head('{"requestId":7,"data":{}'))).toBeUndefined();
    expect(peekRequestId(head('{"requestId":"bad\\q"}'))).toBeUndefined();
  });

  it('gives up at a requestId string it cannot unescape, rather than trust a later duplicate key', () => {
    expect(peekRequestId(head('{"requestId":"bad\\q","requestId":"r2"}'))).toBeUndefined();
    expect(peekRequestId(head('{"requestId":7,"requestId":"r2"}'))).toBe('r2');
  });

  it('allows whitespace around the colon', () => {
    expect(peekRequestId(head('{ "type" : "response" , "requestId" :\t"r-7" , "data": {'))).toBe('r-7');
  });

  it('unescapes escaped quotes, backslashes and \\u escapes', () => {
    expect(peekRequestId(head('{"type":"response","requestId":"a\\"b\\\\c","data":{'))).toBe('a"b\\c');
    expect(peekRequestId(head('{"type":"response","requestId":"\\u4e16-\\ud83d\\udc4b","data":{'))).toBe('世-👋');
    expect(peekRequestId(head('{"type":"response","requestId":"世界-👋","data":{'))).toBe('世界-👋');
  });

  it('returns undefined when there is no requestId', () => {
    expect(peekRequestId(head('{"type":"event","event":"log","data":{"text":"xxxxxxxx'))).toBeUndefined();
    expect(peekRequestId(head(''))).toBeUndefined();
    expect(peekRequestId(head('garbage without any json'))).toBeUndefined();
  });

  it('returns undefined when the requestId lies beyond the head', () => {
    const frame = JSON.stringify({ type: 'response', status: 'success', data: { base64: 'A'.repeat(10_000) }, requestId: 'late-1' });
    expect(peekRequestId(Buffer.from(frame, 'utf8').subarray(0, 4096))).toBeUndefined();
    expect(peekRequestId(Buffer.from(frame, 'utf8'))).toBe('late-1');
  });

  it('returns undefined when the head ends inside the requestId', () => {
    expect(peekRequestId(head('{"type":"response","requestId":"a1b2c3'))).toBeUndefined();
    expect(peekRequestId(head('{"type":"response","requestId":"a1b2\\'))).toBeUndefined();
    expect(peekRequestId(head('{"type":"response","requestId":'))).toBeUndefined();
  });

  it('ignores a "requestId" key nested below the top level', () => {
    expect(peekRequestId(head('{"type":"response","status":"success","data":{"requestId":"other","x":[{"requestId":"deep"}]},"requestId":"top"}'))).toBe('top');
    expect(peekRequestId(head('{"type":"response","status":"success","data":{"requestId":"other","base64":"AAAA'))).toBeUndefined();
  });

  it('is not fooled by "requestId" or braces inside string values', () => {
    expect(peekRequestId(head('{"type":"event","event":"requestId","data":{"t":"\\"requestId\\":\\"fake\\" }}{"},"requestId":"r9"}'))).toBe('r9');
    expect(peekRequestId(head('{"type":"response","text":"} {\\"requestId\\":\\"fake\\"","status":"s'))).toBeUndefined();
  });

  it('returns undefined for a non-string or empty requestId', () => {
    expect(peekRequestId(head('{"type":"response","requestId":17,"status":"success"}'))).toBeUndefined();
    expect(peekRequestId(head('{"type":"response","requestId":"","status":"success"}'))).toBeUndefined();
  });

  it('accepts ids up to 256 chars and skips longer ones', () => {
    expect(peekRequestId(head(`{"requestId":"${'r'.repeat(256)}","data":{`))).toBe('r'.repeat(256));
    expect(peekRequestId(head(`{"requestId":"${'r'.repeat(257)}","data":{`))).toBeUndefined();
  });

  it('copes with a head cut inside a multi-byte character', () => {
    const bytes = Buffer.from('{"type":"response","requestId":"r1","data":{"text":"世', 'utf8');
    expect(peekRequestId(bytes.subarray(0, bytes.length - 1))).toBe('r1');
  });

  it('finds the id in the head LineFrameDecoder reports for an oversized reply', () => {
    const seen: (string | undefined)[] = [];
    const decoder = new LineFrameDecoder({ maxFrameBytes: 1024, headBytes: 64, onFrame: () => undefined, onOversized: (h) => seen.push(peekRequestId(h)) });
    const reply = JSON.stringify({ type: 'response', requestId: 'big-1', status: 'success', data: { base64: 'A'.repeat(5000) } });
    decoder.push(Buffer.from(reply + '\n', 'utf8'));
    expect(seen).toEqual(['big-1']);
  });
});

describe('decodeFrame names what is wrong with a malformed frame', () => {
  const hello = { type: 'hello', protocolVersion: 1, deviceId: 'p-1', token: 't' };
  const cases: [string, Record<string, unknown>, string][] = [
    ['hello with a fractional version', { ...hello, protocolVersion: 1.5 }, 'hello: "protocolVersion" must be an integer'],
    ['hello with an id of forbidden characters', { ...hello, deviceId: 'a b' }, 'hello: "deviceId" must be 1-128 chars of [A-Za-z0-9._:-]'],
    ['hello with a numeric token', { ...hello, token: 7 }, 'hello: "token" must be a string'],
    ['hello with a non-string capability', { ...hello, capabilities: ['click', 3] }, 'hello: "capabilities" must be an array of strings'],
    ['hello with a device that is not an object', { ...hello, device: 'pixel' }, 'hello: "device" must be an object'],
    ['hello with a screen lacking its height', { ...hello, device: { screen: { width: 1080 } } }, 'hello: "device.screen" must have numeric "width" and "height"'],
    ['hello with a client that is not an object', { ...hello, client: 'app' }, 'hello: "client" must be an object'],
    ['welcome without a session id', { type: 'welcome', heartbeatIntervalMs: 1, maxFrameBytes: 1 }, 'welcome: "sessionId" must be a non-empty string'],
    ['welcome with a textual interval', { type: 'welcome', sessionId: 's', heartbeatIntervalMs: '15000', maxFrameBytes: 1 }, 'welcome: "heartbeatIntervalMs" and "maxFrameBytes" must be numbers'],
    ['error with an empty code', { type: 'error', code: '' }, 'error: "code" must be a non-empty string'],
    ['action without a request id', { type: 'action', command: 'home' }, 'action: "requestId" must be a non-empty string'],
    ['action with a textual timeout', { type: 'action', requestId: 'r', command: 'home', timeoutMs: '5' }, 'action: "timeoutMs" must be a number'],
    ['cancel with an empty request id', { type: 'cancel', requestId: '' }, 'cancel: "requestId" must be a non-empty string'],
    ['error response without a code', { type: 'response', requestId: 'r', status: 'error', error: {} }, 'response: "error.code" must be a non-empty string'],
    ['event with an empty name', { type: 'event', event: '' }, 'event: "event" must be a non-empty string'],
    ['event with data that is a list', { type: 'event', event: 'screen', data: [1] }, 'event: "data" must be an object'],
  ];
  it.each(cases)('%s', (_name, frame, reason) => {
    const decoded = decodeFrame(JSON.stringify(frame));
    expect(decoded).toMatchObject({ ok: false, code: 'PROTOCOL_ERROR', reason });
  });

  it('carries the request id only when the frame names one', () => {
    const without = decodeFrame(JSON.stringify({ type: 'cancel' }));
    expect(Object.keys(without).sort()).toEqual(['code', 'ok', 'reason']);
    const named = decodeFrame(JSON.stringify({ type: 'response', requestId: 'r-9', status: 'maybe' }));
    expect(named).toStrictEqual({ ok: false, code: 'PROTOCOL_ERROR', reason: 'response: "status" must be "success" or "error"', requestId: 'r-9' });
  });

  it('quotes at most 64 characters of an unknown frame type', () => {
    expect(decodeFrame(JSON.stringify({ type: 'x'.repeat(200) }))).toMatchObject({ ok: false, reason: `unknown frame type "${'x'.repeat(64)}…"` });
    expect(decodeFrame(JSON.stringify({ type: 'y'.repeat(64) }))).toMatchObject({ ok: false, reason: `unknown frame type "${'y'.repeat(64)}"` });
  });

  it.each([
    ['an array', '[1,2]'],
    ['an object', '{"a":1}'],
    ['a number', '7'],
    ['a boolean', 'false'],
    ['null', 'null'],
  ])('describes a "type" that is not a string by its kind (%s), never by its content', (kind, json) => {
    expect(decodeFrame(`{"type":${json},"requestId":"r1"}`)).toStrictEqual({ ok: false, code: 'PROTOCOL_ERROR', reason: `"type" must be a string, got ${kind}`, requestId: 'r1' });
  });

  it('refuses a "type" nested thousands of levels deep without overflowing the stack, in a short reason', () => {
    // JSON.stringify of this value throws RangeError (Maximum call stack size exceeded).
    const depth = 30_000;
    const line = `{"type":${'['.repeat(depth)}${']'.repeat(depth)},"requestId":"r-deep"}`;
    expect(decodeFrame(line)).toStrictEqual({ ok: false, code: 'PROTOCOL_ERROR', reason: `frame is nested deeper than ${MAX_FRAME_DEPTH} levels`, requestId: 'r-deep' });
    expect(decodeFrame(Buffer.from(line))).toMatchObject({ ok: false, reason: `frame is nested deeper than ${MAX_FRAME_DEPTH} levels` });
  });

  /** A success response nested `levels` levels deep: the frame is level 1, `data` level 2, then `levels - 2` arrays or objects. */
  const nestedResponse = (levels: number, kind: 'arrays' | 'objects'): string => {
    let value: unknown = 1;
    for (let i = 0; i < levels - 2; i += 1) value = kind === 'arrays' ? [value] : { k: value };
    return JSON.stringify({ type: 'response', requestId: 'r1', status: 'success', data: { v: value } });
  };

  it.each(['arrays', 'objects'] as const)('accepts a frame nested exactly MAX_FRAME_DEPTH levels deep and refuses one level more (%s)', (kind) => {
    expect(MAX_FRAME_DEPTH).toBe(1024);
    expect(decodeFrame(nestedResponse(1024, kind))).toMatchObject({ ok: true });
    expect(decodeFrame(nestedResponse(1025, kind))).toStrictEqual({ ok: false, code: 'PROTOCOL_ERROR', reason: 'frame is nested deeper than 1024 levels', requestId: 'r1' });
  });

  it('walks past strings, numbers, booleans and nulls at any level', () => {
    const frame = { type: 'event', event: 'e', data: { a: 'text', b: 1, c: true, d: null, e: [null, 'x', 2, { f: null }] } };
    expect(decodeFrame(JSON.stringify(frame))).toStrictEqual({ ok: true, frame });
  });
});
