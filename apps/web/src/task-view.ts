import type { Task, TaskEvent } from './api-types.js';
import { isTerminalStatus } from './api-types.js';
import { formatTime, h, plural } from './dom.js';
import type { ConnectionState } from './reconnecting-event-source.js';
import { SaveSkillForm, type SaveTaskAsSkill } from './save-skill-form.js';
import { describeAction, renderStepCard, updateStepCard, type StepViewContext } from './step-view.js';
import type { TaskTimeline } from './task-timeline.js';

/** What the task panel's buttons do. */
export interface TaskViewActions {
  cancel(taskId: string): void;
  approve(taskId: string, approve: boolean): void;
  /** Saves the (completed) task as a skill named `name`. */
  saveAsSkill: SaveTaskAsSkill;
}

const CONNECTION_TEXT: Record<ConnectionState, string> = {
  connecting: 'connecting…',
  open: 'live',
  reconnecting: 'reconnecting…',
  unauthorized: 'API token needed',
  closed: 'stream ended',
};

/**
 * The current task: header (goal, status badge, phone, planner, Cancel; "Save as skill" once
 * completed), the approval request, the step timeline keyed by step index (each step is rendered once
 * and updated in place), and the event log keyed by event id.
 */
export class TaskView {
  private readonly cards = new Map<number, HTMLLIElement>();
  private readonly loggedEvents = new Set<number>();
  private readonly header = h('div', { class: 'task-header' });
  /** Kept across renders (never re-created), so keyboard focus stays on it while events arrive. */
  private readonly cancelButton = h('button', { type: 'button', class: 'danger', hidden: true }, 'Cancel task');
  private readonly approval = h('div', { class: 'approval', role: 'region', 'aria-label': 'Approval needed', hidden: true });
  /** The pending action the approval box shows, as JSON; it is rebuilt only when that changes. */
  private approvalShown = '';
  private readonly timeline = h('ol', { class: 'timeline', 'aria-live': 'polite', 'aria-relevant': 'additions text', 'aria-label': 'Steps' });
  private readonly eventList = h('ol', { class: 'event-log' });
  private readonly eventSummary = h('summary', {}, 'Events (0)');
  private readonly connection = h('span', { class: 'connection', role: 'status' });
  private readonly message = h('p', { class: 'error-text', role: 'alert' });
  /** "Save as skill", shown once the task is completed. */
  private readonly saveSkill: SaveSkillForm;

  constructor(
    readonly container: HTMLElement,
    private readonly imageUrl: (path: string) => string,
    private readonly actions: TaskViewActions,
  ) {
    this.saveSkill = new SaveSkillForm(actions.saveAsSkill);
    this.cancelButton.addEventListener('click', () => {
      const taskId = this.cancelButton.dataset['taskId'];
      if (taskId) this.actions.cancel(taskId);
    });
    container.replaceChildren(
      this.header,
      this.cancelButton,
      this.saveSkill.element,
      this.message,
      this.approval,
      this.timeline,
      h('details', { class: 'events' }, this.eventSummary, this.eventList),
    );
  }

  /** Shows a problem (e.g. a failed cancel) above the timeline; empty text clears it. */
  showMessage(text: string): void {
    this.message.textContent = text;
  }

  setConnection(state: ConnectionState, detail?: string): void {
    this.connection.textContent = CONNECTION_TEXT[state];
    this.connection.dataset['state'] = state;
    this.connection.title = detail ?? '';
  }

  /** Brings the view up to date with `timeline`; only the steps in `changedSteps` are re-rendered. */
  render(timeline: TaskTimeline, changedSteps: Iterable<number>): void {
    const task = timeline.task;
    if (task) this.renderHeader(task);
    this.renderApproval(task);
    const taskActive = !task || !isTerminalStatus(task.status);
    const context: StepViewContext = {
      imageUrl: this.imageUrl,
      pending: task?.status === 'input_required' ? task.pendingAction : undefined,
      taskActive,
      taskEnd: task && !taskActive ? { status: task.status, error: task.error } : undefined,
    };
    const changed = new Set(changedSteps);
    // An active task's last step shows "in progress"; once the task ends or moves on, its phase changes.
    for (const step of timeline.steps) {
      const card = this.cards.get(step.index);
      if (!card) this.insertCard(renderStepCard(step, context), step.index);
      else if (changed.has(step.index) || card.getAttribute('aria-busy') === 'true' || step.index === context.pending?.stepIndex) this.cards.set(step.index, updateStepCard(card, step, context));
    }
    this.renderEvents(timeline.events);
  }

  private insertCard(card: HTMLLIElement, index: number): void {
    this.cards.set(index, card);
    const following = [...this.cards.entries()].filter(([i]) => i > index).sort(([a], [b]) => a - b)[0];
    if (following && following[1].isConnected) this.timeline.insertBefore(card, following[1]);
    else this.timeline.append(card);
  }

