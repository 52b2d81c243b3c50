import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { Subject } from 'rxjs';
import type { Task, TaskEvent } from '@mobileclaw/domain';
import { InMemoryPushDeliveryOutbox, InMemoryPushNotificationConfigStore, type TaskService } from '@mobileclaw/case-tasks';
import { DEFAULT_PUSH_DELIVERY, PushNotificationDispatcher, retryDelayMs, type PushDeliverySettings } from './push-notification-dispatcher';

describe('retryDelayMs', () => {
  const settings = { ...DEFAULT_PUSH_DELIVERY, baseDelayMs: 100, maxDelayMs: 1000 };

  it('doubles per retry up to the ceiling, jittered within the upper half', () => {
    expect([1, 2, 3, 4, 5].map((retry) => retryDelayMs(retry, settings, () => 1))).toStrictEqual([100, 200, 400, 800, 1000]);
    expect([1, 2, 3, 4, 5].map((retry) => retryDelayMs(retry, settings, () => 0))).toStrictEqual([50, 100, 200, 400, 500]);
    expect(retryDelayMs(3, settings, () => 0.5)).toBe(300);
  });
});

const INSTANCE = 'gw-test';

/** A webhook on a free loopback port: `answer` decides each call's fate; every body is recorded. */
class Webhook {
  readonly bodies: unknown[] = [];
  private readonly waiters: { test: () => boolean; resolve: () => void }[] = [];
  private readonly server: Server;

