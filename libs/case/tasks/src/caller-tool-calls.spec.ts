import { firstValueFrom, toArray } from 'rxjs';
import type { CallerToolSpec, PlanDecision, PlanningContext, TaskEvent } from '@mobileclaw/domain';
import { StableTreeSettler } from './screen-settling';
import { DEFAULT_TASK_CASE_OPTIONS, type TaskCaseOptions } from './task-case.options';
import { TaskService } from './task.service';
import { InMemoryTaskRepository } from './testing/in-memory-task.repository';
import { InstantSettleTimer } from './testing/instant-settle-timer';
import { ScriptedPhone } from './testing/scripted-phone';
import { ScriptedPlanner } from './testing/scripted-planner';

const lookupOrder: CallerToolSpec = { name: 'lookup_order', description: 'Finds an order.', inputSchema: { type: 'object', properties: { orderId: { type: 'string' } } }, kind: 'OBSERVATION' };
const callLookup = (): PlanDecision => ({ type: 'tool_call', name: 'lookup_order', arguments: { orderId: 'A-17' }, reasoning: 'the goal asks for the order' });
const done = (ctx: PlanningContext): PlanDecision => ({ type: 'done', summary: `saw ${JSON.stringify(ctx.history.at(-1)?.result)}`, reasoning: 'tool answered' });

function setup(script: ConstructorParameters<typeof ScriptedPlanner>[0], options: Partial<TaskCaseOptions> = {}) {
  const phone = new ScriptedPhone(['phone-1']);
  const planner = new ScriptedPlanner(script);
  const repository = new InMemoryTaskRepository();
  const all = { ...DEFAULT_TASK_CASE_OPTIONS, ...options };
  const service = new TaskService(phone, planner, repository, all, undefined, undefined, undefined, undefined, new StableTreeSettler({ timeoutMs: all.settleTimeoutMs, pollMs: all.settlePollMs }, new InstantSettleTimer()));
  return { phone, planner, repository, service };
}

function eventOf(service: TaskService, taskId: string, type: TaskEvent['type']): Promise<TaskEvent> {
  return new Promise((resolve) => {
    const subscription = service.events(taskId).subscribe((event) => {
      if (event.type !== type) return;
      resolve(event);
      queueMicrotask(() => subscription.unsubscribe());
    });
  });
}

const finished = (service: TaskService, taskId: string) => firstValueFrom(service.events(taskId).pipe(toArray()));

