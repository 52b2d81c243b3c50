import { filter, firstValueFrom, toArray } from 'rxjs';
import { type PlanDecision, type TaskEvent } from '@mobileclaw/domain';
import { domainRejection } from '@mobileclaw/domain/testing';
import { StableTreeSettler } from './screen-settling';
import { DEFAULT_TASK_CASE_OPTIONS } from './task-case.options';
import { TaskService } from './task.service';
import { TakeoverService, checkOnScreen } from './takeover.service';
import { InMemoryTaskRepository } from './testing/in-memory-task.repository';
import { InstantSettleTimer } from './testing/instant-settle-timer';
import { ManualControlLeases } from './testing/manual-control-leases';
import { ScriptedPhone } from './testing/scripted-phone';
import { ScriptedPlanner } from './testing/scripted-planner';

const AT = '2026-01-01T00:00:00.000Z';
const ADA = { holderId: 'page-ada', holder: 'Ada' };
const tapWifi = (): PlanDecision => ({ type: 'action', action: { command: 'click', x: 50, y: 25 }, reasoning: 'tap the Wi-Fi switch', elementIndex: 0 });
const done = (): PlanDecision => ({ type: 'done', summary: 'Wi-Fi is on', reasoning: 'the switch is checked' });

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A task service and a takeover service on one scripted phone, with leases the test ends by hand. */
function setup(script: ConstructorParameters<typeof ScriptedPlanner>[0]) {
  const phone = new ScriptedPhone(['phone-1']);
  const planner = new ScriptedPlanner(script);
  const repository = new InMemoryTaskRepository();
  const leases = new ManualControlLeases(AT);
  const settler = new StableTreeSettler({ timeoutMs: DEFAULT_TASK_CASE_OPTIONS.settleTimeoutMs, pollMs: DEFAULT_TASK_CASE_OPTIONS.settlePollMs }, new InstantSettleTimer());
  const service = new TaskService(phone, planner, repository, DEFAULT_TASK_CASE_OPTIONS, undefined, undefined, undefined, undefined, settler, undefined, undefined, leases);
  const takeover = new TakeoverService(phone, service, leases);
  return { phone, planner, repository, leases, service, takeover };
}

/** The first event of the task that matches, replayed from the store when it already happened. */
function eventOf(service: TaskService, taskId: string, match: (event: TaskEvent) => boolean): Promise<TaskEvent> {
  return firstValueFrom(service.events(taskId).pipe(filter(match)));
}

function allEvents(service: TaskService, taskId: string): Promise<TaskEvent[]> {
  return firstValueFrom(service.events(taskId).pipe(toArray()));
}

/** A planner step that reports when it is asked and answers when the test says. */
function gatedStep(): { step: () => Promise<PlanDecision>; asked: Promise<void>; answer: (decision: PlanDecision) => void } {
  const asked = deferred();
  const answer = deferred<PlanDecision>();
  return {
    step: () => {
      asked.resolve();
      return answer.promise;
    },
    asked: asked.promise,
    answer: answer.resolve,
  };
}

