import { MobileClawError, TaskControlRelay, type Task, type TaskControlHandler, type TaskControlListener, type TaskControlRequest } from '@mobileclaw/domain';
import { InProcessTaskEventBus } from './in-process-task-event-bus';
import { StableTreeSettler } from './screen-settling';
import { DEFAULT_TASK_CASE_OPTIONS } from './task-case.options';
import { TaskService } from './task.service';
import { InMemoryTaskRepository } from './testing/in-memory-task.repository';
import { InstantSettleTimer } from './testing/instant-settle-timer';
import { ScriptedPhone } from './testing/scripted-phone';
import { ScriptedPlanner } from './testing/scripted-planner';
import { SequentialIdSource } from './testing/sequential-id-source';

/** Instances in one process, each reaching the others' listeners directly (as a broker would). */
class LoopbackRelays {
  readonly handlers = new Map<string, TaskControlHandler>();
  readonly sent: [string, TaskControlRequest][] = [];

  of(instanceId: string): TaskControlRelay {
    return new LoopbackRelay(instanceId, this);
  }
}

/** Instance `instanceId`'s side of {@link LoopbackRelays}; requests and answers travel as copies. */
class LoopbackRelay extends TaskControlRelay {
  constructor(
    private readonly instanceId: string,
    private readonly relays: LoopbackRelays,
  ) {
    super();
  }

  override async send(owner: string, request: TaskControlRequest): Promise<Task> {
    this.relays.sent.push([owner, structuredClone(request)]);
    const handler = this.relays.handlers.get(owner);
    if (!handler) throw new MobileClawError('DEVICE_DISCONNECTED', `gateway instance ${owner} is not reachable on the cluster link`);
    return structuredClone(await handler(structuredClone(request)));
  }

  override async listen(handler: TaskControlHandler): Promise<TaskControlListener> {
    this.relays.handlers.set(this.instanceId, handler);
    return { close: async () => void this.relays.handlers.delete(this.instanceId) };
  }
}

/** Two instances on one store and bus; the phone's tasks run on gw-a. */
async function cluster(script: ConstructorParameters<typeof ScriptedPlanner>[0], relayed = true) {
  const repository = new InMemoryTaskRepository();
  const bus = new InProcessTaskEventBus();
  const relays = new LoopbackRelays();
  const options = DEFAULT_TASK_CASE_OPTIONS;
  const settler = new StableTreeSettler({ timeoutMs: options.settleTimeoutMs, pollMs: options.settlePollMs }, new InstantSettleTimer());
  const make = (instanceId: string, phone: ScriptedPhone) =>
    new TaskService(phone, new ScriptedPlanner(script), repository, options, undefined, new SequentialIdSource(`${instanceId}-`), bus, instanceId, settler, undefined, undefined, undefined, undefined, undefined, relayed ? relays.of(instanceId) : undefined);
  const phone = new ScriptedPhone();
  const a = make('gw-a', phone);
  const b = make('gw-b', new ScriptedPhone([]));
  await a.onApplicationBootstrap();
  await b.onApplicationBootstrap();
  return { a, b, phone, relays, repository };
}

/** Resolves at the task's first `task.input_required` event whose data has `key`. */
const inputRequired = (service: TaskService, taskId: string, key: 'pendingAction' | 'toolCall') =>
  new Promise<void>((resolve) => service.events(taskId).subscribe((e) => e.type === 'task.input_required' && key in e.data && resolve()));

