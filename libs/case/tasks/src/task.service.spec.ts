import { AsyncLocalStorage } from 'node:async_hooks';
import { firstValueFrom, toArray } from 'rxjs';
import type { Observable } from 'rxjs';
import { MobileClawError, TaskContext, TaskEventBus, TaskMetrics, type PlanDecision, type Task, type TaskEvent, type TaskLoad, type TaskScope, type TaskStep } from '@mobileclaw/domain';
import { InProcessTaskEventBus } from './in-process-task-event-bus';
import { StableTreeSettler } from './screen-settling';
import { DEFAULT_TASK_CASE_OPTIONS, type TaskCaseOptions } from './task-case.options';
import { TaskService } from './task.service';
import { SettableClock } from '@mobileclaw/domain/testing';
import { InMemoryTaskRepository } from './testing/in-memory-task.repository';
import { InstantSettleTimer } from './testing/instant-settle-timer';
import { ScriptedPhone } from './testing/scripted-phone';
import { ScriptedPlanner } from './testing/scripted-planner';
import { SequentialIdSource } from './testing/sequential-id-source';

const tapWifi = (): PlanDecision => ({ type: 'action', action: { command: 'click', x: 50, y: 25 }, reasoning: 'tap the Wi-Fi switch', elementIndex: 0 });
const done = (): PlanDecision => ({ type: 'done', summary: 'Wi-Fi is on', reasoning: 'the switch is checked' });

/** A service on a scripted phone whose settle waits take no real time (see {@link InstantSettleTimer}). */
function setup(script: ConstructorParameters<typeof ScriptedPlanner>[0], options: Partial<TaskCaseOptions> = {}, devices = ['phone-1']) {
  const phone = new ScriptedPhone(devices);
  const planner = new ScriptedPlanner(script);
  const repository = new InMemoryTaskRepository();
  const all = { ...DEFAULT_TASK_CASE_OPTIONS, ...options };
  const timer = new InstantSettleTimer();
  const service = new TaskService(phone, planner, repository, all, undefined, undefined, undefined, undefined, instantSettler(all, timer));
  return { phone, planner, repository, service, timer };
}

/** The default settler on `options`, its pauses taken on `timer`. */
function instantSettler(options: TaskCaseOptions, timer = new InstantSettleTimer()): StableTreeSettler {
  return new StableTreeSettler({ timeoutMs: options.settleTimeoutMs, pollMs: options.settlePollMs }, timer);
}

async function finished(service: TaskService, taskId: string): Promise<TaskEvent[]> {
  return firstValueFrom(service.events(taskId).pipe(toArray()));
}

