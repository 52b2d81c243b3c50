import { ApiClient, ApiError } from './api-client.js';
import { DEVICE_EVENT_TYPES, TASK_EVENT_TYPES, TERMINAL_TASK_EVENT_TYPES, type DeviceEvent, type DeviceInfo, type Task, type TaskEvent } from './api-types.js';
import { DeviceDirectory, renderDevices } from './device-list.js';
import { byId, h } from './dom.js';
import { renderHistory } from './history-list.js';
import { ReconnectingEventSource } from './reconnecting-event-source.js';
import { TaskTimeline } from './task-timeline.js';
import { TaskView } from './task-view.js';

/**
 * The live execution page: phones (live from the device stream), the new-task form, the open task's
 * timeline (live from its event stream, `#/tasks/<id>` in the URL so a reload re-opens it) and the
 * history of past tasks.
 */

const client = new ApiClient();
const problemText = (err: unknown) => (err instanceof Error ? err.message : String(err));

// ---- Phones -------------------------------------------------------------------------------------

const devices = new DeviceDirectory();
const deviceList = byId('device-list');
const deviceSelect = byId<HTMLSelectElement>('device');
const devicesConnection = byId('devices-connection');
const showDevices = () => renderDevices(deviceList, deviceSelect, devices.list());

function deviceListeners(): Record<string, (event: MessageEvent<string>) => void> {
  const listeners: Record<string, (event: MessageEvent<string>) => void> = {
    devices: (event) => {
      devices.reset((JSON.parse(event.data) as { devices: DeviceInfo[] }).devices);
      showDevices();
    },
  };
  for (const type of DEVICE_EVENT_TYPES) {
    listeners[type] = (event) => {
      if (devices.apply(JSON.parse(event.data) as DeviceEvent)) showDevices();
    };
  }
  return listeners;
}

let deviceStream: ReconnectingEventSource | undefined;
function watchDevices(): void {
  deviceStream?.close();
  deviceStream = new ReconnectingEventSource({
    url: () => client.withToken('/api/devices/events'),
    listeners: deviceListeners(),
    onState: (state, detail) => {
      devicesConnection.textContent = state === 'open' ? 'live' : state === 'closed' ? '' : 'reconnecting…';
      devicesConnection.dataset['state'] = state;
      devicesConnection.title = detail ?? '';
    },
  });
  deviceStream.open();
}

// ---- History ------------------------------------------------------------------------------------

const historyList = byId('history-list');
const historyMore = byId<HTMLButtonElement>('history-more');
const historyError = byId('history-error');
let history: { tasks: Task[]; nextCursor?: string } = { tasks: [] };

/** Reloads the first page of past tasks (`more`: appends the next page instead). */
async function loadHistory(more = false): Promise<void> {
  try {
    const page = await client.listTasks({ limit: 20, cursor: more ? history.nextCursor : undefined });
    history = { tasks: more ? [...history.tasks, ...page.tasks] : page.tasks, nextCursor: page.nextCursor };
    historyError.textContent = '';
  } catch (err) {
    historyError.textContent = `History unavailable: ${problemText(err)}`;
    if (err instanceof ApiError && err.status === 401) openTokenSettings();
  }
  renderHistory(historyList, history.tasks, current?.timeline.taskId);
  historyMore.hidden = !history.nextCursor;
}

// ---- The open task ------------------------------------------------------------------------------

const taskPanel = byId('task');
interface OpenTask {
  timeline: TaskTimeline;
  view: TaskView;
  stream?: ReconnectingEventSource;
}
let current: OpenTask | undefined;

function showEmptyTask(): void {
  taskPanel.replaceChildren(h('p', { class: 'empty' }, 'Start a task, or pick one from the history to replay it.'));
}

const taskActions = {
  cancel: (taskId: string) => {
    client.cancelTask(taskId).then(
      () => current?.view.showMessage(''),
      (err: unknown) => current?.view.showMessage(`Cancel failed: ${problemText(err)}`),
    );
  },
  approve: (taskId: string, approve: boolean) => {
    client.approve(taskId, approve).then(
      () => current?.view.showMessage(''),
      (err: unknown) => current?.view.showMessage(`${approve ? 'Approve' : 'Deny'} failed: ${problemText(err)}`),
    );
  },
};

function closeTask(): void {
  current?.stream?.close();
  current = undefined;
}

/** Applies one streamed event to the open task; resumes the stream when an id was skipped. */
function onTaskEvent(open: OpenTask, message: MessageEvent<string>): void {
  const event = JSON.parse(message.data) as TaskEvent;
  const before = open.timeline.status;
  const changed: number[] = [];
  const outcome = open.timeline.apply(event, changed);
  if (outcome === 'gap') {
    open.stream?.reopen();
    return;
  }
  if (outcome === 'duplicate') return;
  open.view.render(open.timeline, changed);
  if (TERMINAL_TASK_EVENT_TYPES.includes(event.type)) {
    // The server ends the stream now; without this the browser would reconnect forever.
    open.stream?.close();
  }
  if (open.timeline.status !== before) void loadHistory();
}

