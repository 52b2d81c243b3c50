import { firstValueFrom, toArray } from 'rxjs';
import type { PlanDecision, TaskEvent } from '@mobileclaw/domain';
import { StableTreeSettler, type SettleTimer } from './screen-settling';
import { DEFAULT_TASK_CASE_OPTIONS, type TaskCaseOptions } from './task-case.options';
import { TaskService } from './task.service';
import { InMemoryTaskRepository } from './testing/in-memory-task.repository';
import { InstantSettleTimer } from './testing/instant-settle-timer';
import { ScriptedPhone } from './testing/scripted-phone';
import { ScriptedPlanner } from './testing/scripted-planner';

const tapWifi = (): PlanDecision => ({ type: 'action', action: { command: 'click', x: 50, y: 25 }, reasoning: 'tap the Wi-Fi switch', elementIndex: 0 });
const done = (): PlanDecision => ({ type: 'done', summary: 'Wi-Fi is on', reasoning: 'the switch is checked' });

function setup(script: ConstructorParameters<typeof ScriptedPlanner>[0], options: Partial<TaskCaseOptions> = {}, timer: SettleTimer = new InstantSettleTimer()) {
  const phone = new ScriptedPhone();
  const planner = new ScriptedPlanner(script);
  const all = { ...DEFAULT_TASK_CASE_OPTIONS, ...options };
  const settler = new StableTreeSettler({ timeoutMs: all.settleTimeoutMs, pollMs: all.settlePollMs }, timer);
  const service = new TaskService(phone, planner, new InMemoryTaskRepository(), all, undefined, undefined, undefined, undefined, settler);
  return { phone, planner, service };
}

async function run(service: TaskService, goal = 'turn on Wi-Fi'): Promise<TaskEvent[]> {
  const task = await service.start({ deviceId: 'phone-1', goal });
  return firstValueFrom(service.events(task.taskId).pipe(toArray()));
}

const commands = (phone: ScriptedPhone): string[] => phone.calls.map((c) => c.command.command);

describe('TaskRunner observes a settled screen', () => {
  it('takes the screenshot once two consecutive UI trees are equal, before the first step and after each action', async () => {
    const timer = new InstantSettleTimer();
    const { phone, planner, service } = setup([tapWifi, done], {}, timer);
    // The screen changes twice (two frames of an animation), then stays.
    phone.animationFrames = 2;
    phone.animationFramesPerAction = 2;
    const events = await run(service);

    expect(commands(phone)).toEqual(['ui_tree', 'ui_tree', 'ui_tree', 'ui_tree', 'screenshot', 'click', 'ui_tree', 'ui_tree', 'ui_tree', 'ui_tree', 'screenshot']);
    expect(timer.pauses).toEqual([200, 200, 200, 200, 200, 200]);
    const stored = await service.get(events[0].taskId);
    expect(stored.status).toBe('completed');
    expect(stored.steps.map((s) => [s.observation?.settled, s.timings.settleMs, s.timings.captureMs, s.timings.transferMs])).toEqual([
      [true, 600, 2, 2],
      [true, 600, 2, 2],
    ]);
    expect(events.filter((e) => e.type === 'step.observed').map((e) => e.data.timings)).toEqual([
      { settleMs: 600, captureMs: 2, transferMs: 2 },
      { settleMs: 600, captureMs: 2, transferMs: 2 },
    ]);
    // The planner got the settled screen: the switch flipped, no animation frame in between.
    expect(planner.seen[1].observation.elements.map((e) => [e.type, e.checked])).toEqual([
      ['Switch', true],
      ['EditText', undefined],
    ]);
  });

  it('waits for an action slow to show instead of settling on the screen before it', async () => {
    const timer = new InstantSettleTimer();
    const { phone, service } = setup([tapWifi, done], {}, timer);
    // The first three trees after the tap still show the switch off.
    phone.reactionReads = 3;
    const events = await run(service);

    expect(commands(phone)).toEqual(['ui_tree', 'ui_tree', 'screenshot', 'click', 'ui_tree', 'ui_tree', 'ui_tree', 'ui_tree', 'ui_tree', 'screenshot']);
    const stored = await service.get(events[0].taskId);
    expect(stored).toMatchObject({ status: 'completed' });
    expect(stored.steps[0].result).toEqual({ status: 'success', verified: true });
    expect(stored.steps[1].timings.settleMs).toBe(800);
  });

  it('observes anyway when the wait runs out on a screen that keeps changing, and records that it did not settle', async () => {
    const timer = new InstantSettleTimer();
    const { phone, service } = setup([done], { settleTimeoutMs: 1000, settlePollMs: 300 }, timer);
    phone.animationFrames = Number.POSITIVE_INFINITY;
    const events = await run(service);

    // Reads at 0, 300, 600, 900 and 1000 ms; the last one is the observation's tree.
    expect(commands(phone)).toEqual(['ui_tree', 'ui_tree', 'ui_tree', 'ui_tree', 'ui_tree', 'screenshot']);
    expect(timer.pauses).toEqual([300, 300, 300, 100]);
    const [step] = (await service.get(events[0].taskId)).steps;
    expect(step.observation).toMatchObject({ settled: false, elementCount: 2 });
    expect(step.timings).toMatchObject({ settleMs: 1000, captureMs: 2, transferMs: 2 });
  });

  it('reads the tree again after the screenshot when the screen turned in between, and not at all while settling is off', async () => {
    const rotated = setup([done]);
    const execute = rotated.phone.execute.bind(rotated.phone);
    rotated.phone.execute = async (deviceId, command, options) => {
      if (command.command === 'screenshot') rotated.phone.screen = { width: 200, height: 100, rotation: 1 };
      return execute(deviceId, command, options);
    };
    const turned = await run(rotated.service);
    expect(commands(rotated.phone)).toEqual(['ui_tree', 'ui_tree', 'screenshot', 'ui_tree']);
    const [step] = (await rotated.service.get(turned[0].taskId)).steps;
    expect(step.observation).toMatchObject({ screen: { width: 200, height: 100, rotation: 1 }, settled: true });
    // The tree read after the screenshot counts in capture (2 + 1 ms) and transfer.
    expect(step.timings).toMatchObject({ settleMs: 200, captureMs: 3, transferMs: 5 });

    const off = setup([done], { settleTimeoutMs: 0 });
    const events = await run(off.service);
    expect(commands(off.phone)).toEqual(['screenshot', 'ui_tree']);
    const [unsettled] = (await off.service.get(events[0].taskId)).steps;
    expect(unsettled.observation).not.toHaveProperty('settled');
    expect(unsettled.timings).toMatchObject({ settleMs: 0, captureMs: 3, transferMs: 5 });
  });

  it('stops waiting when the task is canceled during a pause', async () => {
    let paused!: () => void;
    const pausing = new Promise<void>((resolve) => (paused = resolve));
    const hanging: SettleTimer = {
      now: () => 0,
      pause: (_ms, signal) =>
        new Promise<void>((_, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason));
          paused();
        }),
    };
    const { phone, service } = setup([done], {}, hanging);
    const task = await service.start({ deviceId: 'phone-1', goal: 'x' });
    await pausing;
    expect(await service.cancel(task.taskId)).toMatchObject({ status: 'canceled', error: { code: 'CANCELED' } });
    expect(commands(phone)).toEqual(['ui_tree']);
  });
});