describe('TaskService with a TaskControlRelay (tasks run by another instance)', () => {
  it('cancels a running task of another instance there, and refuses a second cancel with the owner\'s conflict', async () => {
    const { a, b, phone, relays, repository } = await cluster([() => ({ type: 'action', action: { command: 'click', x: 50, y: 25 }, reasoning: 'r' })]);
    phone.hangNextAction = true;
    const started = new Promise<void>((resolve) => (phone.actionStarted = resolve));
    const task = await a.start({ deviceId: 'phone-1', goal: 'tap' });
    await started;

    const canceled = await b.cancel(task.taskId, 'canceled from gw-b');
    expect(canceled).toMatchObject({ taskId: task.taskId, status: 'canceled', error: { code: 'CANCELED', message: 'canceled from gw-b' } });
    expect(await repository.getTask(task.taskId)).toEqual(canceled);
    expect(phone.sawAbort).toBe(true);
    expect(relays.sent).toEqual([['gw-a', { op: 'cancel', taskId: task.taskId, reason: 'canceled from gw-b' }]]);
    await expect(b.cancel(task.taskId)).rejects.toEqual(new MobileClawError('TASK_STATE_CONFLICT', `task ${task.taskId} is already canceled`));
    await a.beforeApplicationShutdown();
    await b.beforeApplicationShutdown();
  });

  it('hands an approval answer and a tool result to the instance that runs the task', async () => {
    const { a, b, phone, relays } = await cluster([
      () => ({ type: 'action', action: { command: 'click', x: 50, y: 25 }, reasoning: 'r', approval: { reason: 'sends money' } }),
      () => ({ type: 'tool_call', name: 'lookup_order', arguments: { orderId: 'A-17' }, reasoning: 'ask the caller' }),
      () => ({ type: 'done', summary: 'paid', reasoning: 'r' }),
    ]);
    const lookupOrder = { name: 'lookup_order', description: 'Finds an order.', inputSchema: { type: 'object' }, kind: 'OBSERVATION' } as const;
    const task = await a.start({ deviceId: 'phone-1', goal: 'pay', tools: [lookupOrder] });
    await inputRequired(a, task.taskId, 'pendingAction');

    expect(await b.approve(task.taskId, true)).toMatchObject({ taskId: task.taskId, status: 'running' });
    await inputRequired(a, task.taskId, 'toolCall');
    expect(phone.wifi).toBe(true);
    const toolCallId = (await b.find(task.taskId)).pendingToolCall!.toolCallId;
    await expect(b.submitToolResult(task.taskId, { toolCallId: 'call-other', outcome: 'ok', result: 1 })).rejects.toEqual(
      new MobileClawError('TOOL_CALL_NOT_PENDING', `task ${task.taskId} waits for tool call ${toolCallId}, not call-other`),
    );
    expect((await b.submitToolResult(task.taskId, { toolCallId, outcome: 'ok', result: { status: 'shipped' } })).taskId).toBe(task.taskId);
    await a.idle();
    expect(await b.find(task.taskId)).toMatchObject({ status: 'completed', summary: 'paid' });
    expect(relays.sent.map(([owner, request]) => [owner, request.op])).toEqual([
      ['gw-a', 'approve'],
      ['gw-a', 'tool_result'],
      ['gw-a', 'tool_result'],
    ]);
    await a.beforeApplicationShutdown();
    await b.beforeApplicationShutdown();
  });

  it('relays nothing for a finished task, and passes on that the owner cannot be reached', async () => {
    const { a, b, relays, repository } = await cluster([() => ({ type: 'done', summary: 's', reasoning: 'r' })]);
    const task = await a.start({ deviceId: 'phone-1', goal: 'g' });
    await a.idle();
    await expect(b.cancel(task.taskId)).rejects.toMatchObject({ code: 'TASK_STATE_CONFLICT' });
    await expect(b.approve(task.taskId, true)).rejects.toMatchObject({ code: 'TASK_STATE_CONFLICT' });
    expect(relays.sent).toEqual([]);

    // A task of an instance that stopped listening (its lease not yet expired).
    await repository.createTask({ taskId: 'of-c', deviceId: 'phone-9', goal: 'g', status: 'running', maxSteps: 5, planner: 'p', createdAt: '2026-05-01T10:00:00.000Z', stepCount: 0, owner: { instanceId: 'gw-c', leaseExpiresAt: '2999-01-01T00:00:00.000Z' } });
    await expect(b.cancel('of-c')).rejects.toEqual(new MobileClawError('DEVICE_DISCONNECTED', 'gateway instance gw-c is not reachable on the cluster link'));
    expect((await repository.getTask('of-c'))?.status).toBe('running');
    await a.beforeApplicationShutdown();
    await b.beforeApplicationShutdown();
  });

  it('without a relay, refuses control of another instance\'s task as a single instance does', async () => {
    const { a, b, phone } = await cluster([() => ({ type: 'action', action: { command: 'click', x: 50, y: 25 }, reasoning: 'r' })], false);
    phone.hangNextAction = true;
    const started = new Promise<void>((resolve) => (phone.actionStarted = resolve));
    const task = await a.start({ deviceId: 'phone-1', goal: 'tap' });
    await started;
    await expect(b.cancel(task.taskId)).rejects.toEqual(new MobileClawError('TASK_STATE_CONFLICT', `task ${task.taskId} is already running`));
    await a.cancel(task.taskId);
    await a.beforeApplicationShutdown();
    await b.beforeApplicationShutdown();
  });
});
