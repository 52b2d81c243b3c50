import { describeFailure } from './api-client.js';
import type { Task, ToolEntry, ToolList } from './api-types.js';
import { h, plural } from './dom.js';
import { renderTool, renderToolIssue } from './tool-list.js';

/** What the panel needs from the page. */
export interface ToolsPanelDeps {
  /** `GET /api/tools`. */
  load(): Promise<ToolList>;
  /** `POST /api/skills/:name/replay {deviceId}`: the task it created. */
  replay(name: string, deviceId: string): Promise<Task>;
  /** A replay created `taskId`: the page opens its view. */
  onTaskStarted(taskId: string): void;
  /** Called with every failed request (the page opens its token settings on a 401/403). */
  onError(err: unknown): void;
}

/**
 * The Tools panel: every tool of the registry (`GET /api/tools`) with what the merge decided, then the
 * problems its sources reported. Loaded at start, on {@link refresh} (its Refresh button, the page
 * regaining focus, a skill just saved); a load that ends after a newer one started is dropped. A
 * visible `SKILL` tool offers "Replay on <picked phone>"; the replay's task opens, or its error shows.
 */
export class ToolsPanel {
  private readonly summary = h('p', { class: 'muted tools-summary', role: 'status' });
  private readonly error = h('p', { class: 'error-text', role: 'alert' });
  private readonly message = h('p', { class: 'tools-message', role: 'status' });
  private readonly list = h('ul', { class: 'tools', 'aria-label': 'Tools' });
  private readonly issuesTitle = h('h3', { id: 'tool-issues-title', class: 'tool-issues-title' }, 'Problems in the sources');
  private readonly issueList = h('ul', { class: 'tool-issues', 'aria-labelledby': 'tool-issues-title' });
  private tools: ToolList | undefined;
  private deviceId: string | undefined;
  /** The number of the latest load: only its answer is shown. */
  private loads = 0;

  constructor(
    readonly container: HTMLElement,
    private readonly deps: ToolsPanelDeps,
  ) {
    container.append(this.summary, this.error, this.message, this.list, this.issuesTitle, this.issueList);
    this.show();
  }

  /** Loads the tools again; resolves once shown (or once the failure is). */
  async refresh(): Promise<void> {
    const load = ++this.loads;
    try {
      const tools = await this.deps.load();
      if (load !== this.loads) return;
      this.tools = tools;
      this.error.textContent = '';
    } catch (err) {
      if (load !== this.loads) return;
      this.error.textContent = `Tools unavailable: ${describeFailure(err)}`;
      this.deps.onError(err);
    }
    this.show();
  }

  /** The phone the page picked (replays run on it); re-renders only when it changed. */
  setDevice(deviceId: string | undefined): void {
    if (deviceId === this.deviceId) return;
    this.deviceId = deviceId;
    this.show();
  }

  private show(): void {
    const tools = this.tools;
    if (!tools) {
      this.summary.textContent = 'Loading the tools…';
      return;
    }
    const hidden = tools.tools.filter((tool) => !tool.visible).length;
    this.summary.textContent = `${plural(tools.tools.length, 'tool')}${hidden > 0 ? `, ${hidden} shadowed` : ''}`;
    const offer = { deviceId: this.deviceId, onReplay: (tool: ToolEntry, deviceId: string) => this.replay(tool, deviceId) };
    this.list.replaceChildren(...(tools.tools.length > 0 ? tools.tools.map((tool) => renderTool(tool, offer)) : [h('li', { class: 'empty' }, 'No tools yet: put SKILL.md skills in the data folder\'s skills/.')]));
    this.issuesTitle.hidden = tools.issues.length === 0;
    this.issueList.replaceChildren(...tools.issues.map(renderToolIssue));
  }

  private replay(tool: ToolEntry, deviceId: string): void {
    this.say('pending', `Replaying ${tool.name} on ${deviceId}…`);
    this.deps.replay(tool.name, deviceId).then(
      (task) => {
        this.say('ok', `Replay of ${tool.name} started task ${task.taskId} on ${deviceId}.`);
        this.deps.onTaskStarted(task.taskId);
      },
      (err: unknown) => {
        this.say('error', `Replay of ${tool.name} failed: ${describeFailure(err)}`);
        this.deps.onError(err);
      },
    );
  }

  private say(outcome: 'pending' | 'ok' | 'error', text: string): void {
    this.message.dataset['outcome'] = outcome;
    this.message.textContent = text;
  }
}
