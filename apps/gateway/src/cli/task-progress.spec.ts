import picocolors from 'picocolors';
import type { TaskEvent, TaskEventType } from '@mobileclaw/domain';
import { formatOutcome, formatStep, formatTimings } from './task-progress-format';
import { describeAction, TaskProgress, type ProgressUpdate } from './task-progress';

const plain = picocolors.createColors(false);
const TASK_ID = '4ea880ec-0fc4-40e8-8491-2ea28467e393';

/** Events numbered from 1, 100 ms apart from 2026-12-01T15:12:21.400Z. */
function events(...records: [TaskEventType, Record<string, unknown>][]): TaskEvent[] {
  return records.map(([type, data], i) => ({ taskId: TASK_ID, id: i + 1, type, at: new Date(Date.parse('2026-12-01T15:12:21.400Z') + i * 100).toISOString(), data }));
}

const accepted: [TaskEventType, Record<string, unknown>] = [
  'task.accepted',
  { task: { taskId: TASK_ID, deviceId: 'sim-1', goal: 'Turn on Wi-Fi', status: 'queued', maxSteps: 25, planner: 'rule-based', createdAt: '2026-12-01T15:12:21.400Z', stepCount: 0 } },
];
const observed = (index: number, verifiedStep?: { index: number; verified: boolean }): [TaskEventType, Record<string, unknown>] => [
  'step.observed',
  { index, observation: { screen: { width: 1080, height: 2400 }, elementCount: 9 }, timings: { settleMs: 216, captureMs: 100, transferMs: 6 }, ...(verifiedStep ? { verifiedStep } : {}) },
];
const acted = (index: number, result: Record<string, unknown> = { status: 'success' }, planningMs = 12): [TaskEventType, Record<string, unknown>] => [
  'step.acted',
  { index, result, timings: { settleMs: 216, captureMs: 100, transferMs: 6, planningMs, actionMs: 1 } },
];

function applyAll(list: TaskEvent[]): ProgressUpdate[] {
  const progress = new TaskProgress(TASK_ID);
  return list.flatMap((event) => progress.apply(event));
}

/** The lines that stay, as `--json`-less output without colours shows them. */
function lines(updates: ProgressUpdate[]): string[] {
  return updates.flatMap((u) =>
    u.kind === 'step'
      ? [`${u.step.outcome === 'ok' ? '✓' : '✗'} ${formatStep(u.step, plain)}`]
      : u.kind === 'notice'
        ? [`• ${u.text}`]
        : u.kind === 'approval'
          ? [`? step ${u.stepIndex + 1} · ${u.action}: ${u.reason}`]
          : u.kind === 'finished'
            ? [formatOutcome(u.outcome, plain)]
            : [],
  );
}

