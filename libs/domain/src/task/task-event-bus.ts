import { NEVER, type Observable } from 'rxjs';
import type { TaskEvent } from './task';

/**
 * Carries stored task events to live subscribers: `GET /api/tasks/:id/events` streams, dashboards.
 * The in-process adapter is an rxjs subject (`@mobileclaw/case-tasks`); a broker adapter (Redis,
 * NATS) lets one instance follow a task another instance runs. Abstract class so that it doubles as
 * the Nest DI token.
 *
 * An event is published only after the {@link TaskRepository} stored it, so the store is the record
 * and the bus a notification: a subscriber replays what it missed from the store by event id and
 * ignores ids it has already seen. Adapters must deliver every event published after a subscription
 * is made, in publish order per task; the in-process adapter does, at most once. A broker may drop
 * or repeat messages: the task stream (`TaskService.events`) reads the store when an id is skipped
 * or the bus signals a {@link resync}, and ignores ids it has sent. A publish that fails is logged by the journal, not fatal to the task.
 */
export abstract class TaskEventBus {
  /**
   * Publishes a stored event to every current subscriber, in publish order per task.
   * @returns when the bus has taken the event (in process: after the subscribers ran).
   * @throws Error when the bus cannot take it (a broker adapter whose connection is down).
   */
  abstract publish(event: TaskEvent): Promise<void>;

  /**
   * Hot stream of the events published after the subscription is made: of one task when `taskId` is
   * given, else of every task. Never errors (a broker adapter reconnects on its own); completes when
   * the bus closes. A broker adapter keeps its broker subscription open from start-up, so that
   * subscribing here takes effect at once and nothing published after it is missed.
   */
  abstract subscribe(taskId?: string): Observable<TaskEvent>;

  /**
   * Emits each time subscribers may have missed events without a later event to show the gap — a
   * broker link that came back after an outage, a slow consumer cut off — so that they read the store
   * for what they missed (a task's end, above all). Hot; never errors. The default never emits: a
   * bus that loses nothing.
   */
  resync(): Observable<void> {
    return NEVER;
  }
}
