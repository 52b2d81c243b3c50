import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Observable, Subject, type Subscription } from 'rxjs';
import { TaskService } from '@mobileclaw/case-tasks';
import { MobileClawService } from '@mobileclaw/domain';

/** URI of a phone's current screen resource. */
export function screenResourceUri(deviceId: string): string {
  return `mobileclaw://devices/${encodeURIComponent(deviceId)}/screen`;
}

/** URI of a task's timeline resource. */
export function taskResourceUri(taskId: string): string {
  return `mobileclaw://tasks/${encodeURIComponent(taskId)}`;
}

/**
 * The URIs of resources whose content changed: a task's timeline on each of its events; a phone's
 * screen when it connects, reconnects or drops, when a task acts on it, and when an MCP tool acts on
 * it ({@link screenChanged}). Subscribers (2025 sessions, the 2026-07-28 listen streams) filter by
 * what their client subscribed to.
 */
@Injectable()
export class ResourceUpdates implements OnModuleInit, OnModuleDestroy {
  private readonly changes = new Subject<string>();
  private readonly subscriptions: Subscription[] = [];
  /** Phone of each task seen acting, so that a step's event names the screen it changed. */
  private readonly deviceOfTask = new Map<string, string>();
  private subscribers = 0;

  constructor(
    private readonly tasks: TaskService,
    private readonly phones: MobileClawService,
  ) {}

  /** The changed URIs, as they happen; each subscriber counts in {@link subscriberCount} until it unsubscribes. */
  get changes$(): Observable<string> {
    return new Observable<string>((subscriber) => {
      this.subscribers++;
      const inner = this.changes.subscribe(subscriber);
      return () => {
        this.subscribers--;
        inner.unsubscribe();
      };
    });
  }

  /**
   * Open subscriptions to {@link changes$}: one of the HTTP endpoint (2026-07-28 listen streams) and
   * one per open 2025-era session. A rejected request must leave it unchanged.
   */
  get subscriberCount(): number {
    return this.subscribers;
  }

  /** Announces that an action changed `deviceId`'s screen. */
  screenChanged(deviceId: string): void {
    this.changes.next(screenResourceUri(deviceId));
  }

  onModuleInit(): void {
    this.subscriptions.push(
      this.tasks.allEvents$.subscribe((event) => {
        this.changes.next(taskResourceUri(event.taskId));
        if (event.type === 'step.acted') void this.stepActed(event.taskId);
        if (event.type === 'task.completed' || event.type === 'task.failed' || event.type === 'task.canceled' || event.type === 'task.interrupted') {
          this.deviceOfTask.delete(event.taskId);
        }
      }),
      this.phones.events$.subscribe((event) => {
        if (event.type === 'device.connected' || event.type === 'device.disconnected' || event.type === 'device.replaced') this.screenChanged(event.deviceId);
      }),
    );
  }

  onModuleDestroy(): void {
    for (const subscription of this.subscriptions) subscription.unsubscribe();
    this.changes.complete();
  }

  private async stepActed(taskId: string): Promise<void> {
    let deviceId = this.deviceOfTask.get(taskId);
    if (deviceId === undefined) {
      deviceId = (await this.tasks.find(taskId).catch(() => undefined))?.deviceId;
      if (deviceId === undefined) return;
      this.deviceOfTask.set(taskId, deviceId);
    }
    this.screenChanged(deviceId);
  }
}
