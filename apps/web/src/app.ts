import { ApiClient, ApiError } from './api-client.js';
import { DEVICE_EVENT_TYPES, TASK_EVENT_TYPES, TERMINAL_TASK_EVENT_TYPES, type DeviceEvent, type DeviceInfo, type Task, type TaskEvent } from './api-types.js';
import { DeviceDirectory, renderDevices } from './device-list.js';
import { byId, h } from './dom.js';
import { renderHistory } from './history-list.js';
import { PairingPanel } from './pairing-panel.js';
import { LiveScreenPanel } from './live-screen.js';
import { MemoryPanel } from './memory-panel.js';
import { ReconnectingEventSource, type ConnectionState } from './reconnecting-event-source.js';
import { ScreenControl } from './screen-control.js';
import { TaskTimeline } from './task-timeline.js';
import { TaskView } from './task-view.js';
import { ToolsPanel } from './tools-panel.js';

/**
 * The live execution page: phones (live from the device stream), the new-task form, the open task's
 * timeline (live from its event stream, `#/tasks/<id>` in the URL so a reload re-opens it), the
 * history of past tasks, the tool registry's tools and the agent's memory.
 */

const client = new ApiClient();
const problemText = (err: unknown) => (err instanceof Error ? err.message : String(err));
/** The gateway refused the request's token (401 missing or invalid, 403 not allowed). */
const isAccessRefusal = (err: unknown): err is ApiError => err instanceof ApiError && (err.status === 401 || err.status === 403);
/** The request did not reach the gateway, or the gateway could not answer it (restarting, overloaded). */
const isConnectionProblem = (err: unknown): boolean => err instanceof ApiError && (err.status === 0 || err.status >= 500);

// ---- API token ----------------------------------------------------------------------------------

const tokenSettings = byId<HTMLDetailsElement>('token-settings');
const tokenInput = byId<HTMLInputElement>('api-token');
const tokenNotice = byId('token-notice');
/** Set while the gateway refuses the page's token (none, wrong or not allowed): what to tell the user. */
let accessProblem: string | undefined;
/**
 * What the phones and history say while access is refused: a 401 is about the token; a 403 refuses
 * the page itself whatever its token (its origin, a proxy in between or a Host not served without a
 * token), and the gateway's reason says what to change.
 */
let accessHidden = '';
/** True when the page opened the token panel itself; it closes it again once access works. */
let tokenPanelOpenedForAccess = false;

/**
 * A request or stream got 401/403: say that a token is needed (or that the saved one is wrong),
 * open the token panel, and show the phones and history as hidden rather than empty.
 */
function onAccessRefused(status: number, detail: string): void {
  accessHidden = status === 403 ? 'the gateway refuses this page' : 'the gateway needs a valid API token';
  accessProblem =
    status === 403
      ? `The gateway refuses this page (${detail}).`
      : client.token
        ? `The gateway refused the saved API token (${detail}). Enter the current one.`
        : 'The gateway needs an API token. Enter it below.';
  tokenNotice.textContent = accessProblem;
  if (!tokenSettings.open) {
    tokenSettings.open = true;
    tokenPanelOpenedForAccess = true;
  }
  showDevices();
  showHistory();
}

/** The gateway accepted the page's token (or needs none) again. */
function onAccessGranted(): void {
  if (accessProblem === undefined) return;
  accessProblem = undefined;
  tokenNotice.textContent = '';
  if (tokenPanelOpenedForAccess) tokenSettings.open = false;
  tokenPanelOpenedForAccess = false;
}

/** Reports a failed request's 401/403 the same way everywhere; true when it was one. */
function reportAccessRefusal(err: unknown): boolean {
  if (!isAccessRefusal(err)) return false;
  onAccessRefused(err.status, problemText(err));
  return true;
}

// ---- Phones -------------------------------------------------------------------------------------

const devices = new DeviceDirectory();
const deviceList = byId('device-list');
const deviceSelect = byId<HTMLSelectElement>('device');
/** The picked phone's name in the Screen heading. */
const screenDeviceName = byId('screen-device');
const devicesConnection = byId('devices-connection');
/** State of the device stream; the list is fresh only once an open stream has sent its `devices` list. */
let deviceStreamState: ConnectionState = 'connecting';
let devicesFresh = false;
/** The phone the user picked in the form (kept across gateway restarts while that phone exists). */
let preferredDeviceId: string | undefined;