describe('TaskService (RunTask loop)', () => {
  it('observes, plans, acts and records each step until done, with gap-free events', async () => {
    const { phone, service, repository, planner } = setup([tapWifi, done]);
    const task = await service.start({ deviceId: 'phone-1', goal: 'turn on Wi-Fi' });
    expect(task.status).toBe('running');
    const events = await finished(service, task.taskId);
    expect(events.map((e) => e.type)).toEqual([
      'task.accepted',
      'task.started',
      'step.started',
      'step.observed',
      'step.planned',
      'step.acted',
      'step.started',
      'step.observed',
      'step.planned',
      'step.acted',
      'task.completed',
    ]);
    expect(events.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(phone.wifi).toBe(true);

    const stored = await service.get(task.taskId);
    expect(stored).toMatchObject({ status: 'completed', summary: 'Wi-Fi is on', stepCount: 2, planner: 'scripted' });
    expect(stored.steps).toHaveLength(2);
    const [first, second] = stored.steps;
    // The stored step names the screenshot's type, not a URL: URLs are the REST layer's.
    expect(first.observation).toEqual({
      frameId: 'f1',
      screenshotMime: 'image/png',
      screen: { width: 100, height: 200, rotation: 0 },
      elementCount: 2,
      package: 'com.android.settings',
      settled: true,
    });
    // The switch flipped on the next observation: the click is verified.
    expect(first.result).toEqual({ status: 'success', verified: true });
    // Two equal trees 200 ms apart settled the screen; the second is the observation's tree, so capture
    // (2 ms) and transfer (5 - 1 queued - 2 ms) are the screenshot's alone.
    expect(first.timings).toEqual({ settleMs: 200, captureMs: 2, transferMs: 2, planningMs: expect.any(Number), actionMs: expect.any(Number) });
    expect(phone.calls.map((c) => c.command.command)).toEqual(['ui_tree', 'ui_tree', 'screenshot', 'click', 'ui_tree', 'ui_tree', 'screenshot']);
    // The loop records what each decision acted on: the tapped switch, then the same switch as the final screen shows it.
    const wifi = { type: 'Switch', text: 'Wi-Fi', label: 'Wi-Fi', package: 'com.android.settings', bounds: [0, 0, 100, 50], checkable: true };
    expect(first.plan).toMatchObject({ type: 'action', target: { ...wifi, checked: false } });
    expect(second.plan).toEqual({ ...done(), evidence: { ...wifi, checked: true } });
    // The action carried the frame it was planned on.
    expect(phone.calls.find((c) => c.command.command === 'click')).toEqual({ deviceId: 'phone-1', command: { command: 'click', x: 50, y: 25 }, frameId: 'f1' });
    expect(Buffer.from((await repository.getScreenshot(task.taskId, 1))!.bytes).toString()).toBe('png-2');
    // The planner saw the compact elements and, at step 1, the history of step 0 with what it was planned on.
    expect(planner.seen[0].observation.elements[0]).toMatchObject({ index: 0, type: 'Switch', text: 'Wi-Fi', checked: false, center: [50, 25] });
    expect(planner.seen[1].history).toStrictEqual([
      {
        index: 0,
        decision: { ...tapWifi(), target: { ...wifi, checked: false } },
        result: { status: 'success', verified: true },
        observation: { elements: planner.seen[0].observation.elements, package: 'com.android.settings' },
      },
    ]);
    expect(events[7].data.verifiedStep).toEqual({ index: 0, verified: true });
  });

  it('verifies typed text, and marks an action unverified when the next screen contradicts it', async () => {
    const typed = setup([() => ({ type: 'action', action: { command: 'input', text: 'hello 世界' }, reasoning: 'type' }), done]);
    const t1 = await typed.service.start({ deviceId: 'phone-1', goal: 'type hello' });
    await finished(typed.service, t1.taskId);
    expect(typed.phone.field).toBe('hello 世界');
    expect((await typed.service.get(t1.taskId)).steps[0].result).toEqual({ status: 'success', verified: true });

    const missed = setup([tapWifi, done]);
    missed.phone.inert = true;
    const t2 = await missed.service.start({ deviceId: 'phone-1', goal: 'turn on Wi-Fi' });
    await finished(missed.service, t2.taskId);
    const stored = await missed.service.get(t2.taskId);
    expect(stored.steps[0].result).toEqual({ status: 'success', verified: false });
    // `done` right after it is not a success: nothing on screen confirms the goal.
    expect(stored).toMatchObject({
      status: 'failed',
      error: { code: 'NO_EFFECT', message: 'the last action (tap on "Wi-Fi" at (50, 25)) had no visible effect (the switch "Wi-Fi" did not flip), so the goal is not confirmed' },
    });
  });

  it('queues a second task for a busy phone with its position, and refuses it when asked not to wait', async () => {
    const { phone, service } = setup([tapWifi, done]);
    phone.hangNextAction = true;
    const started = new Promise<void>((resolve) => (phone.actionStarted = resolve));
    const first = await service.start({ deviceId: 'phone-1', goal: 'first' });
    await started;
    const second = await service.start({ deviceId: 'phone-1', goal: 'second' });
    const third = await service.start({ deviceId: 'phone-1', goal: 'third' });
    expect(second).toMatchObject({ status: 'queued', queuePosition: 1 });
    expect(third).toMatchObject({ status: 'queued', queuePosition: 2 });
    await expect(service.start({ deviceId: 'phone-1', goal: 'x', onBusy: 'reject' })).rejects.toMatchObject({ code: 'DEVICE_BUSY' });

    // Canceling the running task lets the queue move on: the second starts, the third moves up.
    const canceled = await service.cancel(first.taskId);
    expect(canceled).toMatchObject({ status: 'canceled', error: { code: 'CANCELED' } });
    expect(phone.sawAbort).toBe(true);
    // The action was already sent when the task was canceled: the step says so.
    expect((await service.get(first.taskId)).steps[0].result).toEqual({
      status: 'canceled',
      errorCode: 'ABORTED',
      message: 'canceled while the action was in flight; the phone may have performed it',
    });
    expect((await finished(service, first.taskId)).map((e) => e.type).slice(-2)).toEqual(['step.acted', 'task.canceled']);
    const thirdEvents = await finished(service, third.taskId);
    expect(thirdEvents.filter((e) => e.type === 'task.queued').map((e) => e.data.position)).toEqual([2, 1]);
    expect((await service.get(second.taskId)).status).toBe('completed');
    expect((await service.get(third.taskId)).status).toBe('completed');
  });

  it('cancels a queued task without running it', async () => {
    const { phone, service } = setup([tapWifi, done]);
    phone.hangNextAction = true;
    const started = new Promise<void>((resolve) => (phone.actionStarted = resolve));
    const first = await service.start({ deviceId: 'phone-1', goal: 'first' });
    await started;
    const second = await service.start({ deviceId: 'phone-1', goal: 'second' });
    expect(await service.cancel(second.taskId)).toMatchObject({ status: 'canceled', error: { code: 'CANCELED' } });
    expect((await finished(service, second.taskId)).map((e) => e.type)).toEqual(['task.accepted', 'task.queued', 'task.canceled']);
    await expect(service.cancel(second.taskId)).rejects.toMatchObject({ code: 'TASK_STATE_CONFLICT' });
    await expect(service.cancel('nope')).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
    await service.cancel(first.taskId);
  });

  it('lets exactly one of several cancels at once win, running or queued; the others get TASK_STATE_CONFLICT', async () => {
    const { phone, service } = setup([tapWifi, done]);
    phone.hangNextAction = true;
    const started = new Promise<void>((resolve) => (phone.actionStarted = resolve));
    const first = await service.start({ deviceId: 'phone-1', goal: 'first' });
    await started;
    const second = await service.start({ deviceId: 'phone-1', goal: 'second' });
    for (const taskId of [second.taskId, first.taskId]) {
      const outcomes = await Promise.allSettled([1, 2, 3, 4, 5].map(() => service.cancel(taskId)));
      expect(outcomes.filter((o) => o.status === 'fulfilled').map((o) => (o as PromiseFulfilledResult<{ status: string }>).value.status)).toEqual(['canceled']);
      expect(outcomes.filter((o) => o.status === 'rejected').map((o) => ({ code: (o as PromiseRejectedResult).reason.code, message: (o as PromiseRejectedResult).reason.message }))).toEqual(
        Array(4).fill({ code: 'TASK_STATE_CONFLICT', message: `task ${taskId} is already canceled` }),
      );
      expect((await finished(service, taskId)).filter((e) => e.type === 'task.canceled')).toHaveLength(1);
    }
  });

  it('tells the id of a task\'s last recorded event', async () => {
    const { service } = setup([tapWifi, done]);
    const task = await service.start({ deviceId: 'phone-1', goal: 'Turn on Wi-Fi' });
    const events = await finished(service, task.taskId);
    expect(await service.lastEventId(task.taskId)).toBe(events.at(-1)!.id);
    await expect(service.lastEventId('nope')).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
  });

  it('pauses a sensitive action for approval, then runs it when approved', async () => {
    const { phone, service } = setup([
      () => ({ ...(tapWifi() as Extract<PlanDecision, { type: 'action' }>), approval: { reason: 'sends money' } }),
      done,
    ]);
    const task = await service.start({ deviceId: 'phone-1', goal: 'pay' });
    const events: TaskEvent[] = [];
    const waiting = new Promise<void>((resolve) =>
      service.events(task.taskId).subscribe((e) => {
        events.push(e);
        if (e.type === 'task.input_required') resolve();
      }),
    );
    await waiting;
    const paused = await service.get(task.taskId);
    expect(paused).toMatchObject({ status: 'input_required', pendingAction: { stepIndex: 0, action: { command: 'click', x: 50, y: 25 }, reason: 'sends money' } });
    expect(phone.wifi).toBe(false);
    await expect(service.approve('nope', true)).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
    expect(await service.approve(task.taskId, true)).toMatchObject({ status: 'running' });
    await service.idle();
    expect(phone.wifi).toBe(true);
    expect(events.map((e) => e.type)).toContain('task.resumed');
    expect((await service.get(task.taskId)).status).toBe('completed');
    await expect(service.approve(task.taskId, true)).rejects.toMatchObject({ code: 'TASK_STATE_CONFLICT' });
  });

  it('ends the task canceled with APPROVAL_DENIED when a human denies, without acting', async () => {
    const { phone, service } = setup([() => ({ type: 'action', action: { command: 'click', x: 50, y: 25 }, reasoning: 'r', approval: { reason: 'deletes' } })]);
    const task = await service.start({ deviceId: 'phone-1', goal: 'delete' });
    await new Promise<void>((resolve) => service.events(task.taskId).subscribe((e) => e.type === 'task.input_required' && resolve()));
    const ended = await service.approve(task.taskId, false);
    expect(ended).toMatchObject({ status: 'canceled', error: { code: 'APPROVAL_DENIED' } });
    expect(phone.calls.some((c) => c.command.command === 'click')).toBe(false);
    expect((await service.get(task.taskId)).steps[0].result).toEqual({ status: 'denied', message: 'a human denied the action' });
  });

  it('asks for approval on its own when the target element looks like a payment', async () => {
    const { service } = setup([() => ({ type: 'action', action: { command: 'click', x: 50, y: 80 }, reasoning: 'r' })]);
    const phone = (service as unknown as { devices: ScriptedPhone }).devices;
    phone.field = 'Pay now';
    const task = await service.start({ deviceId: 'phone-1', goal: 'buy' });
    await new Promise<void>((resolve) => service.events(task.taskId).subscribe((e) => e.type === 'task.input_required' && resolve()));
    expect((await service.get(task.taskId)).pendingAction?.reason).toContain('Pay now');
    await service.cancel(task.taskId);
    expect((await service.get(task.taskId)).status).toBe('canceled');
  });

  it('fails with the reason when the planner gives up, throws, or the budget runs out', async () => {
    const gaveUp = setup([() => ({ type: 'fail', reason: 'no such app', reasoning: 'r' })]);
    const t1 = await gaveUp.service.start({ deviceId: 'phone-1', goal: 'x' });
    await finished(gaveUp.service, t1.taskId);
    expect(await gaveUp.service.get(t1.taskId)).toMatchObject({ status: 'failed', error: { code: 'GOAL_FAILED', message: 'no such app' } });

    const threw = setup([() => Promise.reject(new Error('model answered garbage 3 times'))]);
    const t2 = await threw.service.start({ deviceId: 'phone-1', goal: 'x' });
    await finished(threw.service, t2.taskId);
    expect(await threw.service.get(t2.taskId)).toMatchObject({ status: 'failed', error: { code: 'PLANNER_ERROR', message: 'model answered garbage 3 times' } });

    // Each tap flips the switch: every action has its effect, and only the budget ends the task.
    const budget = setup([tapWifi]);
    const t3 = await budget.service.start({ deviceId: 'phone-1', goal: 'x', maxSteps: 3 });
    await finished(budget.service, t3.taskId);
    expect(await budget.service.get(t3.taskId)).toMatchObject({ status: 'failed', stepCount: 3, error: { code: 'MAX_STEPS' } });
  });

  it('records the progress a planner reports as step.planning events before step.planned', async () => {
    const { service } = setup([
      (ctx) => {
        ctx.onProgress?.({ attempt: 1, maxAttempts: 3 });
        ctx.onProgress?.({ attempt: 2, maxAttempts: 3 });
        return done();
      },
    ]);
    const task = await service.start({ deviceId: 'phone-1', goal: 'x' });
    const events = await finished(service, task.taskId);
    expect(events.map((e) => e.type)).toEqual(['task.accepted', 'task.started', 'step.started', 'step.observed', 'step.planning', 'step.planning', 'step.planned', 'step.acted', 'task.completed']);
    expect(events.filter((e) => e.type === 'step.planning').map((e) => e.data)).toEqual([
      { index: 0, attempt: 1, maxAttempts: 3 },
      { index: 0, attempt: 2, maxAttempts: 3 },
    ]);
    expect(events.map((e) => e.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  describe('planning deadline', () => {
    beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
    afterEach(() => jest.useRealTimers());

    it('aborts a planner that never answers after planningTimeoutMs, fails the task with PLANNER_ERROR and frees the phone', async () => {
      let signal: AbortSignal | undefined;
      let called!: () => void;
      const planning = new Promise<void>((resolve) => (called = resolve));
      const { service } = setup(
        [
          (ctx) => {
            if (ctx.goal === 'second') return done();
            signal = ctx.signal;
            ctx.onProgress?.({ attempt: 1, maxAttempts: 1 });
            called();
            // Ignores its signal and never settles, like a request to a model that never answers.
            return new Promise<PlanDecision>(() => undefined);
          },
        ],
        { planningTimeoutMs: 5_000 },
      );
      const first = await service.start({ deviceId: 'phone-1', goal: 'first' });
      await planning;
      const second = await service.start({ deviceId: 'phone-1', goal: 'second' });
      expect(second).toMatchObject({ status: 'queued', queuePosition: 1 });

      await jest.advanceTimersByTimeAsync(4_999);
      expect(signal?.aborted).toBe(false);
      expect((await service.get(first.taskId)).status).toBe('running');

      await jest.advanceTimersByTimeAsync(1);
      const events = await finished(service, first.taskId);
      expect(signal?.aborted).toBe(true);
      expect(events.map((e) => e.type).slice(-3)).toEqual(['step.observed', 'step.planning', 'task.failed']);
      expect(await service.get(first.taskId)).toMatchObject({
        status: 'failed',
        error: { code: 'PLANNER_ERROR', message: 'the planner (scripted) did not answer within 5000 ms' },
      });
      await finished(service, second.taskId);
      expect((await service.get(second.taskId)).status).toBe('completed');
    });

    it('clears the deadline of a planner that answers in time', async () => {
      const { service } = setup([() => done()], { planningTimeoutMs: 5_000 });
      const task = await service.start({ deviceId: 'phone-1', goal: 'x' });
      await finished(service, task.taskId);
      expect(jest.getTimerCount()).toBe(0);
      await jest.advanceTimersByTimeAsync(10_000);
      expect(await service.get(task.taskId)).toMatchObject({ status: 'completed' });
    });
  });

  it('fails at once when the phone disconnects mid-task, and goes on after a recoverable device error', async () => {
    const { phone, service } = setup([tapWifi, tapWifi, done]);
    phone.failNextAction = new MobileClawError('DEVICE_ERROR', 'tap outside screen', { deviceCode: 'OUT_OF_BOUNDS' });
    const task = await service.start({ deviceId: 'phone-1', goal: 'x' });
    await finished(service, task.taskId);
    const stored = await service.get(task.taskId);
    expect(stored.steps[0].result).toEqual({ status: 'error', errorCode: 'DEVICE_ERROR', message: 'OUT_OF_BOUNDS: tap outside screen' });
    expect(stored.status).toBe('completed');

    const gone = setup([tapWifi]);
    gone.phone.failNextAction = new MobileClawError('DEVICE_DISCONNECTED', 'phone-1 went away');
    const t2 = await gone.service.start({ deviceId: 'phone-1', goal: 'x' });
    await finished(gone.service, t2.taskId);
    expect(await gone.service.get(t2.taskId)).toMatchObject({ status: 'failed', stepCount: 1, error: { code: 'DEVICE_DISCONNECTED' } });
  });

  it('validates input and refuses unknown phones', async () => {
    const { service } = setup([done]);
    await expect(service.start({ deviceId: 'phone-9', goal: 'x' })).rejects.toMatchObject({ code: 'DEVICE_NOT_FOUND' });
    await expect(service.start({ deviceId: 'phone-1', goal: '   ' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', fieldErrors: [{ field: 'goal', message: 'goal must not be empty' }] });
    await expect(service.start({ deviceId: 'phone-1', goal: 'x', maxSteps: 0 })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(service.start({ deviceId: 'phone-1', goal: 'x', maxSteps: 1.5 })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    const goalError = async (goal: string) => ((await service.start({ deviceId: 'phone-1', goal }).catch((e) => e)) as MobileClawError).fieldErrors?.[0]?.message;
    expect(await goalError('\u200b\u200d \ufeff')).toBe('goal must not be empty');
    expect(await goalError('turn on \ud800 Wi-Fi')).toBe('goal must be well-formed Unicode text (it has a lone surrogate)');
    expect(await goalError('go\u0000home')).toBe('goal must not contain control characters');
    expect(await goalError('x'.repeat(2001))).toBe('goal must be at most 2000 characters (it has 2001)');
    // Length counts characters, not UTF-16 units: 2000 emoji fit.
    const emoji = await service.start({ deviceId: 'phone-1', goal: '👋'.repeat(2000) });
    expect(emoji.goal).toBe('👋'.repeat(2000));
    await service.cancel(emoji.taskId).catch(() => undefined);
  });

  it('refuses a task for a phone that is offline', async () => {
    const { service, phone } = setup([done]);
    const original = phone.getDevice.bind(phone);
    phone.getDevice = async (id: string) => ({ ...(await original(id)), status: 'offline', disconnectedAt: '2026-12-01T00:00:00.000Z' });
    await expect(service.start({ deviceId: 'phone-1', goal: 'x' })).rejects.toMatchObject({
      code: 'DEVICE_DISCONNECTED',
      deviceId: 'phone-1',
      message: 'device phone-1 is offline (since 2026-12-01T00:00:00.000Z)',
    });
  });

  it('says why a phone is unreachable when the gateway knows (e.g. adb: unauthorized)', async () => {
    const { service, phone } = setup([done]);
    const original = phone.getDevice.bind(phone);
    const statusReason = 'adb: unauthorized — accept the "Allow USB debugging?" prompt on the phone';
    phone.getDevice = async (id: string) => ({ ...(await original(id)), status: 'offline', disconnectedAt: '2026-12-01T00:00:00.000Z', statusReason });
    await expect(service.start({ deviceId: 'phone-1', goal: 'x' })).rejects.toMatchObject({
      code: 'DEVICE_DISCONNECTED',
      message: `device phone-1 is offline (since 2026-12-01T00:00:00.000Z; ${statusReason})`,
    });
  });

  it('resumes an event stream exactly after a given id, and gives a late client the whole history and the end', async () => {
    const { service } = setup([tapWifi, done]);
    const task = await service.start({ deviceId: 'phone-1', goal: 'x' });
    const all = await finished(service, task.taskId);
    const resumed = await firstValueFrom(service.events(task.taskId, 4).pipe(toArray()));
    expect(resumed.map((e) => e.id)).toEqual(all.slice(4).map((e) => e.id));
    expect(resumed[0].id).toBe(5);
    expect(await firstValueFrom(service.events(task.taskId, all.length).pipe(toArray()))).toEqual([]);
    await expect(firstValueFrom(service.events('nope'))).rejects.toMatchObject({ code: 'TASK_NOT_FOUND' });
  });

  it('follows a running task live from a mid-stream id with no gap or duplicate', async () => {
    const { phone, service } = setup([tapWifi, done]);
    phone.hangNextAction = true;
    const started = new Promise<void>((resolve) => (phone.actionStarted = resolve));
    const task = await service.start({ deviceId: 'phone-1', goal: 'x' });
    await started;
    const collected = firstValueFrom(service.events(task.taskId, 2).pipe(toArray()));
    await service.cancel(task.taskId);
    const ids = (await collected).map((e) => e.id);
    const all = (await finished(service, task.taskId)).map((e) => e.id);
    expect(ids).toEqual(all.filter((id) => id > 2));
  });

  it('records running and queued tasks as interrupted on shutdown, and unfinished ones at start-up', async () => {
    const { phone, service, repository } = setup([tapWifi, done]);
    phone.hangNextAction = true;
    const started = new Promise<void>((resolve) => (phone.actionStarted = resolve));
    const first = await service.start({ deviceId: 'phone-1', goal: 'first' });
    await started;
    const second = await service.start({ deviceId: 'phone-1', goal: 'second' });
    await service.beforeApplicationShutdown();
    expect(await repository.getTask(first.taskId)).toMatchObject({ status: 'interrupted', error: { code: 'INTERRUPTED' } });
    expect(await repository.getTask(second.taskId)).toMatchObject({ status: 'interrupted' });
    await expect(service.start({ deviceId: 'phone-1', goal: 'x' })).rejects.toMatchObject({ code: 'SHUTTING_DOWN' });

    // A task left `running` by a killed process is interrupted when the next one boots.
    const crashed = setup([done]);
    await crashed.repository.createTask({ taskId: 't-old', deviceId: 'phone-1', goal: 'g', status: 'running', maxSteps: 5, planner: 'p', createdAt: new Date().toISOString(), stepCount: 1 });
    await crashed.service.onApplicationBootstrap();
    expect(await crashed.repository.getTask('t-old')).toMatchObject({ status: 'interrupted', error: { code: 'INTERRUPTED' } });
    expect((await finished(crashed.service, 't-old')).map((e) => e.type)).toEqual(['task.interrupted']);
    await crashed.service.beforeApplicationShutdown();
  });
});

/** The fields of the `VALIDATION_FAILED` error a call rejects with. */
async function invalidFields(call: Promise<unknown>): Promise<string[] | undefined> {
  const err = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MobileClawError);
  expect((err as MobileClawError).code).toBe('VALIDATION_FAILED');
  return (err as MobileClawError).fieldErrors?.map((e) => e.field);
}

describe('InMemoryTaskRepository fails as the TaskRepository port says (as the SQLite adapter does)', () => {
  const task: Task = { taskId: 't-1', deviceId: 'phone-1', goal: 'g', status: 'running', maxSteps: 5, planner: 'p', createdAt: '2026-03-01T10:00:00.000Z', stepCount: 0 };
  const png = { mime: 'image/png', bytes: new Uint8Array([1, 2]) };
  const step = (index: number, taskId = task.taskId): TaskStep => ({ taskId, index, startedAt: task.createdAt, timings: { captureMs: 0, transferMs: 0, planningMs: 0, actionMs: 0 } });

  it('refuses a duplicate task with TASK_STATE_CONFLICT and keeps the stored one', async () => {
    const repository = new InMemoryTaskRepository();
    await repository.createTask(task);
    await expect(repository.createTask({ ...task, goal: 'other' })).rejects.toMatchObject({ name: 'MobileClawError', code: 'TASK_STATE_CONFLICT' });
    expect((await repository.getTask(task.taskId))?.goal).toBe('g');
  });

  it('refuses writes to a task that is not stored with TASK_NOT_FOUND, inserting nothing; reads find nothing', async () => {
    const repository = new InMemoryTaskRepository();
    for (const write of [
      repository.updateTask(task),
      repository.saveStep(step(0)),
      repository.appendEvent(task.taskId, 'task.started', {}),
      repository.saveScreenshot(task.taskId, 0, png),
    ]) {
      await expect(write).rejects.toMatchObject({ name: 'MobileClawError', code: 'TASK_NOT_FOUND' });
    }
    expect(await repository.getTask(task.taskId)).toBeUndefined();
    expect(await repository.listSteps(task.taskId)).toEqual([]);
    expect(await repository.listEvents(task.taskId)).toEqual([]);
    expect(await repository.getScreenshot(task.taskId, 0)).toBeUndefined();
  });

  it('prunes a finished task with its steps, events and screenshots', async () => {
    const repository = new InMemoryTaskRepository();
    await repository.createTask({ ...task, status: 'completed', endedAt: task.createdAt });
    await repository.saveStep(step(0));
    await repository.appendEvent(task.taskId, 'task.completed', {});
    await repository.saveScreenshot(task.taskId, 0, png);
    expect(await repository.prune({ maxTasks: 0 })).toBe(1);
    expect([await repository.getTask(task.taskId), await repository.listSteps(task.taskId), await repository.listEvents(task.taskId), await repository.getScreenshot(task.taskId, 0)]).toEqual([undefined, [], [], undefined]);
  });

  it('refuses bad arguments with VALIDATION_FAILED naming each field, and cursors it did not issue', async () => {
    const repository = new InMemoryTaskRepository();
    for (let i = 0; i < 3; i++) await repository.createTask({ ...task, taskId: `t-${i}` });
    const first = await repository.listTasks({ limit: 2 });
    expect(first.nextCursor).toBeDefined();
    expect((await repository.listTasks({ limit: 2, cursor: first.nextCursor })).tasks).toHaveLength(1);
    for (const cursor of ['', 'garbage!', '-1', '0', '1.0', ' 2', '02']) expect(await invalidFields(repository.listTasks({ limit: 2, cursor }))).toEqual(['cursor']);
    for (const limit of [0, 201, 2.5, Number.NaN]) expect(await invalidFields(repository.listTasks({ limit }))).toEqual(['limit']);
    expect(await invalidFields(repository.listTasks({ limit: 2, status: 'lost' as Task['status'] }))).toEqual(['status']);
    expect(await invalidFields(repository.saveStep(step(-1, 't-0')))).toEqual(['index']);
    expect(await invalidFields(repository.appendEvent('t-0', 'task.started', {}, 'soon'))).toEqual(['at']);
    expect(await invalidFields(repository.saveScreenshot('t-0', 1.5, { mime: 'png', bytes: [1] as unknown as Uint8Array }))).toEqual(['stepIndex', 'mime', 'bytes']);
    expect(await invalidFields(repository.interruptUnfinished('gw-a', 'restart', 'soon'))).toEqual(['at']);
    expect(await invalidFields(repository.prune({ maxAgeMs: -1, maxTasks: 1.5 }))).toEqual(['maxAgeMs', 'maxTasks']);
    expect(await repository.listEvents('t-0')).toEqual([]);
  });
});

describe('TaskService seams (clock, ids, event bus, instance ownership)', () => {
  const T0 = '2026-05-01T10:00:00.000Z';
  const T1 = '2026-05-01T10:00:01.000Z';
  const T2 = '2026-05-01T10:00:02.000Z';

  it('stamps every record with the injected clock and takes task ids from the injected source', async () => {
    const clock = new SettableClock(T0);
    const planner = new ScriptedPlanner([
      () => {
        clock.set(T1);
        return tapWifi();
      },
      () => {
        clock.set(T2);
        return done();
      },
    ]);
    const repository = new InMemoryTaskRepository();
    const options = { ...DEFAULT_TASK_CASE_OPTIONS, leaseMs: 60_000 };
    const service = new TaskService(new ScriptedPhone(), planner, repository, options, clock, new SequentialIdSource(), undefined, 'gw-a', instantSettler(options));

    const task = await service.start({ deviceId: 'phone-1', goal: 'turn on Wi-Fi' });
    expect(task).toMatchObject({ taskId: 'task-1', createdAt: T0, startedAt: T0, owner: { instanceId: 'gw-a', leaseExpiresAt: '2026-05-01T10:01:00.000Z' } });
    const events = await finished(service, 'task-1');
    expect(events.map((e) => [e.id, e.type, e.at])).toEqual([
      [1, 'task.accepted', T0],
      [2, 'task.started', T0],
      [3, 'step.started', T0],
      [4, 'step.observed', T0],
      [5, 'step.planned', T1],
      [6, 'step.acted', T1],
      [7, 'step.started', T1],
      [8, 'step.observed', T1],
      [9, 'step.planned', T2],
      [10, 'step.acted', T2],
      [11, 'task.completed', T2],
    ]);
    const stored = await service.get('task-1');
    // The claim was last renewed when step 1 was observed, at T1.
    expect(stored).toMatchObject({ status: 'completed', createdAt: T0, startedAt: T0, endedAt: T2, owner: { instanceId: 'gw-a', leaseExpiresAt: '2026-05-01T10:01:01.000Z' } });
    expect(stored.steps.map((step) => [step.startedAt, step.endedAt])).toEqual([
      [T0, T1],
      [T1, T2],
    ]);
    expect((await service.start({ deviceId: 'phone-1', goal: 'again' })).taskId).toBe('task-2');
    await service.idle();
  });

  it('publishes each event on the injected bus only after the repository stored it', async () => {
    const repository = new InMemoryTaskRepository();
    const publishedBeforeStored: number[] = [];
    const published: TaskEvent[] = [];
    class CheckingBus extends TaskEventBus {
      private readonly inner = new InProcessTaskEventBus();
      override async publish(event: TaskEvent): Promise<void> {
        if (!(await repository.listEvents(event.taskId)).some((e) => e.id === event.id)) publishedBeforeStored.push(event.id);
        published.push(event);
        await this.inner.publish(event);
      }
      override subscribe(taskId?: string): Observable<TaskEvent> {
        return this.inner.subscribe(taskId);
      }
    }
    const service = new TaskService(new ScriptedPhone(), new ScriptedPlanner([tapWifi, done]), repository, DEFAULT_TASK_CASE_OPTIONS, undefined, undefined, new CheckingBus(), undefined, instantSettler(DEFAULT_TASK_CASE_OPTIONS));
    const all: TaskEvent[] = [];
    service.allEvents$.subscribe((e) => all.push(e));
    const task = await service.start({ deviceId: 'phone-1', goal: 'turn on Wi-Fi' });
    const streamed = await finished(service, task.taskId);
    expect(publishedBeforeStored).toEqual([]);
    expect(published.map((e) => e.id)).toEqual(streamed.map((e) => e.id));
    expect(streamed).toEqual(await repository.listEvents(task.taskId));
    expect(all.map((e) => e.id)).toEqual(streamed.map((e) => e.id));
  });

  it('interrupts at start-up only its own, unowned and expired tasks, never one another live instance holds', async () => {
    const at = '2026-05-01T12:00:00.000Z';
    const repository = new InMemoryTaskRepository();
    const base: Omit<Task, 'taskId'> = { deviceId: 'phone-1', goal: 'g', status: 'running', maxSteps: 5, planner: 'p', createdAt: '2026-05-01T11:00:00.000Z', stepCount: 1 };
    await repository.createTask({ ...base, taskId: 'legacy' });
    await repository.createTask({ ...base, taskId: 'mine', owner: { instanceId: 'gw-a', leaseExpiresAt: '2026-05-01T12:05:00.000Z' } });
    await repository.createTask({ ...base, taskId: 'expired', status: 'queued', owner: { instanceId: 'gw-b', leaseExpiresAt: at } });
    await repository.createTask({ ...base, taskId: 'held', status: 'input_required', owner: { instanceId: 'gw-b', leaseExpiresAt: '2026-05-01T12:00:00.001Z' } });
    const service = new TaskService(new ScriptedPhone(), new ScriptedPlanner([done]), repository, DEFAULT_TASK_CASE_OPTIONS, new SettableClock(at), undefined, undefined, 'gw-a');

    await service.onApplicationBootstrap();
    for (const taskId of ['legacy', 'mine', 'expired']) {
      expect(await repository.getTask(taskId)).toMatchObject({ status: 'interrupted', endedAt: at, error: { code: 'INTERRUPTED', message: 'the gateway stopped while the task was unfinished' } });
      expect(await repository.listEvents(taskId)).toEqual([{ taskId, id: 1, type: 'task.interrupted', at, data: { reason: 'the gateway stopped while the task was unfinished', status: 'interrupted' } }]);
    }
    expect(await repository.getTask('held')).toMatchObject({ status: 'input_required' });
    expect(await repository.listEvents('held')).toEqual([]);
    await service.beforeApplicationShutdown();
  });
});

/** Every report of the task workflow, in order. */
class RecordingTaskMetrics extends TaskMetrics {
  readonly finished: [string, string | undefined][] = [];
  readonly phases: [string, number][] = [];
  readonly plannerFailures: string[] = [];
  load?: () => TaskLoad;
  taskFinished(status: string, errorCode?: string): void {
    this.finished.push([status, errorCode]);
  }
  stepPhaseMeasured(phase: string, durationMs: number): void {
    this.phases.push([phase, durationMs]);
  }
  plannerFailed(failure: string): void {
    this.plannerFailures.push(failure);
  }
  observeTasks(source: () => TaskLoad): void {
    this.load = source;
  }
}

/** Runs each task's work inside an AsyncLocalStorage holding its scope, as a host's logging context would. */
class StoreTaskContext extends TaskContext {
  readonly store = new AsyncLocalStorage<TaskScope>();
  run<T>(scope: TaskScope, work: () => Promise<T>): Promise<T> {
    return this.store.run(scope, work);
  }
}

describe('TaskService reports (metrics, task context)', () => {
  function setupReporting(script: ConstructorParameters<typeof ScriptedPlanner>[0]) {
    const phone = new ScriptedPhone(['phone-1']);
    const planner = new ScriptedPlanner(script);
    const options = { ...DEFAULT_TASK_CASE_OPTIONS };
    const metrics = new RecordingTaskMetrics();
    const context = new StoreTaskContext();
    const service = new TaskService(phone, planner, new InMemoryTaskRepository(), options, undefined, undefined, undefined, undefined, instantSettler(options), metrics, context);
    return { phone, planner, service, metrics, context };
  }

  it('reports tasks by state at each read, each finished task with its status and code, and each step phase', async () => {
    const scopes: (TaskScope | undefined)[] = [];
    const { phone, service, metrics, context } = setupReporting([
      (ctx) => {
        scopes.push(context.store.getStore());
        return ctx.stepIndex === 0 ? tapWifi() : done();
      },
    ]);
    expect(metrics.load?.()).toEqual({ queued: 0, running: 0, inputRequired: 0 });
    phone.hangNextAction = true;
    const started = new Promise<void>((resolve) => (phone.actionStarted = resolve));
    const first = await service.start({ deviceId: 'phone-1', goal: 'first' });
    await started;
    const second = await service.start({ deviceId: 'phone-1', goal: 'second' });
    const third = await service.start({ deviceId: 'phone-1', goal: 'third' });
    expect(metrics.load?.()).toEqual({ queued: 2, running: 1, inputRequired: 0 });
    await service.cancel(third.taskId);
    await service.cancel(first.taskId);
    await finished(service, second.taskId);
    // Reported right after the terminal record is stored (and published): once the runs have ended.
    await service.idle();
    expect(metrics.load?.()).toEqual({ queued: 0, running: 0, inputRequired: 0 });
    expect(metrics.finished).toEqual([
      ['canceled', 'CANCELED'],
      ['canceled', 'CANCELED'],
      ['completed', undefined],
    ]);
    // The planner ran in each task's own context.
    expect(scopes).toEqual([
      { taskId: first.taskId, deviceId: 'phone-1' },
      { taskId: second.taskId, deviceId: 'phone-1' },
      { taskId: second.taskId, deviceId: 'phone-1' },
    ]);
    // The completed task: two observations (settled over two equal trees 200 ms apart, 2 ms capture,
    // 2 ms transfer), two plans, one action (the first task's steps come first: one observation and plan).
    const secondTask = await service.get(second.taskId);
    const [step0, step1] = secondTask.steps;
    expect(metrics.phases.slice(4)).toEqual([
      ['settle', 200],
      ['capture', 2],
      ['transfer', 2],
      ['planning', step0.timings.planningMs],
      ['action', step0.timings.actionMs],
      ['settle', 200],
      ['capture', 2],
      ['transfer', 2],
      ['planning', step1.timings.planningMs],
    ]);
    expect(metrics.phases.slice(0, 4).map(([phase]) => phase)).toEqual(['settle', 'capture', 'transfer', 'planning']);
  });

  it('reports a planner that throws as a planner error', async () => {
    const { service, metrics } = setupReporting([() => Promise.reject(new Error('model down'))]);
    const task = await service.start({ deviceId: 'phone-1', goal: 'x' });
    await finished(service, task.taskId);
    await service.idle();
    expect(metrics.plannerFailures).toEqual(['error']);
    expect(metrics.finished).toEqual([['failed', 'PLANNER_ERROR']]);
  });
});
