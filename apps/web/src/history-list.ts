import type { Task } from './api-types.js';
import { formatTime, h, plural } from './dom.js';

/**
 * The past tasks list: one link per task (`#/tasks/<id>` opens it), the open one marked `aria-current`.
 * `unavailable` (e.g. "API token needed") replaces the "No tasks yet." text when the list could not be loaded.
 */
export function renderHistory(list: HTMLElement, tasks: Task[], currentTaskId: string | undefined, unavailable?: string): void {
  list.replaceChildren(
    ...(tasks.length === 0
      ? [h('li', { class: unavailable ? 'muted history-unavailable' : 'muted' }, unavailable ?? 'No tasks yet.')]
      : tasks.map((t) =>
          h(
            'li',
            { 'data-task-id': t.taskId },
            h(
              'a',
              { href: `#/tasks/${encodeURIComponent(t.taskId)}`, 'aria-current': t.taskId === currentTaskId ? 'page' : undefined },
              h('span', { class: 'history-goal' }, t.goal),
              h('span', { class: `badge status-${t.status}` }, t.status.replace('_', ' ')),
              h('span', { class: 'muted history-meta' }, `${t.deviceId} · ${plural(t.stepCount, 'step')} · ${formatTime(t.createdAt)}`),
            ),
          ),
        )),
  );
}