function showDevices(): void {
  const unavailable = accessProblem
    ? `Phones hidden: ${accessHidden}.`
    : deviceStreamState === 'reconnecting'
      ? 'The gateway cannot be reached — reconnecting…'
      : undefined;
  renderDevices(deviceList, deviceSelect, devices.list(), { stale: !devicesFresh, unavailable, preferredDeviceId });
  screenControl.show(devices.list().find((device) => device.deviceId === deviceSelect.value));
  liveScreen.show(deviceSelect.value || undefined);
  screenDeviceName.textContent = deviceSelect.value ? ` — ${deviceSelect.value}` : '';
  toolsPanel.setDevice(deviceSelect.value || undefined);
  memoryPanel.setDevice(deviceSelect.value || undefined);
  for (const item of deviceList.querySelectorAll<HTMLElement>('li.device[data-device-id]')) {
    if (item.dataset['deviceId'] === deviceSelect.value) item.setAttribute('aria-current', 'true');
    else item.removeAttribute('aria-current');
  }
}

deviceSelect.addEventListener('change', () => {
  preferredDeviceId = deviceSelect.value || undefined;
  showDevices();
});

// A click on a phone in the list picks it (for the screen, taking over and new tasks), as the form's select does.
deviceList.addEventListener('click', (event) => {
  const item = (event.target as Element).closest<HTMLElement>('li.device[data-device-id]');
  const deviceId = item?.dataset['deviceId'];
  if (!deviceId || deviceId === deviceSelect.value || ![...deviceSelect.options].some((option) => option.value === deviceId)) return;
  deviceSelect.value = deviceId;
  deviceSelect.dispatchEvent(new Event('change'));
});

// ---- The chosen phone's screen, live (over the event socket) -------------------------------------

