import { chmodSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningGateway } from '@mobileclaw/gateway';
import { rawHttpExchange } from '@mobileclaw/transport-ws/testing';
import { SseClient } from '../support/sse-client';
import { gatewayUrl, testGateways, waitOnline } from '../support/test-gateways';

const streams: SseClient[] = [];
// Registered first so that streams close before their gateways do.
afterEach(() => {
  for (const s of streams.splice(0)) s.close();
});
const gateways = testGateways('mobileclaw-rest-edges-');
const url = gatewayUrl;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON that tests index freely
type Json = any;

const TOKEN = 'api-token-0123456789';
const BEARER = { authorization: `Bearer ${TOKEN}` };

interface Answer {
  status: number;
  text: string;
  body: Json;
  headers: Headers;
}

async function send(gw: RunningGateway, method: string, path: string, init: { headers?: Record<string, string>; body?: string | Uint8Array } = {}): Promise<Answer> {
  const res = await fetch(url(gw, path), { method, headers: init.headers, body: init.body });
  const text = await res.text();
  let body: Json;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, text, body, headers: res.headers };
}

const json = (extra: Record<string, string> = {}) => ({ 'content-type': 'application/json', ...extra });
const mode = (path: string) => statSync(path).mode & 0o777;

describe('the API token is checked before the request body is read', () => {
  const malformed = { headers: json(), body: '{"deviceId":' };
  const huge = { headers: json(), body: `{"goal":"${'x'.repeat(3 * 1024 * 1024)}"}` };
  const utf16 = { headers: { 'content-type': 'application/json; charset=utf-16le' }, body: new Uint8Array(Buffer.from('{"deviceId":"sim-1","goal":"go home"}', 'utf16le')) };

  it('answers 401 with WWW-Authenticate to unauthenticated bodies that would fail to parse (malformed, 3 MB, UTF-16)', async () => {
    const gw = await gateways.start({ MOBILECLAW_API_TOKEN: TOKEN, MOBILECLAW_SIM: 'off' });
    for (const request of [malformed, huge, utf16]) {
      const answer = await send(gw, 'POST', '/api/tasks', request);
      expect({ status: answer.status, code: answer.body?.code, auth: answer.headers.get('www-authenticate'), type: answer.headers.get('content-type') }).toEqual({
        status: 401,
        code: 'UNAUTHORIZED',
        auth: 'Bearer',
        type: expect.stringMatching(/^application\/problem\+json/),
      });
    }
    const wrong = await send(gw, 'POST', '/api/tasks', { headers: json({ authorization: 'Bearer not-the-token' }), body: '{"deviceId":' });
    expect(wrong.status).toBe(401);
  });

  it('still answers authorized requests with the body errors: 400, 413, 415', async () => {
    const gw = await gateways.start({ MOBILECLAW_API_TOKEN: TOKEN, MOBILECLAW_SIM: 'off' });
    const statuses: [number, string][] = [];
    for (const request of [malformed, huge, utf16]) {
      const answer = await send(gw, 'POST', '/api/tasks', { ...request, headers: { ...request.headers, ...BEARER } });
      statuses.push([answer.status, answer.body.code]);
    }
    expect(statuses).toEqual([
      [400, 'VALIDATION_FAILED'],
      [413, 'PAYLOAD_TOO_LARGE'],
      [415, 'UNSUPPORTED_MEDIA_TYPE'],
    ]);
  });

  it('answers 413 at once to a body declared over the limit, without waiting for bytes that never come', async () => {
    const gw = await gateways.start({ MOBILECLAW_API_TOKEN: TOKEN, MOBILECLAW_SIM: 'off' });
    // 5 MB declared, 2 bytes sent: the answer must not wait for the rest (the parser would, for ever).
    const [answer] = await rawHttpExchange(gw.httpPort, [
      `POST /api/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\n\r\n{}`,
    ]);
    expect({ status: answer.status, code: JSON.parse(answer.body).code, detail: JSON.parse(answer.body).detail }).toEqual({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      detail: 'request body of 5000000 bytes is over the limit of 1048576 bytes',
    });
    // Unauthenticated, the token is still checked first.
    const [anonymous] = await rawHttpExchange(gw.httpPort, ['POST /api/tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\n\r\n{}']);
    expect(anonymous.status).toBe(401);
  });

  it('keeps the API description public and the web page open', async () => {
    const gw = await gateways.start({ MOBILECLAW_API_TOKEN: TOKEN, MOBILECLAW_SIM: 'off' });
    expect((await send(gw, 'GET', '/api/openapi.json')).status).toBe(200);
    expect((await send(gw, 'GET', '/api/docs')).status).toBe(200);
    expect((await send(gw, 'GET', '/')).status).toBe(200);
    // Express routes case-insensitively: the check does too.
    expect((await send(gw, 'GET', '/API/devices')).status).toBe(401);
    expect((await send(gw, 'GET', '/api/devices', { headers: BEARER })).status).toBe(200);
  });
});

