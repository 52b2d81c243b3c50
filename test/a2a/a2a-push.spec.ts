import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { RunningGateway } from '@mobileclaw/gateway';
import { ClientFactory, Role, TaskState, type Client, type Message } from '../support/a2a-sdk-client';
import { gatewayUrl, testGateways, waitOnline } from '../support/test-gateways';

const gateways = testGateways('mobileclaw-a2a-push-');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON that tests index freely
type Json = any;

interface Delivery {
  headers: IncomingMessage['headers'];
  body: Json;
}

/** A webhook on a free loopback port: `answer` decides each call's fate; every call is recorded. */
class Webhook {
  readonly calls: Delivery[] = [];
  private readonly waiters: { test: () => boolean; resolve: () => void }[] = [];
  private readonly open = new Set<ServerResponse>();
  private server!: Server;

  constructor(private readonly answer: (call: number, res: ServerResponse) => void) {}

  /** Listens on `port` (0: a free one) and returns the webhook's URL. */
  async start(port = 0): Promise<string> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.calls.push({ headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
        this.open.add(res);
        res.on('close', () => this.open.delete(res));
        this.answer(this.calls.length, res);
        for (const waiter of this.waiters.splice(0)) if (waiter.test()) waiter.resolve();
        else this.waiters.push(waiter);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Resolves once `test` holds for the calls received (checked at each call). */
  until(test: (calls: Delivery[]) => boolean): Promise<void> {
    if (test(this.calls)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ test: () => test(this.calls), resolve }));
  }

  async stop(): Promise<void> {
    for (const res of this.open) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const webhooks: Webhook[] = [];
afterEach(async () => {
  for (const hook of webhooks.splice(0)) await hook.stop();
});

async function webhook(answer: (call: number, res: ServerResponse) => void): Promise<{ hook: Webhook; url: string }> {
  const hook = new Webhook(answer);
  webhooks.push(hook);
  return { hook, url: await hook.start() };
}

function message(text: string, extra: Partial<Message> = {}): Message {
  return { messageId: randomUUID(), contextId: '', taskId: '', role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }], metadata: undefined, extensions: [], referenceTaskIds: [], ...extra };
}

function send(m: Message) {
  return { tenant: '', message: m, configuration: undefined, metadata: undefined };
}