describe('TaskRunner never ends completed on an action without visible effect', () => {
  it('fails with NO_EFFECT when the same action, planned again, again has no effect', async () => {
    const { phone, planner, service } = setup([tapWifi]);
    phone.inert = true;
    const events = await run(service);

    expect(events.map((e) => e.type).slice(-4)).toEqual(['step.acted', 'step.started', 'step.observed', 'task.failed']);
    expect(events.at(-2)?.data.verifiedStep).toEqual({ index: 1, verified: false });
    expect(await service.get(events[0].taskId)).toMatchObject({
      status: 'failed',
      stepCount: 3,
      error: { code: 'NO_EFFECT', message: 'the action (tap on "Wi-Fi" at (50, 25)) had no visible effect, also when tried again: the switch "Wi-Fi" did not flip' },
    });
    // The planner planned twice and saw the first tap's verdict before the second.
    expect(planner.seen).toHaveLength(2);
    expect(planner.seen[1].history.map((h) => h.result)).toEqual([{ status: 'success', verified: false }]);
    expect(commands(phone).filter((c) => c === 'click')).toHaveLength(2);
  });

  it('lets an action without effect be tried once more, or another action follow it', async () => {
    const retried = setup([
      tapWifi,
      () => {
        retried.phone.inert = false;
        return tapWifi();
      },
      done,
    ]);
    retried.phone.inert = true;
    const first = await run(retried.service);
    const stored = await retried.service.get(first[0].taskId);
    expect(stored).toMatchObject({ status: 'completed', summary: 'Wi-Fi is on' });
    expect(stored.steps.map((s) => s.result)).toEqual([
      { status: 'success', verified: false },
      { status: 'success', verified: true },
      { status: 'success' },
    ]);

    // Another tap on the switch (other coordinates) is a different action.
    const switched = setup([
      tapWifi,
      () => {
        switched.phone.inert = false;
        return { type: 'action', action: { command: 'click', x: 60, y: 20 }, reasoning: 'tap the switch itself' };
      },
      done,
    ]);
    switched.phone.inert = true;
    const events = await run(switched.service);
    expect(await switched.service.get(events[0].taskId)).toMatchObject({ status: 'completed', stepCount: 3 });
  });

  it('refuses done right after an action whose screen did not change, naming the action', async () => {
    const { phone, service } = setup([() => ({ type: 'action', action: { command: 'back' }, reasoning: 'leave' }), done]);
    const events = await run(service, 'go back');
    // A screen that stays as it was before the action is given the whole settle wait (2000 ms) to change.
    expect(commands(phone)).toEqual(['ui_tree', 'ui_tree', 'screenshot', 'back', ...Array(11).fill('ui_tree'), 'screenshot']);
    const [, after] = (await service.get(events[0].taskId)).steps;
    expect([after.observation?.settled, after.timings.settleMs]).toEqual([true, 2000]);
    expect(events.map((e) => e.type).slice(-3)).toEqual(['step.planned', 'step.acted', 'task.failed']);
    expect(await service.get(events[0].taskId)).toMatchObject({
      status: 'failed',
      stepCount: 2,
      error: { code: 'NO_EFFECT', message: 'the last action (press Back) had no visible effect (the screen did not change), so the goal is not confirmed' },
    });
  });

  it('does not count a swipe that changed nothing (the end of a list) as no effect', async () => {
    const swipe = (): PlanDecision => ({ type: 'action', action: { command: 'swipe', x1: 50, y1: 180, x2: 50, y2: 20 }, reasoning: 'scroll' });
    const { service } = setup([swipe, swipe, done]);
    const events = await run(service, 'scroll to the end');
    const stored = await service.get(events[0].taskId);
    expect(stored).toMatchObject({ status: 'completed', stepCount: 3 });
    expect(stored.steps.map((s) => s.result)).toEqual([{ status: 'success' }, { status: 'success' }, { status: 'success' }]);
  });
});