describe('caller tool calls in the task loop', () => {
  it('waits in input_required for the result, then records it and goes on with the planner seeing it', async () => {
    const { service, planner, phone } = setup([callLookup, done]);
    const task = await service.start({ deviceId: 'phone-1', goal: 'look up the order', tools: [lookupOrder] });
    expect(task.tools).toEqual([lookupOrder]);
    const asked = await eventOf(service, task.taskId, 'task.input_required');
    const toolCallId = `${task.taskId}:0`;
    expect(asked.data).toEqual({ toolCall: { toolCallId, name: 'lookup_order', arguments: { orderId: 'A-17' }, kind: 'OBSERVATION', stepIndex: 0 } });
    expect(await service.find(task.taskId)).toMatchObject({
      status: 'input_required',
      pendingToolCall: { stepIndex: 0, toolCallId, name: 'lookup_order', arguments: { orderId: 'A-17' }, kind: 'OBSERVATION' },
    });
    expect(planner.seen[0].tools).toEqual([lookupOrder]);

    const answered = await service.submitToolResult(task.taskId, { toolCallId, outcome: 'ok', result: { status: 'shipped' } });
    expect(answered.pendingToolCall).toBeUndefined();
    expect(answered.status).not.toBe('input_required');
    const events = await finished(service, task.taskId);
    const resumedAt = events.findIndex((e) => e.type === 'task.resumed');
    expect(events[resumedAt].data).toEqual({ stepIndex: 0 });
    expect(events[resumedAt + 1]).toMatchObject({ type: 'step.acted', data: { index: 0, result: { status: 'success', output: { status: 'shipped' } } } });
    expect(events.find((e) => e.type === 'step.planned')?.data.plan).toEqual({ ...callLookup(), toolCallId });

    const stored = await service.get(task.taskId);
    expect(stored).toMatchObject({ status: 'completed', summary: 'saw {"status":"success","output":{"status":"shipped"}}', stepCount: 2 });
    expect(stored.steps[0].result).toEqual({ status: 'success', output: { status: 'shipped' } });
    // The tool step touched nothing on the phone: only the two observations read it.
    expect(phone.calls.map((c) => c.command.command).filter((c) => c !== 'ui_tree')).toEqual(['screenshot', 'screenshot']);
  });

  it('records a rejection as denied, and refuses a second answer or a wrong id with TOOL_CALL_NOT_PENDING', async () => {
    const { service } = setup([callLookup, done]);
    const task = await service.start({ deviceId: 'phone-1', goal: 'look up the order', tools: [lookupOrder] });
    await eventOf(service, task.taskId, 'task.input_required');
    const toolCallId = `${task.taskId}:0`;
    await expect(service.submitToolResult(task.taskId, { toolCallId: 'other:9', outcome: 'ok', result: 1 })).rejects.toMatchObject({
      code: 'TOOL_CALL_NOT_PENDING',
      message: `task ${task.taskId} waits for tool call ${toolCallId}, not other:9`,
    });
    await service.submitToolResult(task.taskId, { toolCallId, outcome: 'rejected', reason: 'not exposed to this conversation' });
    await expect(service.submitToolResult(task.taskId, { toolCallId, outcome: 'ok', result: 1 })).rejects.toMatchObject({ code: 'TOOL_CALL_NOT_PENDING' });
    await finished(service, task.taskId);
    const stored = await service.get(task.taskId);
    expect(stored.steps[0].result).toEqual({ status: 'denied', message: 'not exposed to this conversation' });
    await expect(service.submitToolResult(task.taskId, { toolCallId, outcome: 'ok', result: 1 })).rejects.toMatchObject({
      code: 'TOOL_CALL_NOT_PENDING',
      message: `task ${task.taskId} is completed and waits for no tool call (tool call ${toolCallId} was answered already, or never made)`,
    });
    await expect(service.submitToolResult('nope', { toolCallId, outcome: 'ok', result: 1 })).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
    await expect(service.submitToolResult(task.taskId, { toolCallId, outcome: 'rejected', reason: '' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', fieldErrors: [{ field: 'reason' }] });
  });

  it('denies a tool call of a task that offers no tools, without waiting', async () => {
    const { service } = setup([callLookup, done]);
    const task = await service.start({ deviceId: 'phone-1', goal: 'look up the order' });
    const events = await finished(service, task.taskId);
    expect(events.map((e) => e.type)).not.toContain('task.input_required');
    expect((await service.get(task.taskId)).steps[0].result).toEqual({ status: 'denied', message: 'this task offers no caller tools' });
  });

  it('refuses invalid tools at start with field errors', async () => {
    const { service } = setup([done]);
    await expect(service.start({ deviceId: 'phone-1', goal: 'x', tools: [{ ...lookupOrder, name: 'tap' }] })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      fieldErrors: [{ field: 'tools.0.name', message: 'tool name tap is reserved' }],
    });
  });

  describe('deadline', () => {
    beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
    afterEach(() => jest.useRealTimers());

    it('ends the step TOOL_RESULT_TIMEOUT after toolResultTimeoutMs and goes on; a late answer is not pending', async () => {
      const { service } = setup([callLookup, done], { toolResultTimeoutMs: 1000 });
      const task = await service.start({ deviceId: 'phone-1', goal: 'look up the order', tools: [] });
      const asked = eventOf(service, task.taskId, 'task.input_required');
      await jest.advanceTimersByTimeAsync(0);
      expect((await asked).data.toolCall).toEqual({ toolCallId: `${task.taskId}:0`, name: 'lookup_order', arguments: { orderId: 'A-17' }, stepIndex: 0 });
      await jest.advanceTimersByTimeAsync(999);
      expect((await service.find(task.taskId)).status).toBe('input_required');
      await jest.advanceTimersByTimeAsync(1);
      await service.idle();
      const stored = await service.get(task.taskId);
      expect(stored.steps[0].result).toEqual({ status: 'error', errorCode: 'TOOL_RESULT_TIMEOUT', message: `the caller did not answer tool call ${task.taskId}:0 (lookup_order) within 1000 ms` });
      expect(stored.status).toBe('completed');
      await expect(service.submitToolResult(task.taskId, { toolCallId: `${task.taskId}:0`, outcome: 'ok', result: 1 })).rejects.toMatchObject({ code: 'TOOL_CALL_NOT_PENDING' });
    });
  });

  it('cancels a task waiting for a tool result', async () => {
    const { service } = setup([callLookup, done]);
    const task = await service.start({ deviceId: 'phone-1', goal: 'look up the order', tools: [lookupOrder] });
    await eventOf(service, task.taskId, 'task.input_required');
    const canceled = await service.cancel(task.taskId);
    expect(canceled).toMatchObject({ status: 'canceled', error: { code: 'CANCELED' } });
    expect(canceled.pendingToolCall).toBeUndefined();
    await expect(service.submitToolResult(task.taskId, { toolCallId: `${task.taskId}:0`, outcome: 'ok', result: 1 })).rejects.toMatchObject({ code: 'TOOL_CALL_NOT_PENDING' });
  });

  it('counts tool steps toward maxSteps', async () => {
    const { service } = setup([callLookup], { toolResultTimeoutMs: 60_000 });
    const task = await service.start({ deviceId: 'phone-1', goal: 'look up the order', tools: [lookupOrder], maxSteps: 2 });
    for (const index of [0, 1]) {
      await new Promise<void>((resolve) => {
        const sub = service.events(task.taskId).subscribe((e) => {
          if (e.type === 'task.input_required' && (e.data.toolCall as { stepIndex: number }).stepIndex === index) {
            resolve();
            queueMicrotask(() => sub.unsubscribe());
          }
        });
      });
      await service.submitToolResult(task.taskId, { toolCallId: `${task.taskId}:${index}`, outcome: 'ok', result: index });
    }
    await service.idle();
    expect(await service.find(task.taskId)).toMatchObject({ status: 'failed', error: { code: 'MAX_STEPS' } });
  });
});