async function waitingForApproval(gw: RunningGateway): Promise<{ a2a: Client; taskId: string }> {
  const a2a = await new ClientFactory().createFromUrl(gatewayUrl(gw, ''));
  const task = (await a2a.sendMessage(send(message("send 'hi there' to Nina")))) as Json;
  expect(task.status.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
  return { a2a, taskId: task.id };
}

const stateName = (call: Delivery): string => call.body.statusUpdate.status.state;

describe('A2A push notifications (real gateway, real webhooks)', () => {
  it('delivers each status change with the configured authentication, retrying a webhook that fails twice', async () => {
    const gw = await gateways.start({ MOBILECLAW_A2A_PUSH_RETRY_BASE_MS: '10' });
    await waitOnline(gw, 'sim-1');
    const { hook, url } = await webhook((call, res) => {
      res.statusCode = call <= 2 ? 503 : 204;
      res.end();
    });
    const { a2a, taskId } = await waitingForApproval(gw);
    const config = await a2a.createTaskPushNotificationConfig({ tenant: '', id: 'crm', taskId, url, token: 'tok-1', authentication: { scheme: 'Bearer', credentials: 's3cret' } });
    expect(config).toMatchObject({ id: 'crm', taskId, url, token: 'tok-1' });
    expect((await a2a.listTaskPushNotificationConfig({ tenant: '', taskId, pageSize: 0, pageToken: '' })).configs.map((c) => c.id)).toStrictEqual(['crm']);

    const done = (await a2a.sendMessage(send(message('yes', { taskId })))) as Json;
    expect(done.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await hook.until((calls) => calls.some((c) => stateName(c) === 'TASK_STATE_COMPLETED'));
    // The first notification (the status at registration: INPUT_REQUIRED) was refused twice, then
    // delivered on the third attempt; every later status change followed, in order.
    expect(hook.calls.slice(0, 3).map((c) => [stateName(c), c.body.statusUpdate.metadata.type])).toStrictEqual(Array(3).fill(['TASK_STATE_INPUT_REQUIRED', 'registered']));
    expect(hook.calls.slice(3).map((c) => [stateName(c), c.body.statusUpdate.metadata.type])).toStrictEqual([
      ['TASK_STATE_WORKING', 'task.resumed'],
      ['TASK_STATE_COMPLETED', 'task.completed'],
    ]);
    expect(hook.calls[0].headers).toMatchObject({ authorization: 'Bearer s3cret', 'x-a2a-notification-token': 'tok-1', 'content-type': 'application/json' });
    expect(hook.calls[0].body.statusUpdate).toMatchObject({ taskId, contextId: expect.any(String) });

    await a2a.deleteTaskPushNotificationConfig({ tenant: '', taskId, id: 'crm' });
    expect((await a2a.listTaskPushNotificationConfig({ tenant: '', taskId, pageSize: 0, pageToken: '' })).configs).toStrictEqual([]);
  });

  it('a webhook that never answers does not slow the task', async () => {
    const gw = await gateways.start();
    await waitOnline(gw, 'sim-1');
    const { hook, url } = await webhook(() => undefined);
    const { a2a, taskId } = await waitingForApproval(gw);
    await a2a.createTaskPushNotificationConfig({ tenant: '', id: '', taskId, url, token: '', authentication: undefined });
    const done = (await a2a.sendMessage(send(message('yes', { taskId })))) as Json;
    expect(done.status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    // The task completed although the webhook holds the first notification unanswered.
    await hook.until((calls) => calls.length >= 1);
    expect(stateName(hook.calls[0])).toBe('TASK_STATE_INPUT_REQUIRED');
  });

  it('keeps the notifications for a webhook that is down across a gateway restart, and delivers each once it is back', async () => {
    // The webhook's port, free again: it refuses connections until the webhook comes back.
    const { hook, url } = await webhook((_call, res) => {
      res.statusCode = 204;
      res.end();
    });
    const port = Number(new URL(url).port);
    await hook.stop();
    const env = { MOBILECLAW_DATA_DIR: gateways.dataDir(), MOBILECLAW_A2A_PUSH_RETRY_BASE_MS: '50', MOBILECLAW_A2A_PUSH_MAX_ATTEMPTS: '20' };
    const first = await gateways.start(env);
    await waitOnline(first, 'sim-1');
    const { a2a, taskId } = await waitingForApproval(first);
    await a2a.createTaskPushNotificationConfig({ tenant: '', id: 'crm', taskId, url, token: 'tok-9', authentication: undefined });
    expect(((await a2a.sendMessage(send(message('yes', { taskId })))) as Json).status.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await first.close();

    await gateways.start(env);
    await hook.start(port);
    await hook.until((calls) => calls.some((c) => c.body.statusUpdate.metadata.type === 'task.completed'));
    // Nothing reached the webhook before the restart; after it, every status change since the
    // registration arrived, in order, with the config's token.
    expect(hook.calls.map((c) => [stateName(c), c.body.statusUpdate.metadata.type])).toStrictEqual([
      ['TASK_STATE_INPUT_REQUIRED', 'registered'],
      ['TASK_STATE_WORKING', 'task.resumed'],
      ['TASK_STATE_COMPLETED', 'task.completed'],
    ]);
    expect(hook.calls.map((c) => [c.body.statusUpdate.taskId, c.headers['x-a2a-notification-token']])).toStrictEqual(Array(3).fill([taskId, 'tok-9']));
  });

  it('notifies the webhook after the restart of the interruption of a task the shutdown stopped', async () => {
    const { hook, url } = await webhook((_call, res) => {
      res.statusCode = 204;
      res.end();
    });
    const port = Number(new URL(url).port);
    await hook.stop();
    const env = { MOBILECLAW_DATA_DIR: gateways.dataDir(), MOBILECLAW_A2A_PUSH_RETRY_BASE_MS: '50', MOBILECLAW_A2A_PUSH_MAX_ATTEMPTS: '20' };
    const first = await gateways.start(env);
    await waitOnline(first, 'sim-1');
    first.simulator!.faults.neverReply = true;
    const a2a = await new ClientFactory().createFromUrl(gatewayUrl(first, ''));
    const task = (await a2a.sendMessage({ ...send(message('Turn on Wi-Fi')), configuration: { acceptedOutputModes: [], returnImmediately: true, taskPushNotificationConfig: undefined } })) as Json;
    expect(task.status.state).toBe(TaskState.TASK_STATE_WORKING);
    await a2a.createTaskPushNotificationConfig({ tenant: '', id: 'crm', taskId: task.id, url, token: '', authentication: undefined });
    await first.close();

    await gateways.start(env);
    await hook.start(port);
    await hook.until((calls) => calls.some((c) => c.body.statusUpdate.metadata.type === 'task.interrupted'));
    expect(hook.calls.map((c) => [stateName(c), c.body.statusUpdate.metadata.type])).toStrictEqual([
      ['TASK_STATE_WORKING', 'registered'],
      ['TASK_STATE_FAILED', 'task.interrupted'],
    ]);
  });

  it('refuses a webhook URL that is not http: or https: with invalid params', async () => {
    const gw = await gateways.start();
    await waitOnline(gw, 'sim-1');
    const { a2a, taskId } = await waitingForApproval(gw);
    await expect(a2a.createTaskPushNotificationConfig({ tenant: '', id: 'x', taskId, url: 'file:///etc/passwd', token: '', authentication: undefined })).rejects.toThrow(
      /push notification url must be an http: or https: URL/,
    );
  });
});