  constructor(private readonly answer: (call: number, res: ServerResponse) => void) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        this.bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        this.answer(this.bodies.length, res);
        for (const waiter of this.waiters.splice(0)) if (waiter.test()) waiter.resolve();
        else this.waiters.push(waiter);
      });
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Resolves once `test` holds for the bodies received (checked at each call). */
  until(test: (bodies: unknown[]) => boolean): Promise<void> {
    if (test(this.bodies)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ test: () => test(this.bodies), resolve }));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('PushNotificationDispatcher (in-memory outbox, real webhooks)', () => {
  const events = new Subject<TaskEvent>();
  const task: Task = { taskId: 't-1', deviceId: 'sim-1', goal: 'Turn on Wi-Fi', status: 'running', maxSteps: 25, planner: 'rule-based', createdAt: '2026-03-01T10:00:00.000Z', stepCount: 0, contextId: 'ctx-1' };
  const tasks = { allEvents$: events, instanceId: INSTANCE, find: async () => task } as unknown as TaskService;
  let configs: InMemoryPushNotificationConfigStore;
  let outbox: InMemoryPushDeliveryOutbox;
  const running: PushNotificationDispatcher[] = [];
  const webhooks: Webhook[] = [];

  beforeEach(() => {
    configs = new InMemoryPushNotificationConfigStore();
    outbox = new InMemoryPushDeliveryOutbox();
  });

  afterEach(async () => {
    for (const dispatcher of running.splice(0)) {
      await dispatcher.beforeApplicationShutdown();
      await dispatcher.onApplicationShutdown();
    }
    for (const hook of webhooks.splice(0)) await hook.stop();
    jest.restoreAllMocks();
  });

  async function webhook(configId: string, answer: (call: number, res: ServerResponse) => void = (_call, res) => res.end()): Promise<Webhook> {
    const hook = new Webhook(answer);
    webhooks.push(hook);
    await configs.save({ taskId: 't-1', configId, url: await hook.start() });
    return hook;
  }

  async function start(push: Partial<PushDeliverySettings> = {}): Promise<PushNotificationDispatcher> {
    const dispatcher = new PushNotificationDispatcher({ version: 'test', push: { baseDelayMs: 1, ...push } }, tasks, configs, outbox);
    running.push(dispatcher);
    await dispatcher.onApplicationBootstrap();
    return dispatcher;
  }

  const statusEvent = (id: number, type: TaskEvent['type']): TaskEvent => ({ taskId: 't-1', id, type, at: '2026-03-01T10:00:01.000Z', data: {} });
  const typeOf = (body: unknown): string => (body as { statusUpdate: { metadata: { type: string } } }).statusUpdate.metadata.type;

  it('resumes, in order, the deliveries a previous run of the instance held or left pending', async () => {
    const hook = await webhook('crm');
    const bodies = [1, 2, 3].map((n) => JSON.stringify({ n }));
    await outbox.enqueue(bodies.map((body, i) => ({ taskId: 't-1', configId: 'crm', eventId: i + 1, body })), Date.now());
    // The previous run died mid-attempt: the first delivery is claimed for a minute.
    expect(await outbox.claimDue(INSTANCE, Date.now(), 60_000, 10)).toHaveLength(1);
    await start();
    await hook.until((received) => received.length === 3);
    expect(hook.bodies).toStrictEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('sends each status event to every webhook of the task, in order per webhook, while another webhook holds its first call', async () => {
    let held: ServerResponse | undefined;
    const slow = await webhook('slow', (call, res) => (call === 1 ? (held = res) : res.end()));
    const fast = await webhook('fast');
    await start();
    events.next(statusEvent(1, 'task.started'));
    events.next(statusEvent(2, 'task.input_required'));
    events.next(statusEvent(3, 'step.planned'));
    events.next(statusEvent(4, 'task.resumed'));
    events.next(statusEvent(5, 'task.completed'));
    await fast.until((received) => received.length === 4);
    expect(fast.bodies.map(typeOf)).toStrictEqual(['task.started', 'task.input_required', 'task.resumed', 'task.completed']);
    // The slow webhook still holds its first notification: it has been sent nothing else.
    await slow.until((received) => received.length === 1);
    expect(slow.bodies.map(typeOf)).toStrictEqual(['task.started']);
    held?.end();
    await slow.until((received) => received.length === 4);
    expect(slow.bodies.map(typeOf)).toStrictEqual(['task.started', 'task.input_required', 'task.resumed', 'task.completed']);
  });

  it('retries a failing webhook up to maxAttempts, then gives up with a warning and goes on with its next notification', async () => {
    const hook = await webhook('crm', (call, res) => {
      res.statusCode = call <= 3 ? 503 : 204;
      res.end();
    });
    const warned = new Promise<string>((resolve) => jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => resolve(String(message))));
    await start({ maxAttempts: 3 });
    events.next(statusEvent(1, 'task.started'));
    events.next(statusEvent(2, 'task.completed'));
    expect(await warned).toBe('push notification 1 of task t-1 to config crm dropped after 3 attempts (HTTP 503)');
    await hook.until((received) => received.length === 4);
    expect(hook.bodies.map(typeOf)).toStrictEqual(['task.started', 'task.started', 'task.started', 'task.completed']);
  });

  it('drops the pending deliveries of a webhook whose config was deleted', async () => {
    const hook = await webhook('kept');
    const [deleted] = await outbox.enqueue([{ taskId: 't-1', configId: 'deleted', eventId: 1, body: '{}' }], Date.now());
    const [kept] = await outbox.enqueue([{ taskId: 't-1', configId: 'kept', eventId: 1, body: '{"n":1}' }], Date.now());
    const removed: number[] = [];
    const bothRemoved = new Promise<void>((resolve) => {
      const remove = outbox.remove.bind(outbox);
      jest.spyOn(outbox, 'remove').mockImplementation(async (deliveryId) => {
        await remove(deliveryId);
        if (removed.push(deliveryId) === 2) resolve();
      });
    });
    await start();
    await bothRemoved;
    expect(removed.sort((a, b) => a - b)).toStrictEqual([deleted.deliveryId, kept.deliveryId]);
    expect(hook.bodies).toStrictEqual([{ n: 1 }]);
    expect(await outbox.nextDueAt()).toBeUndefined();
  });

  it('keeps what it could not send when stopped, without counting the cut attempt', async () => {
    const held: ServerResponse[] = [];
    const hook = await webhook('crm', (_call, res) => held.push(res));
    const dispatcher = await start();
    events.next(statusEvent(1, 'task.completed'));
    await hook.until((received) => received.length === 1);
    await dispatcher.beforeApplicationShutdown();
    expect(await outbox.claimDue('gw-next', Date.now(), 1000, 10)).toStrictEqual([
      expect.objectContaining({ taskId: 't-1', configId: 'crm', eventId: 1, attempts: 0, lastError: expect.any(String) }),
    ]);
  });
});
