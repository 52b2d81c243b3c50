import { MobileClawClient } from './client';
import type { InvocationEvent } from './events';
import { GatewayApi, type GatewayApiOptions, type TaskEventRecord } from './gateway-api';

/** How the SDK bounds what a hostile or broken gateway can make it hold in memory. */

const KIB = 1024;
const encoder = new TextEncoder();

/** A body that yields `first`, then `filler` chunks for ever; counts the chunks pulled and whether it was canceled. */
function endlessBody(first: string, filler: string): { body: ReadableStream<Uint8Array>; pulled: () => number; canceled: () => boolean } {
  let pulls = 0;
  let wasCanceled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(encoder.encode(pulls++ === 0 ? first : filler));
    },
    cancel() {
      wasCanceled = true;
    },
  }, { highWaterMark: 0 });
  return { body, pulled: () => pulls, canceled: () => wasCanceled };
}

/** A body of the given chunks, then its end. */
function bodyOf(chunks: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

function apiWith(fetch: typeof globalThis.fetch, overrides: Partial<GatewayApiOptions> = {}): GatewayApi {
  return new GatewayApi({ baseUrl: 'http://gateway.test', fetch, requestTimeoutMs: 10_000, streamIdleTimeoutMs: 10_000, maxResponseBytes: 64 * KIB, maxStreamEventBytes: 64 * KIB, ...overrides });
}

async function records(stream: AsyncIterable<TaskEventRecord>): Promise<TaskEventRecord[]> {
  const seen: TaskEventRecord[] = [];
  for await (const record of stream) seen.push(record);
  return seen;
}

const sse = (id: number, data: string): string => `id: ${id}\nevent: step.started\ndata: ${JSON.stringify({ taskId: 'task-1', id, type: 'step.started', at: '1970-01-01T00:00:00.000Z', data: { note: data } })}\n\n`;

describe('GatewayApi size bounds', () => {
  it('stops reading a JSON answer past maxResponseBytes (BAD_RESPONSE, retryable) and cancels its body', async () => {
    const endless = endlessBody('{"taskId": "task-1", "summary": "', 'x'.repeat(16 * KIB));
    const api = apiWith(async () => new Response(endless.body, { status: 200, headers: { 'content-type': 'application/json' } }));
    const error = await api.getTask('task-1').catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'MobileClawClientError', code: 'BAD_RESPONSE', status: 200, retryable: true, message: `GET /api/tasks/task-1 answered 200 with a body larger than ${64 * KIB} bytes; it was not read` });
    expect(endless.pulled()).toBeLessThanOrEqual(6);
    expect(endless.canceled()).toBe(true);
  });

  it('refuses an answer whose Content-Length is past the bound without reading it', async () => {
    const endless = endlessBody('{', 'x');
    const api = apiWith(async () => new Response(endless.body, { status: 200, headers: { 'content-type': 'application/json', 'content-length': String(300 * 1024 * 1024) } }));
    await expect(api.getTask('task-1')).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
    expect(endless.pulled()).toBe(0);
  });

  it('bounds a problem answer too: an endless error body is an unreadable problem (BAD_RESPONSE)', async () => {
    const endless = endlessBody('{"code": "VALIDATION_FAILED", "detail": "', 'x'.repeat(16 * KIB));
    const api = apiWith(async () => new Response(endless.body, { status: 400, headers: { 'content-type': 'application/problem+json' } }));
    await expect(api.getTask('task-1')).rejects.toMatchObject({ code: 'BAD_RESPONSE', status: 400 });
    expect(endless.pulled()).toBeLessThanOrEqual(6);
  });

  it('reads an answer up to the bound', async () => {
    const task = { taskId: 'task-1', status: 'running', stepCount: 0, summary: 's'.repeat(60 * KIB) };
    const api = apiWith(async () => new Response(bodyOf([JSON.stringify(task)]), { status: 200 }));
    await expect(api.getTask('task-1')).resolves.toEqual(task);
  });

  it('closes an event stream whose one event grows past maxStreamEventBytes (BAD_RESPONSE, retryable)', async () => {
    const endless = endlessBody(`${sse(1, 'fine')}id: 2\nevent: step.started\ndata: {"note": "`, 'x'.repeat(16 * KIB));
    const api = apiWith(async () => new Response(endless.body, { status: 200, headers: { 'content-type': 'text/event-stream' } }));
    const seen: TaskEventRecord[] = [];
    const error = await (async () => {
      for await (const record of await api.openEvents('task-1', 0)) seen.push(record);
    })().catch((caught: unknown) => caught);
    expect(seen.map((record) => record.id)).toEqual([1]);
    expect(error).toMatchObject({ code: 'BAD_RESPONSE', retryable: true, message: `an event of the stream is larger than ${64 * KIB} bytes; the stream was closed` });
    expect(endless.pulled()).toBeLessThanOrEqual(6);
    expect(endless.canceled()).toBe(true);
  });

  it('takes a stream of many events larger together than the bound, in one chunk or many', async () => {
    const events = Array.from({ length: 40 }, (_, index) => sse(index + 1, 'n'.repeat(3 * KIB)));
    for (const chunks of [[events.join('')], events, events.join('').match(/[^]{1,1000}/g)!]) {
      const api = apiWith(async () => new Response(bodyOf(chunks), { status: 200 }), { maxStreamEventBytes: 8 * KIB });
      expect((await records(await api.openEvents('task-1', 0))).map((record) => record.id)).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
    }
  });
});

describe('MobileClawClient over a gateway sending an endless event', () => {
  it('treats the stream as broken: bounded recovery, then progress_uncertain', async () => {
    let streams = 0;
    const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const url = String(input);
      if (url.endsWith('/api/tasks') && init?.method === 'POST') return Response.json({ taskId: 'task-1', status: 'running' }, { status: 202 });
      if (url.endsWith('/api/tasks/task-1/events')) {
        streams += 1;
        return new Response(endlessBody('id: 1\nevent: task.accepted\ndata: ', 'x'.repeat(16 * KIB)).body, { status: 200 });
      }
      if (url.endsWith('/api/tasks/task-1')) return Response.json({ taskId: 'task-1', status: 'running', stepCount: 0 });
      return Response.json({ code: 'TASK_NOT_FOUND', detail: url }, { status: 404 });
    };
    const client = new MobileClawClient({ baseUrl: 'http://gateway.test', store: 'memory', fetch: fetch as typeof globalThis.fetch, streamRecovery: { delaysMs: [1, 2] }, maxStreamEventBytes: 64 * KIB });
    const events: InvocationEvent[] = [];
    for await (const event of client.invoke({ mode: 'STREAMING', goal: 'Turn on Wi-Fi', deviceId: 'sim-1' })) events.push(event);
    expect(events.map((event) => event.type)).toEqual(['progress_uncertain']);
    expect(events[0]).toMatchObject({ hint: 'QUERY_LATER_DO_NOT_REINVOKE', cause: `an event of the stream is larger than ${64 * KIB} bytes; the stream was closed` });
    expect(streams).toBe(3);
  });
});