describe('TaskProgress: a task event stream as terminal lines', () => {
  it('shows each step once its verdict is known, with action, verdict, timings and reasoning, then the result', () => {
    const updates = applyAll(
      events(
        accepted,
        ['task.started', {}],
        ['step.started', { index: 0 }],
        observed(0),
        ['step.planned', { index: 0, plan: { type: 'action', action: { command: 'open', app: 'com.android.settings' }, reasoning: 'Open the Settings app.' }, planningMs: 12 }],
        acted(0),
        ['step.started', { index: 1 }],
        observed(1, { index: 0, verified: true }),
        ['step.planned', { index: 1, plan: { type: 'action', action: { command: 'click', x: 964, y: 326 }, reasoning: 'The Wi-Fi switch is off; tap it to turn Wi-Fi on.', elementIndex: 4 }, planningMs: 13 }],
        acted(1, { status: 'success' }, 13),
        ['step.started', { index: 2 }],
        observed(2, { index: 1, verified: true }),
        ['step.planned', { index: 2, plan: { type: 'done', summary: 'Wi-Fi is on.', reasoning: 'The screen shows the goal reached.' }, planningMs: 1 }],
        acted(2, { status: 'success' }, 1),
        ['task.completed', { status: 'completed', summary: 'Wi-Fi is on.' }],
      ),
    );
    expect(lines(updates)).toEqual([
      `• task ${TASK_ID} on sim-1: "Turn on Wi-Fi" (planner rule-based, at most 25 steps)`,
      '✓ step 1 · open com.android.settings · verified · 335 ms (settle 216, capture 100, transfer 6, planning 12, action 1)\n    Open the Settings app.',
      '✓ step 2 · click (964, 326) · verified · 336 ms (settle 216, capture 100, transfer 6, planning 13, action 1)\n    The Wi-Fi switch is off; tap it to turn Wi-Fi on.',
      '✓ step 3 · done · 324 ms (settle 216, capture 100, transfer 6, planning 1, action 1)\n    The screen shows the goal reached.',
      'completed in 3 steps, 1.3 s: Wi-Fi is on.',
    ]);
    expect(updates.filter((u) => u.kind === 'activity').map((u) => (u as { text: string }).text)).toEqual([
      'waiting to start',
      'starting',
      'step 1 · looking at the screen',
      'step 1 · planning',
      'step 1 · open com.android.settings · Open the Settings app.',
      'step 1 · open com.android.settings · checking the next screen',
      'step 2 · looking at the screen',
      'step 2 · planning',
      'step 2 · click (964, 326) · The Wi-Fi switch is off; tap it to turn Wi-Fi on.',
      'step 2 · click (964, 326) · checking the next screen',
      'step 3 · looking at the screen',
      'step 3 · planning',
    ]);
  });

  it('asks for approval with the pending action and shows a denied step and the canceled task', () => {
    const updates = applyAll(
      events(
        accepted,
        ['task.queued', { position: 1 }],
        ['task.started', {}],
        ['step.started', { index: 0 }],
        observed(0),
        ['step.planned', { index: 0, plan: { type: 'action', action: { command: 'click', x: 938, y: 2179 }, reasoning: 'Tap Send.', approval: { reason: 'sending a message to "Nina"' } }, planningMs: 3 }],
        ['task.input_required', { pendingAction: { stepIndex: 0, action: { command: 'click', x: 938, y: 2179 }, reason: 'sending a message to "Nina"' } }],
        acted(0, { status: 'denied' }, 3),
        ['task.canceled', { error: { code: 'APPROVAL_DENIED', message: 'a human denied: click (938, 2179)' } }],
      ),
    );
    expect(updates).toContainEqual({ kind: 'activity', text: 'queued behind the task running on sim-1 (position 1)' });
    expect(lines(updates).slice(1)).toEqual([
      '? step 1 · click (938, 2179): sending a message to "Nina"',
      '✗ step 1 · click (938, 2179) · denied · 326 ms (settle 216, capture 100, transfer 6, planning 3, action 1)\n    Tap Send.',
      'canceled (APPROVAL_DENIED) after 1 step, 600 ms: a human denied: click (938, 2179)',
    ]);
    expect(updates.at(-1)).toEqual({
      kind: 'finished',
      outcome: { taskId: TASK_ID, status: 'canceled', error: { code: 'APPROVAL_DENIED', message: 'a human denied: click (938, 2179)' }, steps: 1, durationMs: 600 },
    });
  });

  it('says the task waits for the caller\'s tool, not for this terminal, and shows the tool step', () => {
    const updates = applyAll(
      events(
        accepted,
        ['task.started', {}],
        ['step.started', { index: 0 }],
        observed(0),
        ['step.planned', { index: 0, plan: { type: 'tool_call', name: 'lookup_order', arguments: { orderId: 'A-17' }, reasoning: 'The goal asks for the order.', toolCallId: `${TASK_ID}:0` }, planningMs: 2 }],
        ['task.input_required', { toolCall: { toolCallId: `${TASK_ID}:0`, name: 'lookup_order', arguments: { orderId: 'A-17' }, stepIndex: 0 } }],
        ['task.resumed', { stepIndex: 0 }],
        acted(0, { status: 'success', output: { status: 'shipped' } }, 2),
      ),
    );
    expect(lines(updates).slice(1)).toEqual([
      `• waiting for the caller's tool lookup_order (${TASK_ID}:0)`,
      '• the caller answered lookup_order',
      '✓ step 1 · caller tool lookup_order · 325 ms (settle 216, capture 100, transfer 6, planning 2, action 1)\n    The goal asks for the order.',
    ]);
  });

  it("asks for approval of a gateway tool's call, then shows the tool step", () => {
    const plan = { type: 'tool_call', name: 'refund_order', arguments: { orderId: 'A-17' }, reasoning: 'Refund it.', toolCallId: `${TASK_ID}:0`, gatewayTool: { source: 'catalog:erp', kind: 'ACTION', mode: 'REMOTE_PROXY' } };
    const toolApproval = { stepIndex: 0, toolCallId: `${TASK_ID}:0`, name: 'refund_order', arguments: { orderId: 'A-17' }, kind: 'ACTION', mode: 'REMOTE_PROXY', source: 'catalog:erp', reason: 'ACTION tool refund_order (catalog:erp) runs only once a person approves it' };
    const updates = applyAll(
      events(
        accepted,
        ['task.started', {}],
        ['step.started', { index: 0 }],
        observed(0),
        ['step.planned', { index: 0, plan, planningMs: 2 }],
        ['task.input_required', { toolApproval }],
        ['task.resumed', { stepIndex: 0 }],
        acted(0, { status: 'success', output: { refunded: true }, message: '{"refunded":true}' }, 2),
      ),
    );
    expect(updates).toContainEqual({ kind: 'approval', taskId: TASK_ID, stepIndex: 0, action: 'call refund_order {"orderId":"A-17"} (catalog:erp)', reason: toolApproval.reason });
    expect(lines(updates).slice(1)).toEqual([
      '? step 1 · call refund_order {"orderId":"A-17"} (catalog:erp): ACTION tool refund_order (catalog:erp) runs only once a person approves it',
      '• answered: the call of refund_order',
      '✓ step 1 · gateway tool refund_order · 325 ms (settle 216, capture 100, transfer 6, planning 2, action 1)\n    Refund it.',
    ]);
  });

  it('marks an action the next screen contradicts, and a step the task ended before it ran', () => {
    const updates = applyAll(
      events(
        accepted,
        ['task.started', {}],
        ['step.started', { index: 0 }],
        observed(0),
        ['step.planned', { index: 0, plan: { type: 'action', action: { command: 'swipe', x1: 540, y1: 1800, x2: 540, y2: 600, durationMs: 300 }, reasoning: 'Scroll.' }, planningMs: 2 }],
        acted(0, { status: 'success' }, 2),
        ['step.started', { index: 1 }],
        observed(1, { index: 0, verified: false }),
        ['step.planned', { index: 1, plan: { type: 'action', action: { command: 'input', text: 'hi', clear: true }, reasoning: 'Type.' }, planningMs: 2 }],
        ['task.canceled', { status: 'canceled', error: { code: 'CANCELED', message: 'canceled by a caller' } }],
      ),
    );
    expect(lines(updates).slice(1)).toEqual([
      '✗ step 1 · swipe (540, 1800) → (540, 600) in 300 ms · not verified · 325 ms (settle 216, capture 100, transfer 6, planning 2, action 1)\n    Scroll.',
      '✗ step 2 · type "hi" (replacing the field) · not performed · 324 ms (settle 216, capture 100, transfer 6, planning 2)\n    Type.',
      'canceled (CANCELED) after 2 steps, 800 ms: canceled by a caller',
    ]);
  });

  it('shows a failed command and the planner giving up, its reason once: on the outcome line', () => {
    const updates = applyAll(
      events(
        accepted,
        ['task.started', {}],
        ['step.started', { index: 0 }],
        observed(0),
        ['step.planned', { index: 0, plan: { type: 'action', action: { command: 'open', app: 'com.example.none' }, reasoning: 'Open it.' }, planningMs: 2 }],
        acted(0, { status: 'error', errorCode: 'DEVICE_ERROR', message: 'app not found' }, 2),
        ['step.started', { index: 1 }],
        observed(1),
        ['step.planned', { index: 1, plan: { type: 'fail', reason: 'The app is not installed.', reasoning: 'Opening failed.' }, planningMs: 1 }],
        acted(1, { status: 'success' }, 1),
        ['task.failed', { error: { code: 'GOAL_FAILED', message: 'The app is not installed.' } }],
      ),
    );
    expect(lines(updates).slice(1)).toEqual([
      '✗ step 1 · open com.example.none · DEVICE_ERROR: app not found · 325 ms (settle 216, capture 100, transfer 6, planning 2, action 1)\n    Open it.',
      '✗ step 2 · give up · 324 ms (settle 216, capture 100, transfer 6, planning 1, action 1)\n    Opening failed.',
      'failed (GOAL_FAILED) after 2 steps, 900 ms: The app is not installed.',
    ]);
  });

  it('keeps a give-up\'s reason on its step when the task ended for another reason', () => {
    const updates = applyAll(
      events(
        accepted,
        ['task.started', {}],
        ['step.started', { index: 0 }],
        observed(0),
        ['step.planned', { index: 0, plan: { type: 'fail', reason: 'The app is not installed.', reasoning: 'Opening failed.' }, planningMs: 1 }],
        acted(0, { status: 'success' }, 1),
        ['task.canceled', { status: 'canceled', error: { code: 'CANCELED', message: 'canceled by a caller' } }],
      ),
    );
    expect(lines(updates).slice(1)).toEqual([
      '✗ step 1 · give up · 324 ms (settle 216, capture 100, transfer 6, planning 1, action 1)\n    The app is not installed.',
      'canceled (CANCELED) after 1 step, 500 ms: canceled by a caller',
    ]);
  });

  it('shows why a task was interrupted (task.interrupted carries only its reason)', () => {
    const updates = applyAll(
      events(accepted, ['task.started', {}], ['step.started', { index: 0 }], observed(0), ['task.interrupted', { status: 'interrupted', reason: 'the gateway shut down while the task was unfinished' }]),
    );
    expect(lines(updates).slice(1)).toEqual(['interrupted (INTERRUPTED) after 1 step, 300 ms: the gateway shut down while the task was unfinished']);
    expect(updates.at(-1)).toEqual({
      kind: 'finished',
      outcome: { taskId: TASK_ID, status: 'interrupted', error: { code: 'INTERRUPTED', message: 'the gateway shut down while the task was unfinished' }, steps: 1, durationMs: 300 },
    });
  });

  it('words every action as the live view does, and formats timings in ms', () => {
    expect(describeAction({ command: 'long_press', x: 1, y: 2, durationMs: 800 })).toBe('long press (1, 2) for 800 ms');
    expect(describeAction({ command: 'back' })).toBe('press Back');
    expect(describeAction({ command: 'home' })).toBe('press Home');
    expect(formatTimings({})).toBe('');
    expect(formatTimings({ captureMs: 1500.4, planningMs: 20 })).toBe('1.5 s (capture 1500, planning 20)');
  });
});