const liveScreen = new LiveScreenPanel(byId('live-screen'), {
  url: () => {
    const url = new URL(client.withToken('/ws/events'), window.location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    return url.href;
  },
  // 4401/4403 are the socket's 401/403.
  onAccessRefused: (code, detail) => onAccessRefused(code === 4403 ? 403 : 401, detail),
});
/** Taking the picked phone over, under its live screen: clicks on the live picture tap, drags swipe; typing, Back, Home, hand back. */
const screenControl = new ScreenControl(byId('screen-control'), client, { screen: liveScreen.image });

function deviceListeners(): Record<string, (event: MessageEvent<string>) => void> {
  const listeners: Record<string, (event: MessageEvent<string>) => void> = {
    devices: (event) => {
      devices.reset((JSON.parse(event.data) as { devices: DeviceInfo[] }).devices);
      devicesFresh = true;
      showDevices();
    },
  };
  for (const type of DEVICE_EVENT_TYPES) {
    listeners[type] = (event) => {
      const deviceEvent = JSON.parse(event.data) as DeviceEvent;
      if (devices.apply(deviceEvent)) showDevices();
      if (deviceEvent.type === 'device.controller') screenControl.controllerChanged(deviceEvent);
    };
  }
  return listeners;
}

const DEVICE_CONNECTION_TEXT: Record<ConnectionState, string> = {
  connecting: 'connecting…',
  open: 'live',
  reconnecting: 'reconnecting…',
  unauthorized: 'API token needed',
  closed: '',
};

/** The device stream changed state: statuses are unknown while it is not live; coming back reloads the history. */
function onDeviceStreamState(state: ConnectionState, detail?: string): void {
  const wasDown = deviceStreamState === 'reconnecting' || deviceStreamState === 'unauthorized';
  deviceStreamState = state;
  devicesConnection.textContent = DEVICE_CONNECTION_TEXT[state];
  devicesConnection.dataset['state'] = state;
  devicesConnection.title = detail ?? '';
  if (state !== 'open') devicesFresh = false;
  if (state === 'open') {
    onAccessGranted();
    if (formErrorFromConnection) showFormError('');
    if (wasDown) void loadHistory();
  }
  showDevices();
}

let deviceStream: ReconnectingEventSource | undefined;
function watchDevices(): void {
  deviceStream?.close();
  const stream = new ReconnectingEventSource({
    url: () => client.withToken('/api/devices/events'),
    listeners: deviceListeners(),
    // close() of a replaced stream still reports `closed`: only the current stream's states count.
    onState: (state, detail) => {
      if (stream === deviceStream) onDeviceStreamState(state, detail);
    },
    onUnauthorized: ({ status, detail }) => onAccessRefused(status, detail),
  });
  deviceStream = stream;
  stream.open();
}

// ---- Add a phone ------------------------------------------------------------------------------

const pairingPanel = new PairingPanel(byId<HTMLDetailsElement>('pairing'), { load: () => client.getPairing(), onError: reportAccessRefusal });

// ---- Tools ------------------------------------------------------------------------------------

/** The registry's tools; replaying a learned skill opens the task it created. */
const toolsPanel = new ToolsPanel(byId('tools'), {
  load: () => client.listTools(),
  replay: (name, deviceId) => client.replaySkill(name, deviceId),
  onTaskStarted: (taskId) => {
    window.location.hash = `#/tasks/${encodeURIComponent(taskId)}`;
    void loadHistory();
  },
  onError: reportAccessRefusal,
});

// ---- Memory -------------------------------------------------------------------------------------

/** The agent's memory of the picked phone (or a typed scope): search, records, flush and organize. */
const memoryPanel = new MemoryPanel(byId('memory'), {
  status: () => client.memoryStatus(),
  search: (scope, query) => client.searchMemory(scope, query),
  records: (scope, layer) => client.memoryRecords(scope, layer),
  remember: (scope, text) => client.remember(scope, text),
  forget: (id) => client.forget(id),
  flush: (scope) => client.flushMemory(scope),
  organize: (scope) => client.organizeMemory(scope),
  onError: reportAccessRefusal,
});

// ---- History ------------------------------------------------------------------------------------

const historyList = byId('history-list');
const historyMore = byId<HTMLButtonElement>('history-more');
const historyError = byId('history-error');
let history: { tasks: Task[]; nextCursor?: string } = { tasks: [] };

/** Why the history could not be loaded (shown instead of "No tasks yet."), or undefined. */
let historyUnavailable: string | undefined;

function showHistory(): void {
  const unavailable = accessProblem ? `History hidden: ${accessHidden}.` : historyUnavailable;
  renderHistory(historyList, history.tasks, current?.timeline.taskId, unavailable);
  historyMore.hidden = !history.nextCursor;
}

/** Reloads the first page of past tasks (`more`: appends the next page instead). */
async function loadHistory(more = false): Promise<void> {
  try {
    const page = await client.listTasks({ limit: 20, cursor: more ? history.nextCursor : undefined });
    history = { tasks: more ? [...history.tasks, ...page.tasks] : page.tasks, nextCursor: page.nextCursor };
    historyError.textContent = '';
    historyUnavailable = undefined;
    onAccessGranted();
  } catch (err) {
    historyError.textContent = `History unavailable: ${problemText(err)}`;
    historyUnavailable = isConnectionProblem(err) ? 'The gateway cannot be reached.' : 'History unavailable.';
    reportAccessRefusal(err);
  }
  showHistory();
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
      (err: unknown) => {
        current?.view.showMessage(`Cancel failed: ${problemText(err)}`);
        reportAccessRefusal(err);
      },
    );
  },
  approve: (taskId: string, approve: boolean) => {
    client.approve(taskId, approve).then(
      () => current?.view.showMessage(''),
      (err: unknown) => {
        current?.view.showMessage(`${approve ? 'Approve' : 'Deny'} failed: ${problemText(err)}`);
        reportAccessRefusal(err);
      },
    );
  },
  saveAsSkill: async (taskId: string, name: string) => {
    try {
      const skill = await client.saveTaskAsSkill(taskId, name);
      void toolsPanel.refresh();
      return skill;
    } catch (err) {
      reportAccessRefusal(err);
      throw err;
    }
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
    // A task may have remembered something.
    void memoryPanel.refresh();
  }
  if (open.timeline.status !== before) void loadHistory();
}

/**
 * Opens a task: its snapshot (`GET /api/tasks/:id`), then its event stream after the snapshot's last
 * event. A task this page has just started (`justStarted`) has nothing worth a snapshot yet: its
 * stream opens at once from the first event, so its first steps show without waiting for a read.
 */
async function openTask(taskId: string, justStarted = false): Promise<void> {
  if (current?.timeline.taskId === taskId) return;
  closeTask();
  const open: OpenTask = { timeline: new TaskTimeline(taskId), view: new TaskView(taskPanel, (path) => client.withToken(path), taskActions) };
  current = open;
  showHistory();
  const follow = justStarted || (await loadSnapshot(open, taskId));
  if (current !== open || !follow) return;
  openStream(open, taskId);
}

/**
 * Renders the task's snapshot. Returns false when its stream is not worth opening: the task does
 * not exist or access was refused (a new token re-opens the task); a network failure still follows.
 */
