import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { RunningGateway } from '@mobileclaw/gateway';
import { ClientFactory, Role, TaskState, type Client, type Message, type StreamResponse } from '../support/a2a-sdk-client';
import { gatewayUrl, testGateways, waitOnline } from '../support/test-gateways';

const gateways = testGateways('mobileclaw-a2a-');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON that tests index freely
type Json = any;

async function start(extra: Record<string, string> = {}): Promise<RunningGateway> {
  const gw = await gateways.start(extra);
  await waitOnline(gw, 'sim-1');
  return gw;
}

async function client(gw: RunningGateway): Promise<Client> {
  return new ClientFactory().createFromUrl(gatewayUrl(gw, ''));
}

function userMessage(text: string, extra: Partial<Message> = {}, data?: Record<string, unknown>): Message {
  const parts = [{ content: { $case: 'text' as const, value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }];
  if (data) parts.push({ content: { $case: 'data', value: data } as never, metadata: undefined, filename: '', mediaType: 'application/json' });
  return { messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER, parts, metadata: undefined, extensions: [], referenceTaskIds: [], ...extra };
}

function send(message: Message, returnImmediately = false) {
  return { tenant: '', message, configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately }, metadata: undefined };
}

function stateOf(event: StreamResponse): number | undefined {
  const payload = event.payload;
  if (payload?.$case === 'task') return payload.value.status?.state;
  if (payload?.$case === 'statusUpdate') return payload.value.status?.state;
  return undefined;
}

