import { firstValueFrom, toArray } from 'rxjs';
import { toolFailure, toolSuccess, type CallerToolSpec, type PlanDecision, type PlanningContext, type TaskEvent } from '@mobileclaw/domain';
import { StableTreeSettler } from './screen-settling';
import { DEFAULT_TASK_CASE_OPTIONS, type TaskCaseOptions } from './task-case.options';
import { TaskService } from './task.service';
import { InMemoryTaskRepository } from './testing/in-memory-task.repository';
import { InstantSettleTimer } from './testing/instant-settle-timer';
import { ScriptedPhone } from './testing/scripted-phone';
import { ScriptedPlanner } from './testing/scripted-planner';
import { ScriptedTaskTools, taskToolSpec, type ScriptedToolAnswer } from './testing/scripted-task-tools';

const weather = taskToolSpec('lookup_weather', { description: 'Forecast of a city.', inputSchema: { type: 'object', properties: { city: { type: 'string' } } } });
const refund = taskToolSpec('refund_order', { kind: 'ACTION', needsApproval: true });
const callWeather = (): PlanDecision => ({ type: 'tool_call', name: 'lookup_weather', arguments: { city: 'Oslo' }, reasoning: 'the goal asks for the weather' });
const callRefund = (): PlanDecision => ({ type: 'tool_call', name: 'refund_order', arguments: { orderId: 'A-17' }, reasoning: 'the goal asks for a refund' });
const done = (ctx: PlanningContext): PlanDecision => ({ type: 'done', summary: `saw ${JSON.stringify(ctx.history.at(-1)?.result)}`, reasoning: 'the tool answered' });

