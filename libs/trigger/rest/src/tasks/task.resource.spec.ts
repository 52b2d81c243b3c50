import type { StepObservation, Task, TaskEvent, TaskStep } from '@mobileclaw/domain';
import { stepScreenshotUrl, toTaskEventResource, toTaskPageResource, toTaskResource, toTaskWithStepsResource } from './task.resource';

const TASK_ID = '3fe78d53-5a0b-4c1e-9d3f-0a1b2c3d4e5f';
const task: Task = {
  taskId: TASK_ID,
  deviceId: 'sim-1',
  goal: 'Turn on Wi-Fi',
  status: 'running',
  maxSteps: 25,
  planner: 'rule-based',
  createdAt: '2026-05-01T10:00:00.000Z',
  startedAt: '2026-05-01T10:00:00.010Z',
  stepCount: 1,
  owner: { instanceId: 'gw-a', leaseExpiresAt: '2026-05-01T10:10:00.010Z' },
};
const { owner: _owner, ...shownTask } = task;
const observation: StepObservation = { frameId: 'f1', screenshotMime: 'image/png', screen: { width: 1080, height: 2400, rotation: 0 }, elementCount: 9, package: 'com.android.settings' };
const url = `/api/tasks/${TASK_ID}/steps/0/screenshot`;
/** What the REST API has always shown for that observation, in that key order. */
const shownObservation = { frameId: 'f1', screenshotUrl: url, screenshotMime: 'image/png', screen: { width: 1080, height: 2400, rotation: 0 }, elementCount: 9, package: 'com.android.settings' };
const step: TaskStep = { taskId: TASK_ID, index: 0, startedAt: '2026-05-01T10:00:00.020Z', observation, timings: { captureMs: 3, transferMs: 5, planningMs: 0, actionMs: 0 } };

describe('REST task resources', () => {
  it('builds the screenshot URL of a step from the route', () => {
    expect(stepScreenshotUrl(TASK_ID, 0)).toBe(url);
    expect(stepScreenshotUrl('a b', 12)).toBe('/api/tasks/a%20b/steps/12/screenshot');
  });

  it('shows a task without its owner, and steps with their screenshot URL in the place it always had', () => {
    expect(toTaskResource(task)).toStrictEqual(shownTask);
    const shown = toTaskWithStepsResource({ ...task, steps: [step] });
    expect(JSON.stringify(shown)).toBe(JSON.stringify({ ...shownTask, steps: [{ ...step, observation: shownObservation }] }));
    expect(toTaskPageResource({ tasks: [task], nextCursor: 'c' })).toStrictEqual({ tasks: [shownTask], nextCursor: 'c' });
    // The inputs are untouched.
    expect(task.owner).toBeDefined();
    expect(step.observation).toStrictEqual(observation);
  });

  it('shows the caller tools by name, kind and description (not their schemas), in the task and its task.accepted event, with the pending tool call', () => {
    const pendingToolCall = { stepIndex: 0, toolCallId: `${TASK_ID}:0`, name: 'lookup_order', arguments: { orderId: 'A-17' }, kind: 'OBSERVATION' as const };
    const withTools: Task = {
      ...task,
      status: 'input_required',
      tools: [{ name: 'lookup_order', description: 'Finds an order.', inputSchema: { type: 'object' }, kind: 'OBSERVATION' }],
      pendingToolCall,
    };
    const shown = { ...shownTask, status: 'input_required', pendingToolCall, tools: [{ name: 'lookup_order', kind: 'OBSERVATION', description: 'Finds an order.' }] };
    expect(toTaskResource(withTools)).toStrictEqual(shown);
    expect(toTaskResource({ ...shownTask, tools: [] })).toStrictEqual({ ...shownTask, tools: [] });
    const accepted: TaskEvent = { taskId: TASK_ID, id: 1, type: 'task.accepted', at: task.createdAt, data: { task: { ...withTools, owner: undefined } } };
    expect((toTaskEventResource(accepted).data.task as { tools: unknown }).tools).toStrictEqual(shown.tools);
    expect(withTools.tools?.[0].inputSchema).toEqual({ type: 'object' });
  });

  it('adds no URL to a step without a stored screenshot, and keeps the URL of records stored with one', () => {
    const { screenshotMime: _mime, ...noShot } = observation;
    expect(toTaskWithStepsResource({ ...task, steps: [{ ...step, observation: noShot }] }).steps[0].observation).toStrictEqual(noShot);
    const unobserved: TaskStep = { taskId: TASK_ID, index: 1, startedAt: '2026-05-01T10:00:01.000Z', timings: { captureMs: 0, transferMs: 0, planningMs: 0, actionMs: 0 } };
    expect(toTaskWithStepsResource({ ...task, steps: [unobserved] }).steps[0]).toStrictEqual(unobserved);
    // Records written before the REST layer built URLs hold `screenshotUrl` themselves.
    const legacy = { ...shownObservation } as StepObservation;
    expect(JSON.stringify(toTaskWithStepsResource({ ...task, steps: [{ ...step, observation: legacy }] }).steps[0].observation)).toBe(JSON.stringify(shownObservation));
  });

  it('shows step.observed events with the URL and task.accepted events without the owner; others unchanged', () => {
    const at = '2026-05-01T10:00:00.030Z';
    const observed: TaskEvent = { taskId: TASK_ID, id: 4, type: 'step.observed', at, data: { index: 0, observation, timings: { captureMs: 3, transferMs: 5 } } };
    expect(JSON.stringify(toTaskEventResource(observed))).toBe(
      JSON.stringify({ taskId: TASK_ID, id: 4, type: 'step.observed', at, data: { index: 0, observation: shownObservation, timings: { captureMs: 3, transferMs: 5 } } }),
    );
    expect(observed.data['observation']).toBe(observation);
    const legacy: TaskEvent = { ...observed, data: { index: 0, observation: shownObservation, timings: { captureMs: 3, transferMs: 5 } } };
    expect(JSON.stringify(toTaskEventResource(legacy))).toBe(JSON.stringify(legacy));

    const accepted: TaskEvent = { taskId: TASK_ID, id: 1, type: 'task.accepted', at, data: { task } };
    expect(toTaskEventResource(accepted)).toStrictEqual({ ...accepted, data: { task: shownTask } });
    const acceptedBefore: TaskEvent = { ...accepted, data: { task: shownTask } };
    expect(toTaskEventResource(acceptedBefore)).toBe(acceptedBefore);
    const planned: TaskEvent = { taskId: TASK_ID, id: 5, type: 'step.planned', at, data: { index: 0, plan: { type: 'done', summary: 's', reasoning: 'r' }, planningMs: 1 } };
    expect(toTaskEventResource(planned)).toBe(planned);
  });
});