async function rpc(gw: RunningGateway, body: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; json: Json }> {
  const res = await fetch(gatewayUrl(gw, '/a2a'), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const text = await res.text();
  return { status: res.status, text, json: text ? JSON.parse(text) : undefined };
}

describe('A2A face (real gateway, simulated phone, @a2a-js/sdk client)', () => {
  it('serves the agent card with the JSON-RPC endpoint on the request\'s host, or on MOBILECLAW_PUBLIC_URL', async () => {
    const gw = await start();
    const card: Json = await (await fetch(gatewayUrl(gw, '/.well-known/agent-card.json'))).json();
    expect(card).toMatchObject({
      name: 'MobileClaw',
      capabilities: { streaming: true, pushNotifications: true },
      supportedInterfaces: [
        { url: gatewayUrl(gw, '/a2a'), protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: gatewayUrl(gw, '/a2a'), protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      ],
      skills: [expect.objectContaining({ id: 'operate-phone', name: 'Operate a phone by goal' })],
    });
    const configured = await start({ MOBILECLAW_PUBLIC_URL: 'https://gw.example.org/' });
    const named: Json = await (await fetch(gatewayUrl(configured, '/.well-known/agent-card.json'))).json();
    expect(named.supportedInterfaces[0].url).toBe('https://gw.example.org/a2a');
  });

  it('runs a goal with a blocking SendMessage: the task completes on the only phone, in the caller\'s context', async () => {
    const gw = await start();
    const a2a = await client(gw);
    const result = await a2a.sendMessage(send(userMessage('Turn on Wi-Fi', { contextId: 'crm-case-9' })));
    const task = result as Json;
    expect(task.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(task.contextId).toBe('crm-case-9');
    expect(task.metadata).toMatchObject({ deviceId: 'sim-1', goal: 'Turn on Wi-Fi', status: 'completed' });
    expect((await a2a.getTask({ tenant: '', id: task.id })).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const rest: Json = await (await fetch(gatewayUrl(gw, `/api/tasks/${task.id}`))).json();
    expect(rest).toMatchObject({ status: 'completed', contextId: 'crm-case-9' });
    const listed = await a2a.listTasks({ tenant: '', contextId: 'crm-case-9', status: TaskState.TASK_STATE_UNSPECIFIED, pageToken: '', statusTimestampAfter: undefined });
    expect(listed.tasks.map((t) => t.id)).toStrictEqual([task.id]);
  });

  it('streams a task: the task first, then status updates up to COMPLETED; the same messageId again is the same task', async () => {
    const gw = await start();
    const a2a = await client(gw);
    const message = userMessage('Turn on Wi-Fi', {}, { deviceId: 'sim-1' });
    const events: StreamResponse[] = [];
    for await (const event of a2a.sendMessageStream(send(message))) events.push(event);
    expect(events[0].payload?.$case).toBe('task');
    const states = events.map(stateOf);
    expect(states[states.length - 1]).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(states).toContain(TaskState.TASK_STATE_WORKING);
    const taskId = (events[0].payload as Json).value.id;
    const again = (await a2a.sendMessage(send(message))) as Json;
    expect(again.id).toBe(taskId);
    const tasks: Json = await (await fetch(gatewayUrl(gw, '/api/tasks'))).json();
    expect(tasks.tasks).toHaveLength(1);
  });

  it('cancels a running task, and a subscriber that lost its stream subscribes again and sees the end', async () => {
    const gw = await start();
    gw.simulator!.faults.neverReply = true;
    const a2a = await client(gw);
    const abort = new AbortController();
    const stream = a2a.sendMessageStream(send(userMessage('Turn on Wi-Fi')), { signal: abort.signal });
    const first = await stream.next();
    const taskId = ((first.value as StreamResponse).payload as Json).value.id as string;
    // The caller's connection drops mid-task.
    abort.abort();
    await stream.return(undefined);
    const resubscribed = a2a.resubscribeTask({ tenant: '', id: taskId });
    const snapshot = await resubscribed.next();
    expect(((snapshot.value as StreamResponse).payload as Json).value).toMatchObject({ id: taskId, status: { state: TaskState.TASK_STATE_WORKING } });
    const canceled = await a2a.cancelTask({ tenant: '', id: taskId, metadata: undefined });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    const rest: StreamResponse[] = [];
    for await (const event of { [Symbol.asyncIterator]: () => resubscribed }) rest.push(event);
    expect(stateOf(rest[rest.length - 1])).toBe(TaskState.TASK_STATE_CANCELED);
    await expect(a2a.cancelTask({ tenant: '', id: taskId, metadata: undefined })).rejects.toThrow(/cannot be canceled|not cancelable|already canceled/i);
  });

  it('asks for approval as INPUT_REQUIRED with the pending action, and takes "yes" as the next message of the task', async () => {
    const gw = await start();
    const a2a = await client(gw);
    const waiting = (await a2a.sendMessage(send(userMessage("send 'hi there' to Nina")))) as Json;
    expect(waiting.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(waiting.status.message.parts[0].content.value).toMatch(/^Approval needed for step \d+ \(/);
    expect(waiting.status.message.parts[1].content.value.pendingAction).toMatchObject({ action: expect.objectContaining({ command: expect.any(String) }) });
    const done = (await a2a.sendMessage(send(userMessage('yes', { taskId: waiting.id, contextId: waiting.contextId })))) as Json;
    expect(done.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(gw.simulator!.ui.state.conversations['Nina']).toEqual([expect.objectContaining({ from: 'me', text: 'hi there' })]);
  });

  it('denies with a data part {approved: false}: the task is canceled', async () => {
    const gw = await start();
    const a2a = await client(gw);
    const waiting = (await a2a.sendMessage(send(userMessage("send 'hi there' to Nina")))) as Json;
    const denied = (await a2a.sendMessage(send(userMessage('', { taskId: waiting.id }, { approved: false })))) as Json;
    expect(denied.status.state).toBe(TaskState.TASK_STATE_CANCELED);
    expect(denied.status.message.parts[0].content.value).toMatch(/^APPROVAL_DENIED: /);
  });

  describe('JSON-RPC 2.0 exactness', () => {
    it('answers a body that is not JSON with -32700 and id null', async () => {
      const gw = await start();
      expect(await rpc(gw, '{"jsonrpc": "2.0", "method": ')).toMatchObject({ status: 200, json: { jsonrpc: '2.0', id: null, error: { code: -32700 } } });
    });

    it('answers invalid requests with -32600: [], a batch, a scalar, no jsonrpc, a method that is not a string, a bad id, scalar params', async () => {
      const gw = await start();
      for (const body of ['[]', '[{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x"}}]', '42', '{"id":1,"method":"GetTask","params":{}}', '{"jsonrpc":"2.0","id":1,"method":7}', '{"jsonrpc":"2.0","id":{"a":1},"method":"GetTask"}', '{"jsonrpc":"2.0","id":1,"method":"GetTask","params":"x"}']) {
        const answer = await rpc(gw, body);
        expect({ body, code: answer.json.error.code }).toStrictEqual({ body, code: -32600 });
      }
      expect((await rpc(gw, '{"id":7,"method":"GetTask","params":{}}')).json.id).toBe(7);
    });

    it('answers an unknown method with -32601 and bad params with -32602', async () => {
      const gw = await start();
      expect((await rpc(gw, '{"jsonrpc":"2.0","id":"a","method":"tasks/explode","params":{}}')).json).toMatchObject({ id: 'a', error: { code: -32601 } });
      expect((await rpc(gw, '{"jsonrpc":"2.0","id":"b","method":"GetTask","params":[1]}')).json).toMatchObject({ id: 'b', error: { code: -32602 } });
      expect((await rpc(gw, '{"jsonrpc":"2.0","id":"c","method":"SendMessage","params":{}}')).json).toMatchObject({ id: 'c', error: { code: -32602 } });
    });

    it('does not answer a notification (no id): 204, empty, nothing run', async () => {
      const gw = await start();
      const answer = await rpc(gw, JSON.stringify({ jsonrpc: '2.0', method: 'SendMessage', params: send(userMessage('Turn on Wi-Fi')) }));
      expect(answer).toMatchObject({ status: 204, text: '' });
      const tasks: Json = await (await fetch(gatewayUrl(gw, '/api/tasks'))).json();
      expect(tasks.tasks).toStrictEqual([]);
    });

    it('runs a SendMessage sent with curl-style JSON (no A2A-Version header) as A2A 1.0', async () => {
      const gw = await start();
      const answer = await rpc(gw, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: { message: { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'Turn on Wi-Fi' }] } } }));
      expect(answer.json).toMatchObject({ jsonrpc: '2.0', id: 1, result: { task: { status: { state: 'TASK_STATE_COMPLETED' }, metadata: { deviceId: 'sim-1' } } } });
    });
  });

  it('serves v0.3 clients through the SDK\'s legacyCompat layer (v0.3 method names and shapes)', async () => {
    const gw = await start();
    const sent = await rpc(gw, JSON.stringify({ jsonrpc: '2.0', id: 'v03', method: 'message/send', params: { message: { kind: 'message', messageId: 'm-03', role: 'user', parts: [{ kind: 'text', text: 'Turn on Wi-Fi' }] } } }));
    expect(sent.json).toMatchObject({ jsonrpc: '2.0', id: 'v03', result: { kind: 'task', status: { state: 'completed' } } });
    const got = await rpc(gw, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { id: sent.json.result.id } }), { 'a2a-version': '0.3' });
    expect(got.json).toMatchObject({ id: 2, result: { id: sent.json.result.id, kind: 'task', status: { state: 'completed' } } });
  });

  it('needs the API token off loopback, as the REST API does', async () => {
    const gw = await gateways.start({ MOBILECLAW_API_TOKEN: 'a2a-secret-token-123456' });
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } });
    const refused = await rpc(gw, body);
    expect([refused.status, refused.json.error.data]).toEqual([401, { code: 'UNAUTHORIZED' }]);
    expect((await rpc(gw, body, { authorization: 'Bearer a2a-secret-token-123456' })).json).toMatchObject({ id: 1, error: { code: -32001 } });
    expect((await fetch(gatewayUrl(gw, '/.well-known/agent-card.json'))).status).toBe(200);
  });

  it('refuses a proxied request when no API token is configured, as every face does', async () => {
    const gw = await start();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } });
    const proxied = await rpc(gw, body, { 'x-forwarded-for': '198.51.100.7' });
    expect([proxied.status, proxied.json.error.code, proxied.json.error.data]).toEqual([403, -32001, { code: 'PROXIED_WITHOUT_API_TOKEN' }]);
    // fetch cannot set Host: a raw request sends what a DNS-rebinding page's browser sends.
    const rebound = await new Promise<{ status: number; json: Json }>((resolve, reject) => {
      const url = new URL(gatewayUrl(gw, '/a2a'));
      const req = httpRequest({ host: url.hostname, port: url.port, path: '/a2a', method: 'POST', headers: { host: 'rebound.example', 'content-type': 'application/json' } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) as Json }));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect([rebound.status, rebound.json.error.data]).toEqual([403, { code: 'HOST_NOT_ALLOWED' }]);
  });
});