async function loadSnapshot(open: OpenTask, taskId: string): Promise<boolean> {
  try {
    const snapshot = await client.getTask(taskId);
    if (current === open) open.view.render(open.timeline, open.timeline.loadSnapshot(snapshot));
    return true;
  } catch (err) {
    if (current !== open) return false;
    open.view.showMessage(`Cannot load task ${taskId}: ${problemText(err)}`);
    return !(reportAccessRefusal(err) || (err instanceof ApiError && err.status >= 400 && err.status < 500));
  }
}

/** Follows the task's events from the last one rendered. */
function openStream(open: OpenTask, taskId: string): void {
  const listeners: Record<string, (event: MessageEvent<string>) => void> = {
    error: (message) => open.view.showMessage(`Stream error: ${(JSON.parse(message.data) as { message?: string }).message ?? message.data}`),
  };
  for (const type of TASK_EVENT_TYPES) listeners[type] = (message) => onTaskEvent(open, message);
  open.stream = new ReconnectingEventSource({
    // Resume after the last event rendered: nothing is applied twice, nothing skipped.
    url: () => client.withToken(`/api/tasks/${encodeURIComponent(taskId)}/events?lastEventId=${open.timeline.lastEventId}`),
    listeners,
    onState: (state, detail) => {
      open.view.setConnection(state, detail);
      if (state === 'open') onAccessGranted();
    },
    onUnauthorized: ({ status, detail }) => onAccessRefused(status, detail),
  });
  open.stream.open();
}

/** The task id in `#/tasks/<id>`, or undefined. */
function taskIdFromHash(): string | undefined {
  const match = /^#\/tasks\/([^/?#]+)$/.exec(window.location.hash);
  return match ? decodeURIComponent(match[1]) : undefined;
}

/** True when the page is one column (styles.css, same width): the task panel is then below the form. */
const narrowLayout = window.matchMedia('(max-width: 860px)');

function route(): void {
  const taskId = taskIdFromHash();
  if (taskId) {
    void openTask(taskId);
    // On a narrow window the task is below the form: bring it into view.
    if (narrowLayout.matches) taskPanel.scrollIntoView({ block: 'start' });
  } else {
    closeTask();
    showEmptyTask();
    showHistory();
  }
}

// ---- New task form ------------------------------------------------------------------------------

const form = byId<HTMLFormElement>('task-form');
const goalInput = byId<HTMLInputElement>('goal');
const maxStepsInput = byId<HTMLInputElement>('max-steps');
const noWaitInput = byId<HTMLInputElement>('no-wait');
const startButton = byId<HTMLButtonElement>('start');
const formError = byId('form-error');
/** True when the form's error is about reaching the gateway or its token: it goes once the gateway answers again. */
let formErrorFromConnection = false;

function showFormError(text: string, fromConnection = false): void {
  formError.textContent = text;
  formErrorFromConnection = text !== '' && fromConnection;
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const maxSteps = maxStepsInput.value.trim() === '' ? undefined : Number(maxStepsInput.value);
  showFormError('');
  startButton.disabled = true;
  client
    .startTask({ deviceId: deviceSelect.value, goal: goalInput.value.trim(), maxSteps, onBusy: noWaitInput.checked ? 'reject' : undefined })
    .then(
      (accepted) => {
        showFormError('');
        void openTask(accepted.taskId, true);
        window.location.hash = `#/tasks/${encodeURIComponent(accepted.taskId)}`;
        void loadHistory();
      },
      (err: unknown) => {
        showFormError(problemText(err), isConnectionProblem(err) || isAccessRefusal(err));
        reportAccessRefusal(err);
      },
    )
    .finally(() => (startButton.disabled = false));
});

byId<HTMLFormElement>('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  client.token = tokenInput.value;
  tokenNotice.textContent = '';
  watchDevices();
  liveScreen.reconnect();
  void loadHistory();
  void pairingPanel.reload();
  void toolsPanel.refresh();
  void memoryPanel.refresh();
  const taskId = current?.timeline.taskId;
  closeTask();
  if (taskId) void openTask(taskId);
});

// ---- Start ----------------------------------------------------------------------------------------

byId('history-refresh').addEventListener('click', () => void loadHistory());
historyMore.addEventListener('click', () => void loadHistory(true));
byId('tools-refresh').addEventListener('click', () => void toolsPanel.refresh());
byId('memory-refresh').addEventListener('click', () => void memoryPanel.refresh());
// Tools change without an event stream of their own (a skill written, a server gone): coming back to the page reloads them.
window.addEventListener('focus', () => void toolsPanel.refresh());
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') void toolsPanel.refresh();
});
window.addEventListener('hashchange', route);
tokenInput.value = client.token;
showDevices();
watchDevices();
route();
void loadHistory();
void toolsPanel.refresh();
void memoryPanel.refresh();
