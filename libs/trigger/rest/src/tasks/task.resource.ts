import type { CallerToolKind, StepObservation, Task, TaskEvent, TaskPage, TaskStep } from '@mobileclaw/domain';
import type { TaskWithSteps } from '@mobileclaw/case-tasks';

/**
 * How the REST API shows tasks, steps and task events: the domain records with two differences.
 * - A step observation whose screenshot is stored gets `screenshotUrl`, the route that serves it
 *   (`GET /api/tasks/{taskId}/steps/{index}/screenshot`); the stored records carry no URL.
 * - `owner` (which gateway instance runs the task) is internal and left out.
 * - `tools` show each tool's name, kind and description; the argument schemas (up to 16 KiB each)
 *   were the caller's own to begin with.
 * The same applies to task events: `step.observed` (`data.observation`) and `task.accepted`
 * (`data.task`). Inputs are never modified: live events are shared with other subscribers.
 */

/** A caller tool as a task shows it. */
export interface CallerToolResource {
  name: string;
  kind: CallerToolKind;
  description: string;
}

/** A task as the REST API shows it. */
export type TaskResource = Omit<Task, 'owner' | 'tools'> & { tools?: CallerToolResource[] };

/** A step observation as the REST API shows it. */
export interface StepObservationResource extends StepObservation {
  /** URL path of the full-resolution screenshot, when one is stored. */
  screenshotUrl?: string;
}

export type TaskStepResource = Omit<TaskStep, 'observation'> & { observation?: StepObservationResource };

/** `GET /api/tasks/:taskId`. */
export type TaskWithStepsResource = TaskResource & { steps: TaskStepResource[] };

/** `GET /api/tasks`. */
export interface TaskPageResource {
  tasks: TaskResource[];
  nextCursor?: string;
}

/** URL path of a step's screenshot; the route of `TasksController.screenshot`. */
export function stepScreenshotUrl(taskId: string, stepIndex: number): string {
  return `/api/tasks/${encodeURIComponent(taskId)}/steps/${stepIndex}/screenshot`;
}

export function toTaskResource(task: Task): TaskResource {
  if (task.owner === undefined && task.tools === undefined) return task as TaskResource;
  const { owner: _owner, tools, ...shown } = task;
  return tools === undefined ? shown : { ...shown, tools: tools.map(({ name, kind, description }) => ({ name, kind, description })) };
}

export function toTaskWithStepsResource(task: TaskWithSteps): TaskWithStepsResource {
  return { ...toTaskResource(task), steps: task.steps.map(toTaskStepResource) };
}

export function toTaskPageResource(page: TaskPage): TaskPageResource {
  return { ...page, tasks: page.tasks.map(toTaskResource) };
}

export function toTaskStepResource(step: TaskStep): TaskStepResource {
  if (!step.observation) return step;
  return { ...step, observation: toObservationResource(step.observation, step.taskId, step.index) };
}

/** The event as SSE sends it (`data` of the record). */
export function toTaskEventResource(event: TaskEvent): TaskEvent {
  const { data } = event;
  const { observation, index, task } = data;
  if (event.type === 'step.observed' && isObject(observation) && typeof index === 'number') {
    return { ...event, data: { ...data, observation: toObservationResource(observation as StepObservation, event.taskId, index) } };
  }
  if (event.type === 'task.accepted' && isObject(task) && ('owner' in task || 'tools' in task)) {
    return { ...event, data: { ...data, task: toTaskResource(task as Task) } };
  }
  return event;
}

/**
 * Adds `screenshotUrl` right after `frameId`, where earlier versions stored it, when the step has a
 * stored screenshot: `screenshotMime` is set, or the record predates this rule and still holds a URL.
 */
function toObservationResource(observation: StepObservation, taskId: string, stepIndex: number): StepObservationResource {
  const stored = observation as StepObservationResource;
  if (observation.screenshotMime === undefined && stored.screenshotUrl === undefined) return observation;
  const { frameId, screenshotUrl: _stored, ...rest } = stored;
  const screenshotUrl = stepScreenshotUrl(taskId, stepIndex);
  return frameId === undefined ? { screenshotUrl, ...rest } : { frameId, screenshotUrl, ...rest };
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