function setup(script: ConstructorParameters<typeof ScriptedPlanner>[0], answer: ScriptedToolAnswer, options: Partial<TaskCaseOptions> = {}) {
  const phone = new ScriptedPhone(['phone-1']);
  const planner = new ScriptedPlanner(script);
  const repository = new InMemoryTaskRepository();
  const tools = new ScriptedTaskTools([weather, refund], answer);
  const all = { ...DEFAULT_TASK_CASE_OPTIONS, ...options };
  const settler = new StableTreeSettler({ timeoutMs: all.settleTimeoutMs, pollMs: all.settlePollMs }, new InstantSettleTimer());
  const service = new TaskService(phone, planner, repository, all, undefined, undefined, undefined, undefined, settler, undefined, undefined, undefined, tools);
  return { phone, planner, repository, service, tools };
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

describe('gateway tool calls in the task loop', () => {
  it('calls a listed gateway tool at once and records the call, its result and its duration as the step', async () => {
    const { service, planner, phone, tools } = setup([callWeather, done], () => toolSuccess({ city: 'Oslo', forecast: 'snow' }, 'Oslo: snow'));
    const task = await service.start({ deviceId: 'phone-1', goal: 'what is the weather in Oslo?' });
    const events = await finished(service, task.taskId);
    const toolCallId = `${task.taskId}:0`;

    expect(planner.seen[0].gatewayTools).toEqual([weather, refund]);
    expect(planner.seen[0].tools).toBeUndefined();
    expect(tools.calls.map(({ name, args, options }) => ({ name, args, options }))).toEqual([
      { name: 'lookup_weather', args: { city: 'Oslo' }, options: { toolCallId, deadlineMs: DEFAULT_TASK_CASE_OPTIONS.gatewayToolTimeoutMs, scope: 'device:phone-1' } },
    ]);
    const plan = { ...callWeather(), toolCallId, gatewayTool: { source: 'catalog:erp', kind: 'OBSERVATION', mode: 'REMOTE_PROXY' } };
    const result = { status: 'success', output: { city: 'Oslo', forecast: 'snow' }, message: 'Oslo: snow' };
    expect(events.find((e) => e.type === 'step.planned')?.data).toMatchObject({ index: 0, plan });
    expect(events.find((e) => e.type === 'step.acted')?.data).toMatchObject({ index: 0, result });
    // Run at once: no pause for anybody's answer.
    expect(events.map((e) => e.type)).not.toContain('task.input_required');

    const stored = await service.get(task.taskId);
    expect(stored).toMatchObject({ status: 'completed', summary: `saw ${JSON.stringify(result)}`, stepCount: 2 });
    expect(stored.steps[0]).toMatchObject({ plan, result });
    expect(stored.steps[0].timings.actionMs).toBeGreaterThanOrEqual(0);
    expect(planner.seen[1].history[0]).toMatchObject({ index: 0, decision: plan, result });
    // The tool step touched nothing on the phone.
    expect(phone.calls.map((c) => c.command.command).filter((c) => c !== 'ui_tree')).toEqual(['screenshot', 'screenshot']);
  });

  it('records a failed call as an error step with its code, and the planner goes on', async () => {
    const { service } = setup([callWeather, done], () => toolFailure('TOOL_FAILED', 'the forecast service is down'));
    const task = await service.start({ deviceId: 'phone-1', goal: 'what is the weather in Oslo?' });
    await finished(service, task.taskId);
    const stored = await service.get(task.taskId);
    expect(stored.steps[0].result).toEqual({ status: 'error', errorCode: 'TOOL_FAILED', message: 'the forecast service is down' });
    expect(stored.status).toBe('completed');
  });

  it('keeps verified: false of a result whose answer shows no sign the tool ran', async () => {
    const { service } = setup([callWeather, done], () => ({ ...toolSuccess('It is probably snowing.'), verified: false }));
    const task = await service.start({ deviceId: 'phone-1', goal: 'what is the weather in Oslo?' });
    await finished(service, task.taskId);
    expect((await service.get(task.taskId)).steps[0].result).toEqual({ status: 'success', output: 'It is probably snowing.', message: 'It is probably snowing.', verified: false });
  });

  it('ends the step TOOL_NOT_FOUND for a name neither the caller nor the gateway offers, and goes on', async () => {
    const { service, tools } = setup([() => ({ type: 'tool_call', name: 'lookup_order', arguments: {}, reasoning: 'guess' }), done], () => toolSuccess(1));
    const task = await service.start({ deviceId: 'phone-1', goal: 'look up the order' });
    await finished(service, task.taskId);
    const stored = await service.get(task.taskId);
    expect(stored.steps[0].result).toEqual({ status: 'error', errorCode: 'TOOL_NOT_FOUND', message: 'no tool lookup_order: the task has no caller tools and the gateway offers lookup_weather, refund_order' });
    expect(stored.steps[0].plan).not.toHaveProperty('gatewayTool');
    expect(stored.status).toBe('completed');
    expect(tools.calls).toEqual([]);
  });

  it("gives a caller tool's name and a phone action's name precedence: the clashing gateway tools are not offered", async () => {
    const lookupOrder: CallerToolSpec = { name: 'lookup_order', description: 'Finds an order.', inputSchema: { type: 'object' }, kind: 'OBSERVATION' };
    const { service, planner, tools } = setup([() => ({ type: 'tool_call', name: 'lookup_order', arguments: {}, reasoning: 'r' }), done], () => toolSuccess('gateway'));
    tools.tools = [taskToolSpec('LOOKUP_ORDER'), taskToolSpec('Tap'), weather];
    const task = await service.start({ deviceId: 'phone-1', goal: 'look up the order', tools: [lookupOrder] });
    const asked = await eventOf(service, task.taskId, 'task.input_required');
    expect(asked.data).toEqual({ toolCall: { toolCallId: `${task.taskId}:0`, name: 'lookup_order', arguments: {}, kind: 'OBSERVATION', stepIndex: 0 } });
    expect(planner.seen[0].gatewayTools?.map((tool) => tool.name)).toEqual(['lookup_weather']);
    await service.submitToolResult(task.taskId, { toolCallId: `${task.taskId}:0`, outcome: 'ok', result: 'caller' });
    await finished(service, task.taskId);
    expect((await service.get(task.taskId)).steps[0].result).toEqual({ status: 'success', output: 'caller' });
    expect(tools.calls).toEqual([]);
  });

  it('sends an unknown name to the caller when the task has caller tools, as without a registry', async () => {
    const { service, tools } = setup([() => ({ type: 'tool_call', name: 'lookup_order', arguments: {}, reasoning: 'r' }), done], () => toolSuccess(1));
    const task = await service.start({ deviceId: 'phone-1', goal: 'look up the order', tools: [] });
    const asked = await eventOf(service, task.taskId, 'task.input_required');
    expect(asked.data.toolCall).toMatchObject({ name: 'lookup_order' });
    await service.cancel(task.taskId);
    expect(tools.calls).toEqual([]);
  });

  describe('approval of an ACTION tool', () => {
    it('waits for a person with pendingToolApproval, then calls the tool approved', async () => {
      const { service, tools } = setup([callRefund, done], () => toolSuccess({ refunded: true }));
      const task = await service.start({ deviceId: 'phone-1', goal: 'refund order A-17' });
      const asked = await eventOf(service, task.taskId, 'task.input_required');
      const toolCallId = `${task.taskId}:0`;
      const pending = {
        stepIndex: 0,
        toolCallId,
        name: 'refund_order',
        arguments: { orderId: 'A-17' },
        kind: 'ACTION',
        mode: 'REMOTE_PROXY',
        source: 'catalog:erp',
        reason: 'ACTION tool refund_order (catalog:erp) runs only once a person approves it',
      };
      expect(asked.data).toEqual({ toolApproval: pending });
      expect(await service.find(task.taskId)).toMatchObject({ status: 'input_required', pendingToolApproval: pending });
      expect(tools.calls).toEqual([]);

      const approved = await service.approve(task.taskId, true);
      expect(approved.pendingToolApproval).toBeUndefined();
      expect(approved.status).not.toBe('input_required');
      const events = await finished(service, task.taskId);
      expect(events.find((e) => e.type === 'task.resumed')?.data).toEqual({ stepIndex: 0 });
      expect(tools.calls.map((c) => c.options)).toEqual([{ toolCallId, approved: true, deadlineMs: DEFAULT_TASK_CASE_OPTIONS.gatewayToolTimeoutMs, scope: 'device:phone-1' }]);
      const stored = await service.get(task.taskId);
      expect(stored.steps[0].result).toEqual({ status: 'success', output: { refunded: true }, message: '{"refunded":true}' });
      expect(stored.status).toBe('completed');
    });

    it('denied: the step ends denied without a call, and the planner goes on', async () => {
      const { service, tools, planner } = setup([callRefund, done], () => toolSuccess({ refunded: true }));
      const task = await service.start({ deviceId: 'phone-1', goal: 'refund order A-17' });
      await eventOf(service, task.taskId, 'task.input_required');
      const denied = await service.approve(task.taskId, false);
      expect(denied.pendingToolApproval).toBeUndefined();
      expect(denied.status).not.toBe('canceled');
      await finished(service, task.taskId);
      const stored = await service.get(task.taskId);
      expect(stored.steps[0].result).toEqual({ status: 'denied', message: 'a person denied the call of refund_order' });
      expect(stored.status).toBe('completed');
      expect(planner.seen[1].history[0].result).toEqual({ status: 'denied', message: 'a person denied the call of refund_order' });
      expect(tools.calls).toEqual([]);
      await expect(service.approve(task.taskId, true)).rejects.toMatchObject({ code: 'TASK_STATE_CONFLICT' });
    });

    it('cancels a task waiting for the approval, without calling the tool', async () => {
      const { service, tools } = setup([callRefund, done], () => toolSuccess(1));
      const task = await service.start({ deviceId: 'phone-1', goal: 'refund order A-17' });
      await eventOf(service, task.taskId, 'task.input_required');
      const canceled = await service.cancel(task.taskId);
      expect(canceled).toMatchObject({ status: 'canceled', error: { code: 'CANCELED' } });
      expect(canceled.pendingToolApproval).toBeUndefined();
      expect(tools.calls).toEqual([]);
    });
  });

  it('cancel during a call aborts it: the step ends canceled ABORTED and the task canceled', async () => {
    let started!: () => void;
    const calling = new Promise<void>((resolve) => (started = resolve));
    const { service, tools } = setup([callWeather, done], ({ signal }) => {
      started();
      return new Promise((resolve) => signal.addEventListener('abort', () => resolve(toolFailure('ABORTED', 'the caller gave up')), { once: true }));
    });
    const task = await service.start({ deviceId: 'phone-1', goal: 'what is the weather in Oslo?' });
    await calling;
    const canceled = await service.cancel(task.taskId);
    expect(canceled).toMatchObject({ status: 'canceled', error: { code: 'CANCELED' } });
    expect(tools.calls[0].signal.aborted).toBe(true);
    const stored = await service.get(task.taskId);
    expect(stored.steps[0].result).toEqual({ status: 'canceled', errorCode: 'ABORTED', message: 'canceled while tool lookup_weather was being called; it may have run' });
  });

  it('cancels a task whose gateway tools are still being listed', async () => {
    const { service, tools, planner } = setup([callWeather, done], () => toolSuccess(1));
    let listing!: () => void;
    const listed = new Promise<void>((resolve) => (listing = resolve));
    tools.list = () => {
      listing();
      return new Promise(() => undefined);
    };
    const task = await service.start({ deviceId: 'phone-1', goal: 'weather' });
    await listed;
    expect(await service.cancel(task.taskId)).toMatchObject({ status: 'canceled', error: { code: 'CANCELED' } });
    expect(planner.seen).toEqual([]);
  });

  it('counts gateway tool steps toward maxSteps', async () => {
    const { service, tools } = setup([callWeather], () => toolSuccess('snow'));
    const task = await service.start({ deviceId: 'phone-1', goal: 'weather', maxSteps: 2 });
    await finished(service, task.taskId);
    expect(await service.find(task.taskId)).toMatchObject({ status: 'failed', error: { code: 'MAX_STEPS' } });
    expect(tools.calls.map((c) => c.options.toolCallId)).toEqual([`${task.taskId}:0`, `${task.taskId}:1`]);
  });
});