/** Opens a task: its snapshot (`GET /api/tasks/:id`), then its event stream from the first event on. */
async function openTask(taskId: string): Promise<void> {
  if (current?.timeline.taskId === taskId) return;
  closeTask();
  const open: OpenTask = { timeline: new TaskTimeline(taskId), view: new TaskView(taskPanel, (path) => client.withToken(path), taskActions) };
  current = open;
  renderHistory(historyList, history.tasks, taskId);
  try {
    const snapshot = await client.getTask(taskId);
    if (current !== open) return;
    open.view.render(open.timeline, open.timeline.loadSnapshot(snapshot));
  } catch (err) {
    if (current !== open) return;
    open.view.showMessage(`Cannot load task ${taskId}: ${problemText(err)}`);
    if (err instanceof ApiError && err.status >= 400 && err.status < 500) {
      if (err.status === 401) openTokenSettings();
      return;
    }
  }
  const listeners: Record<string, (event: MessageEvent<string>) => void> = {
    error: (message) => open.view.showMessage(`Stream error: ${(JSON.parse(message.data) as { message?: string }).message ?? message.data}`),
  };
  for (const type of TASK_EVENT_TYPES) listeners[type] = (message) => onTaskEvent(open, message);
  open.stream = new ReconnectingEventSource({
    // Resume after the last event rendered: nothing is applied twice, nothing skipped.
    url: () => client.withToken(`/api/tasks/${encodeURIComponent(taskId)}/events?lastEventId=${open.timeline.lastEventId}`),
    listeners,
    onState: (state, detail) => open.view.setConnection(state, detail),
    shouldStop: async () => {
      try {
        await client.getTask(taskId);
        return undefined;
      } catch (err) {
        return err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429 ? problemText(err) : undefined;
      }
    },
  });
  open.stream.open();
}

/** The task id in `#/tasks/<id>`, or undefined. */
function taskIdFromHash(): string | undefined {
  const match = /^#\/tasks\/([^/?#]+)$/.exec(window.location.hash);
  return match ? decodeURIComponent(match[1]) : undefined;
}

function route(): void {
  const taskId = taskIdFromHash();
  if (taskId) {
    void openTask(taskId);
    // On a narrow window the task is below the form and the history: bring it into view.
    if (taskPanel.getBoundingClientRect().top > window.innerHeight) taskPanel.scrollIntoView({ block: 'start' });
  }
  else {
    closeTask();
    showEmptyTask();
    renderHistory(historyList, history.tasks, undefined);
  }
}

// ---- New task form ------------------------------------------------------------------------------

const form = byId<HTMLFormElement>('task-form');
const goalInput = byId<HTMLInputElement>('goal');
const maxStepsInput = byId<HTMLInputElement>('max-steps');
const noWaitInput = byId<HTMLInputElement>('no-wait');
const startButton = byId<HTMLButtonElement>('start');
const formError = byId('form-error');

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const maxSteps = maxStepsInput.value.trim() === '' ? undefined : Number(maxStepsInput.value);
  formError.textContent = '';
  startButton.disabled = true;
  client
    .startTask({ deviceId: deviceSelect.value, goal: goalInput.value.trim(), maxSteps, onBusy: noWaitInput.checked ? 'reject' : undefined })
    .then(
      (accepted) => {
        window.location.hash = `#/tasks/${encodeURIComponent(accepted.taskId)}`;
        void loadHistory();
      },
      (err: unknown) => {
        formError.textContent = problemText(err);
        if (err instanceof ApiError && err.status === 401) openTokenSettings();
      },
    )
    .finally(() => (startButton.disabled = false));
});

// ---- API token ----------------------------------------------------------------------------------

const tokenSettings = byId<HTMLDetailsElement>('token-settings');
const tokenInput = byId<HTMLInputElement>('api-token');

function openTokenSettings(): void {
  tokenSettings.open = true;
}

byId<HTMLFormElement>('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  client.token = tokenInput.value;
  watchDevices();
  void loadHistory();
  const taskId = current?.timeline.taskId;
  closeTask();
  if (taskId) void openTask(taskId);
});

// ---- Start ----------------------------------------------------------------------------------------

byId('history-refresh').addEventListener('click', () => void loadHistory());
historyMore.addEventListener('click', () => void loadHistory(true));
window.addEventListener('hashchange', route);
tokenInput.value = client.token;
showDevices();
watchDevices();
route();
void loadHistory();