describe('TakeoverService: a person takes a phone over', () => {
  it('pauses the running task at once, does not send its planned action, records the person\'s tap as a human step, and resumes on hand back', async () => {
    const planning = gatedStep();
    // Step 0 is the agent's (dropped), 1 the person's, 2 the agent's again after the hand back.
    const { phone, service, takeover, repository } = setup([planning.step, done, done]);
    // One step of budget: the dropped step does not use it.
    const task = await service.start({ deviceId: 'phone-1', goal: 'turn on Wi-Fi', maxSteps: 1 });
    await planning.asked;

    const lease = await takeover.take('phone-1', ADA);
    expect(lease).toEqual({ deviceId: 'phone-1', holderId: 'page-ada', holder: 'Ada', since: AT, expiresAt: '2026-01-01T00:00:30.000Z' });
    expect(await service.find(task.taskId)).toMatchObject({ status: 'input_required', takeover: { reason: 'a person took over', holder: 'Ada', since: AT } });
    expect(service.pausedTaskOn('phone-1')).toBe(task.taskId);

    planning.answer(tapWifi());
    await eventOf(service, task.taskId, (e) => e.type === 'step.acted' && e.data.index === 0);
    expect(phone.calls.map((c) => c.command.command)).not.toContain('click');

    const outcome = await takeover.act('phone-1', 'page-ada', { command: 'click', x: 50, y: 25 });
    expect(outcome).toMatchObject({ taskId: task.taskId, stepIndex: 1, result: { command: 'click', status: 'success' } });
    expect(phone.wifi).toBe(true);
    expect(await service.find(task.taskId)).toMatchObject({ status: 'input_required', stepCount: 2 });

    takeover.handBack('phone-1', 'page-ada');
    const events = await allEvents(service, task.taskId);
    expect(events.map((e) => [e.type, e.data.index ?? e.data.status ?? null])).toEqual([
      ['task.accepted', null],
      ['task.started', null],
      ['step.started', 0],
      ['step.observed', 0],
      ['task.taken_over', 'input_required'],
      ['step.planned', 0],
      ['step.acted', 0],
      ['step.started', 1],
      ['step.observed', 1],
      ['step.planned', 1],
      ['step.acted', 1],
      ['task.handed_back', 'running'],
      ['step.started', 2],
      ['step.observed', 2],
      ['step.planned', 2],
      ['step.acted', 2],
      ['task.completed', 'completed'],
    ]);
    expect(events[4].data.takeover).toEqual({ reason: 'a person took over', holder: 'Ada', since: AT });
    expect(events[10].data).toMatchObject({ index: 1, actor: 'human', holder: 'Ada', result: { status: 'success' } });
    expect(events[11].data.holder).toBe('Ada');

    const stored = await service.get(task.taskId);
    expect(stored).toMatchObject({ status: 'completed', summary: 'Wi-Fi is on', stepCount: 3 });
    expect(stored.takeover).toBeUndefined();
    expect(stored.steps.map((s) => [s.index, s.actor ?? 'agent', s.result?.status])).toEqual([
      [0, 'agent', 'canceled'],
      [1, 'human', 'success'],
      [2, 'agent', 'success'],
    ]);
    expect(stored.steps[0].result).toEqual({ status: 'canceled', errorCode: 'DEVICE_CONTROLLED', message: 'not sent: Ada took over the phone' });
    expect(stored.steps[1]).toMatchObject({
      actor: 'human',
      holder: 'Ada',
      plan: { type: 'action', action: { command: 'click', x: 50, y: 25 }, reasoning: 'by Ada' },
      observation: { screenshotMime: 'image/png', screen: { width: 100, height: 200, rotation: 0 }, elementCount: 0 },
    });
    // The person's step shows the screen they acted on.
    expect(await repository.getScreenshot(task.taskId, 1)).toBeDefined();
    // After the hand back the loop looked at the screen afresh before planning.
    const handedBack = phone.calls.findIndex((c) => c.command.command === 'click');
    expect(phone.calls.slice(handedBack + 1).map((c) => c.command.command)).toEqual(['ui_tree', 'ui_tree', 'screenshot']);
  });

  it('lets an action already in flight finish and records it, then waits without observing until the hand back', async () => {
    const { phone, service, takeover } = setup([tapWifi, done]);
    const gate = deferred();
    const started = deferred();
    phone.gateNextAction = gate.promise;
    phone.actionStarted = started.resolve;
    const task = await service.start({ deviceId: 'phone-1', goal: 'turn on Wi-Fi' });
    await started.promise;

    await takeover.take('phone-1', ADA);
    expect((await service.find(task.taskId)).status).toBe('input_required');
    gate.resolve();
    await eventOf(service, task.taskId, (e) => e.type === 'step.acted' && e.data.index === 0);
    expect(phone.wifi).toBe(true);
    const callsWhileHeld = phone.calls.length;

    takeover.handBack('phone-1', 'page-ada');
    const events = await allEvents(service, task.taskId);
    expect(events.find((e) => e.type === 'step.acted')?.data.result).toEqual({ status: 'success' });
    // Nothing was asked of the phone between the action and the hand back.
    expect(phone.calls.slice(0, callsWhileHeld).at(-1)?.command.command).toBe('click');
    expect((await service.get(task.taskId)).status).toBe('completed');
  });

  it('starts a task on a held phone paused, without observing or planning until the hand back', async () => {
    const { phone, planner, service, takeover } = setup([done]);
    await takeover.take('phone-1', ADA);
    const task = await service.start({ deviceId: 'phone-1', goal: 'look' });
    const paused = await eventOf(service, task.taskId, (e) => e.type === 'task.taken_over');
    expect(paused.data).toEqual({ status: 'input_required', takeover: { reason: 'a person took over', holder: 'Ada', since: AT } });
    expect(await service.find(task.taskId)).toMatchObject({ status: 'input_required', takeover: { holder: 'Ada' } });
    expect(planner.seen).toHaveLength(0);
    expect(phone.calls).toHaveLength(0);

    takeover.handBack('phone-1', 'page-ada');
    await allEvents(service, task.taskId);
    expect((await service.get(task.taskId)).status).toBe('completed');
  });

  it('cancels a task while its phone is taken over; the planned action is never sent', async () => {
    const planning = gatedStep();
    const { phone, service, takeover } = setup([planning.step]);
    const task = await service.start({ deviceId: 'phone-1', goal: 'turn on Wi-Fi' });
    await planning.asked;
    await takeover.take('phone-1', ADA);
    planning.answer(tapWifi());
    await eventOf(service, task.taskId, (e) => e.type === 'step.acted');

    const canceled = await service.cancel(task.taskId, 'no longer needed');
    expect(canceled).toMatchObject({ status: 'canceled', error: { code: 'CANCELED', message: 'no longer needed' } });
    expect(canceled.takeover).toBeUndefined();
    expect(phone.calls.map((c) => c.command.command)).not.toContain('click');
    // The person still holds the phone: the lease is not the task's.
    expect(takeover.current('phone-1')?.holder).toBe('Ada');
  });

  it('keeps a task waiting for an approval waiting when its phone is taken over, and does not send the approved action while held', async () => {
    const pay = (): PlanDecision => ({ ...tapWifi(), approval: { reason: 'pays money' } } as PlanDecision);
    const { phone, service, takeover } = setup([pay, done]);
    const task = await service.start({ deviceId: 'phone-1', goal: 'pay' });
    await eventOf(service, task.taskId, (e) => e.type === 'task.input_required');

    await takeover.take('phone-1', ADA);
    expect(await service.find(task.taskId)).toMatchObject({ status: 'input_required', pendingAction: { stepIndex: 0, reason: 'pays money' }, takeover: { holder: 'Ada' } });
    await service.approve(task.taskId, true);
    // Approved, the step is dropped unsent and the task waits for the hand back again.
    const dropped = await eventOf(service, task.taskId, (e) => e.type === 'step.acted' && e.data.index === 0);
    expect(dropped.data.result).toEqual({ status: 'canceled', errorCode: 'DEVICE_CONTROLLED', message: 'not sent: Ada took over the phone' });
    await eventOf(service, task.taskId, (e) => e.type === 'task.taken_over' && e.id > dropped.id);
    expect(await service.find(task.taskId)).toMatchObject({ status: 'input_required', takeover: { holder: 'Ada' } });
    expect(phone.calls.map((c) => c.command.command)).not.toContain('click');

    takeover.handBack('phone-1', 'page-ada');
    const events = await allEvents(service, task.taskId);
    expect(events.filter((e) => e.type === 'step.acted').map((e) => (e.data.result as { status: string }).status)).toEqual(['canceled', 'success']);
    expect((await service.get(task.taskId)).status).toBe('completed');
  });

  it.each(['expired', 'disconnected'] as const)('resumes the task when the lease ends by itself (%s)', async (reason) => {
    const { service, takeover, leases } = setup([done]);
    await takeover.take('phone-1', ADA);
    const task = await service.start({ deviceId: 'phone-1', goal: 'look' });
    await eventOf(service, task.taskId, (e) => e.type === 'task.taken_over');

    leases.end('phone-1', reason);
    const events = await allEvents(service, task.taskId);
    expect(events.map((e) => e.type)).toContain('task.handed_back');
    expect((await service.get(task.taskId)).status).toBe('completed');
  });

  it('refuses a second person with DEVICE_CONTROLLED naming the holder, and takeover actions by anyone but the holder', async () => {
    const { phone, takeover } = setup([done]);
    await takeover.take('phone-1', ADA);
    const second = await domainRejection(takeover.take('phone-1', { holderId: 'page-bob', holder: 'Bob' }));
    expect(second).toMatchObject({ code: 'DEVICE_CONTROLLED', controller: { holder: 'Ada', since: AT, expiresAt: '2026-01-01T00:00:30.000Z' } });
    expect(second.message).toBe(`Ada controls phone-1 since ${AT}; try again once they hand it back`);
    await expect(takeover.act('phone-1', 'page-bob', { command: 'back' })).rejects.toMatchObject({ code: 'DEVICE_CONTROLLED' });
    expect(() => takeover.handBack('phone-1', 'page-bob')).toThrow(expect.objectContaining({ code: 'DEVICE_CONTROLLED' }));

    takeover.handBack('phone-1', 'page-ada');
    await expect(takeover.act('phone-1', 'page-ada', { command: 'back' })).rejects.toMatchObject({ code: 'CONTROL_NOT_HELD' });
    expect(phone.calls).toHaveLength(0);
  });

  it('sends the holder\'s action without a task when none runs on the phone', async () => {
    const { phone, takeover } = setup([done]);
    await takeover.take('phone-1', ADA);
    const outcome = await takeover.act('phone-1', 'page-ada', { command: 'input', text: 'hello' });
    expect(outcome.taskId).toBeUndefined();
    expect(phone.field).toBe('hello');
  });

  it('keeps the holder\'s name NFC-normalised and trimmed, and refuses a bidi override before taking the phone', async () => {
    const { leases, takeover } = setup([done]);
    const refused = await domainRejection(takeover.take('phone-1', { holderId: 'page-eve', holder: '\u202EevE' }));
    expect(refused).toMatchObject({ code: 'VALIDATION_FAILED', fieldErrors: [{ field: 'holder' }] });
    expect(leases.current('phone-1')).toBeUndefined();
    expect((await takeover.take('phone-1', { holderId: 'page-zoe', holder: '  Zoe\u0308 ' })).holder).toBe('Zo\u00EB');
    expect(leases.current('phone-1')?.holder).toBe('Zo\u00EB');
  });

  it('records at most maxStepsLimit human steps per task; the next action is refused, neither sent nor recorded', async () => {
    const planning = gatedStep();
    const { phone, service, takeover } = setup([planning.step]);
    const task = await service.start({ deviceId: 'phone-1', goal: 'look' });
    await planning.asked;
    await takeover.take('phone-1', ADA);
    await eventOf(service, task.taskId, (e) => e.type === 'task.taken_over');
    const limit = DEFAULT_TASK_CASE_OPTIONS.maxStepsLimit;
    for (let i = 0; i < limit; i++) expect((await takeover.act('phone-1', 'page-ada', { command: 'back' })).taskId).toBe(task.taskId);
    const sent = phone.calls.length;
    const refused = await domainRejection(takeover.act('phone-1', 'page-ada', { command: 'back' }));
    expect({ code: refused.code, message: refused.message }).toEqual({
      code: 'TASK_STATE_CONFLICT',
      message: `task ${task.taskId} already records ${limit} human steps, the most one task keeps: hand the phone back, or cancel the task to act on the phone unrecorded`,
    });
    expect(phone.calls).toHaveLength(sent);
    expect((await service.get(task.taskId)).steps.filter((step) => step.actor === 'human')).toHaveLength(limit);
    await service.cancel(task.taskId);
    planning.answer(done());
  });

  it('checks points against the screen in device px', () => {
    const screen = { width: 1080, height: 2400 };
    expect(() => checkOnScreen({ command: 'click', x: 1079, y: 2399 }, screen)).not.toThrow();
    expect(() => checkOnScreen({ command: 'click', x: 1080, y: 10 }, screen)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', fieldErrors: [{ field: 'x', message: 'x must be within the screen: 0 ≤ x < 1080 px (it is 1080)' }] }),
    );
    expect(() => checkOnScreen({ command: 'swipe', x1: 10, y1: 10, x2: 10, y2: 2400 }, screen)).toThrow(
      expect.objectContaining({ fieldErrors: [{ field: 'y2', message: 'y2 must be within the screen: 0 ≤ y2 < 2400 px (it is 2400)' }] }),
    );
    expect(() => checkOnScreen({ command: 'back' }, screen)).not.toThrow();
  });
});