  private renderHeader(task: Task): void {
    const active = !isTerminalStatus(task.status);
    const outcome = task.summary
      ? h('p', { class: 'outcome ok' }, task.summary)
      : task.error
        ? h('p', { class: 'outcome bad' }, `${task.error.code}: ${task.error.message}`)
        : null;
    const parts: (HTMLElement | null)[] = [
      h(
        'div',
        { class: 'task-title' },
        h('h2', { id: 'task-goal' }, task.goal),
        h('span', { class: `badge status-${task.status}`, 'data-status': task.status, id: 'task-status' }, task.status.replace('_', ' ')),
        this.connection,
      ),
      h('p', { class: 'meta' }, `Phone ${task.deviceId} · planner ${task.planner} · ${task.stepCount} of ${plural(task.maxSteps, 'step')} · `, ...this.timesText(task), h('span', { class: 'task-id' }, ` · ${task.taskId}`)),
      outcome,
      task.status === 'input_required' && task.takeover
        ? h('p', { class: 'takeover-note', id: 'task-takeover' }, `Paused: ${task.takeover.holder} took the phone over at ${formatTime(task.takeover.since)}; the task goes on once they hand it back.`)
        : null,
      task.status === 'input_required' && task.pendingToolCall
        ? h('p', { class: 'takeover-note', id: 'task-tool-call' }, `Waiting for the caller's tool ${task.pendingToolCall.name} (step ${task.pendingToolCall.stepIndex + 1}); the task goes on once the caller answers.`)
        : null,
    ];
    this.header.replaceChildren(...parts.filter((part): part is HTMLElement => part !== null));
    this.cancelButton.hidden = !active;
    this.cancelButton.dataset['taskId'] = task.taskId;
    this.saveSkill.show(task.taskId, task.status === 'completed');
  }

  /** `queued, position 2 · created 14:03:27`, or `started 14:03:28 · ended 14:03:31`. */
  private timesText(task: Task): string[] {
    if (task.status === 'queued' || !task.startedAt) {
      const waiting = task.status === 'queued' ? (task.queuePosition !== undefined ? `queued, position ${task.queuePosition} · ` : 'queued · ') : '';
      return [`${waiting}created ${formatTime(task.createdAt)}`, task.endedAt ? ` · ended ${formatTime(task.endedAt)}` : ''];
    }
    return [`started ${formatTime(task.startedAt)}`, task.endedAt ? ` · ended ${formatTime(task.endedAt)}` : ''];
  }

  private renderApproval(task: Task | undefined): void {
    const waiting = task?.status === 'input_required';
    const action = waiting ? task.pendingAction : undefined;
    // A gateway tool the planner wants to call waits for the same answer as a sensitive action.
    const toolCall = waiting && !action ? task.pendingToolApproval : undefined;
    const pending = action ?? toolCall;
    const shown = task && pending ? JSON.stringify([task.taskId, pending]) : '';
    if (shown === this.approvalShown) return;
    this.approvalShown = shown;
    this.approval.hidden = !pending;
    if (!task || !pending) {
      this.approval.replaceChildren();
      return;
    }
    const what = action
      ? h('p', {}, 'The agent wants to ', h('code', {}, describeAction(action.action)), '.')
      : h('p', {}, 'The agent wants to call the tool ', h('code', {}, toolCall?.name ?? ''), ` (${toolCall?.source ?? ''}) with `, h('code', {}, JSON.stringify(toolCall?.arguments ?? {})), '.');
    this.approval.replaceChildren(
      h('h3', {}, `Approval needed for step ${pending.stepIndex + 1}`),
      what,
      h('p', { class: 'reason' }, pending.reason),
      h(
        'div',
        { class: 'buttons' },
        h('button', { type: 'button', class: 'primary', onclick: () => this.actions.approve(task.taskId, true) }, 'Approve'),
        h('button', { type: 'button', class: 'danger', onclick: () => this.actions.approve(task.taskId, false) }, 'Deny'),
      ),
    );
  }

  private renderEvents(events: readonly TaskEvent[]): void {
    for (const event of events) {
      if (this.loggedEvents.has(event.id)) continue;
      this.loggedEvents.add(event.id);
      const index = typeof event.data['index'] === 'number' ? ` step ${event.data['index'] + 1}` : '';
      this.eventList.append(h('li', { 'data-event-id': event.id }, h('span', { class: 'muted' }, `#${event.id} ${formatTime(event.at)} `), `${event.type}${index}`));
    }
    this.eventSummary.textContent = `Events (${this.loggedEvents.size})`;
  }
}