describe('credentials are never echoed', () => {
  it('says "invalid API token" for a wrong ?access_token= and leaves it out of `instance`', async () => {
    const gw = await gateways.start({ MOBILECLAW_API_TOKEN: TOKEN, MOBILECLAW_SIM: 'off' });
    const wrong = await send(gw, 'GET', '/api/tasks?limit=5&access_token=wrong-secret-value&status=queued');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 'UNAUTHORIZED', detail: 'invalid API token', instance: '/api/tasks?limit=5&status=queued' });
    expect(wrong.text).not.toContain('wrong-secret-value');
    const missing = await send(gw, 'GET', '/api/tasks');
    expect(missing.body.detail).toBe('missing "Authorization: Bearer <token>" header');

    const unknown = await send(gw, 'GET', `/api/nothing-here?access_token=${TOKEN}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.instance).toBe('/api/nothing-here');
    expect(unknown.text).not.toContain(TOKEN);
    const invalid = await send(gw, 'GET', `/api/tasks?limit=0&access_token=${TOKEN}`);
    expect(invalid.body).toMatchObject({ code: 'VALIDATION_FAILED', instance: '/api/tasks?limit=0' });
  });
});

describe('the data directory is private', () => {
  async function runTask(gw: RunningGateway): Promise<string> {
    await waitOnline(gw, 'sim-1');
    const accepted = await send(gw, 'POST', '/api/tasks', { headers: json(), body: JSON.stringify({ deviceId: 'sim-1', goal: 'Turn on Wi-Fi' }) });
    expect(accepted.status).toBe(202);
    const stream = await SseClient.open(url(gw, `/api/tasks/${accepted.body.taskId}/events`));
    streams.push(stream);
    await stream.ended;
    return accepted.body.taskId as string;
  }

  it('creates the directory 0700 and the database, its WAL files, screenshots and the device token 0600', async () => {
    const dir = join(gateways.dataDir(), 'nested', 'data');
    const gw = await gateways.start({ MOBILECLAW_DATA_DIR: dir });
    const taskId = await runTask(gw);
    const shots = join(dir, 'screenshots', taskId);
    const files = readdirSync(shots);
    expect(files.length).toBeGreaterThan(0);
    expect({
      dir: mode(dir),
      db: mode(join(dir, 'mobileclaw.db')),
      wal: mode(join(dir, 'mobileclaw.db-wal')),
      shm: mode(join(dir, 'mobileclaw.db-shm')),
      token: mode(join(dir, 'device-token')),
      screenshots: mode(join(dir, 'screenshots')),
      task: mode(shots),
      files: files.map((f) => mode(join(shots, f))),
    }).toEqual({ dir: 0o700, db: 0o600, wal: 0o600, shm: 0o600, token: 0o600, screenshots: 0o700, task: 0o700, files: files.map(() => 0o600) });
  });

  it('tightens an existing world-readable data directory at start', async () => {
    const dir = gateways.dataDir();
    chmodSync(dir, 0o755);
    mkdirSync(join(dir, 'screenshots'), { mode: 0o755 });
    chmodSync(join(dir, 'screenshots'), 0o755);
    await gateways.start({ MOBILECLAW_DATA_DIR: dir, MOBILECLAW_SIM: 'off' });
    expect({ dir: mode(dir), screenshots: mode(join(dir, 'screenshots')), db: mode(join(dir, 'mobileclaw.db')) }).toEqual({ dir: 0o700, screenshots: 0o700, db: 0o600 });
  });
});

describe('REST edge cases', () => {
  it('accepts only UTF-8 JSON bodies: other charsets 415, invalid bytes 400', async () => {
    const gw = await gateways.start();
    await waitOnline(gw, 'sim-1');
    const home = '{"command":"home"}';
    const path = '/api/devices/sim-1/commands';
    for (const charset of ['utf-8', 'UTF-8', 'utf8', 'UTF8', '"utf-8"']) {
      expect([charset, (await send(gw, 'POST', path, { headers: { 'content-type': `application/json; charset=${charset}` }, body: home })).status]).toEqual([charset, 200]);
    }
    for (const charset of ['utf-16le', 'utf-16', 'UTF-32', 'latin1', 'us-ascii']) {
      const body = charset.startsWith('utf-16') ? new Uint8Array(Buffer.from(home, 'utf16le')) : home;
      const answer = await send(gw, 'POST', path, { headers: { 'content-type': `application/json; charset=${charset}` }, body });
      expect([charset, answer.status, answer.body.code]).toEqual([charset, 415, 'UNSUPPORTED_MEDIA_TYPE']);
    }
    const invalid = await send(gw, 'POST', path, { headers: json(), body: new Uint8Array([...Buffer.from('{"command":"home","x":"'), 0xff, 0xfe, ...Buffer.from('"}')]) });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ code: 'VALIDATION_FAILED', detail: 'request body is not valid UTF-8' });
  });

  it('refuses a body in another media type 415, saying to send application/json, and takes a request without a body', async () => {
    const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
    const body = '{"deviceId":"sim-1","goal":"Open Settings"}';
    for (const [contentType, shown] of [
      ['text/plain', '"text/plain"'],
      ['application/x-www-form-urlencoded', '"application/x-www-form-urlencoded"'],
      [undefined, 'none'],
    ] as const) {
      const answer = await send(gw, 'POST', '/api/tasks', { headers: contentType === undefined ? {} : { 'content-type': contentType }, body: new TextEncoder().encode(body) });
      expect([contentType, answer.status, answer.body.code, answer.body.detail]).toEqual([
        contentType,
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        `request body must be JSON: send Content-Type: application/json (Content-Type: ${shown})`,
      ]);
    }
    // No body at all: the route answers (here: the body's fields are missing).
    const empty = await send(gw, 'POST', '/api/tasks');
    expect([empty.status, empty.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    const memory = await send(gw, 'POST', '/api/memory/flush', { headers: { 'content-type': 'text/plain' }, body: 'scope=device:sim-1' });
    expect([memory.status, memory.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
  });

  it('says a `null` (or other non-object) JSON body must be a JSON object', async () => {
    const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
    for (const body of ['null', '42', '"text"', 'true']) {
      const answer = await send(gw, 'POST', '/api/tasks', { headers: json(), body });
      expect([body, answer.status, answer.body.detail, answer.body.errors]).toEqual([body, 400, 'request body must be a JSON object', [{ field: '', message: 'must be a JSON object' }]]);
    }
  });

  it('reports one goal length limit, the task layer\'s 2000 characters', async () => {
    const gw = await gateways.start();
    await waitOnline(gw, 'sim-1');
    for (const length of [2001, 20_000]) {
      const answer = await send(gw, 'POST', '/api/tasks', { headers: json(), body: JSON.stringify({ deviceId: 'sim-1', goal: 'x'.repeat(length) }) });
      expect(answer.body.errors).toEqual([{ field: 'goal', message: `goal must be at most 2000 characters (it has ${length})` }]);
    }
    const doc = (await send(gw, 'GET', '/api/openapi.json')).body;
    expect(doc.components.schemas.CreateTask.properties.goal).toMatchObject({ minLength: 1, maxLength: 2000 });
  });

  it('answers a known route with the wrong method 405 METHOD_NOT_ALLOWED with an Allow header', async () => {
    const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
    const cases: [string, string, string][] = [
      ['DELETE', '/api/tasks', 'GET, HEAD, POST'],
      ['GET', '/api/tasks/some-task/cancel', 'POST'],
      ['PUT', '/api/devices/sim-1/commands', 'POST'],
      ['POST', '/api/health', 'GET, HEAD'],
      ['PATCH', '/API/Tasks/', 'GET, HEAD, POST'],
    ];
    for (const [method, path, allow] of cases) {
      const answer = await send(gw, method, path);
      expect([method, path, answer.status, answer.headers.get('allow'), answer.body]).toEqual([
        method,
        path,
        405,
        allow,
        { type: 'urn:mobileclaw:error:METHOD_NOT_ALLOWED', title: 'Method not allowed', status: 405, detail: `${method} is not allowed on ${path}; allowed: ${allow}`, instance: path, code: 'METHOD_NOT_ALLOWED' },
      ]);
    }
    expect((await send(gw, 'GET', '/api/nothing-here')).status).toBe(404);
  });

  it('answers 400 to every step index that is not a non-negative integer, 404 to an absent one', async () => {
    const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
    for (const index of ['-1', '1e3', '1.5', '0x10', '+1', ' 1', 'x', '99999999999999999999']) {
      const answer = await send(gw, 'GET', `/api/tasks/nope/steps/${encodeURIComponent(index)}/screenshot`);
      expect([index, answer.status, answer.body.code]).toEqual([index, 400, 'VALIDATION_FAILED']);
    }
    for (const index of ['0', '7', '1000']) {
      const answer = await send(gw, 'GET', `/api/tasks/nope/steps/${index}/screenshot`);
      expect([index, answer.status, answer.body.code]).toEqual([index, 404, 'TASK_NOT_FOUND']);
    }
  });
});
