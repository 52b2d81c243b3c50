import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { PushDeliveryOutbox, PushNotificationConfigStore, type PushDelivery, type PushNotificationConfig, type Task, type TaskEvent } from '@mobileclaw/domain';
import { TaskService } from '@mobileclaw/case-tasks';
import { StreamResponseCodec } from './a2a-sdk';
import { A2A_OPTIONS, type A2aOptions } from './a2a.options';
import { contextIdOf, toA2aStatus } from './task-mapping';
import { STATUS_EVENT_TYPES } from './task-updates';

/** How push notifications are delivered. */
export interface PushDeliverySettings {
  /** Attempts per notification and webhook, the first included. Default 5. */
  maxAttempts: number;
  /** Delay before the first retry, in ms; doubled per retry up to `maxDelayMs`, then jittered. Default 1000. */
  baseDelayMs: number;
  /** Longest delay between two attempts, in ms. Default 60 000. */
  maxDelayMs: number;
  /** Longest wait for one attempt's answer, in ms. Default 10 000. */
  timeoutMs: number;
}

export const DEFAULT_PUSH_DELIVERY: PushDeliverySettings = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 60_000, timeoutMs: 10_000 };

/**
 * Delay before retry `retry` (1 for the first), in ms: exponential (`baseDelayMs · 2^(retry-1)`, at
 * most `maxDelayMs`) with equal jitter (a random point in its upper half), so that webhooks that failed
 * together are not hit together again.
 */
export function retryDelayMs(retry: number, settings: PushDeliverySettings, random: () => number = Math.random): number {
  const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Most attempts in flight at once, over all webhooks (one per webhook at a time). */
export const MAX_PUSH_ATTEMPTS_IN_FLIGHT = 16;

/**
 * Sends each status change of a task to the task's webhooks (A2A push notifications): a POST of the
 * A2A `StreamResponse` JSON `{statusUpdate: {taskId, contextId, status, metadata}}` with
 * `Authorization: <scheme> <credentials>` when the config has authentication and
 * `X-A2A-Notification-Token` when it has a token.
 *
 * Each status event becomes one delivery per webhook config in the {@link PushDeliveryOutbox}
 * (durable with the SQLite adapter), and the dispatcher drains the outbox: a 2xx answer delivers; an
 * error status, a network error or no answer within `timeoutMs` is retried after {@link retryDelayMs},
 * up to `maxAttempts`, then dropped with a warning. Deliveries pending when the gateway stops — a
 * webhook down, or the process killed mid-attempt — go out after the next start (at least once): at
 * start-up the dispatcher releases the claims its instance left and drains what is due. A webhook
 * just registered first gets the task's current status (metadata `{type: 'registered'}`), and a
 * webhook whose config was deleted gets nothing more.
 *
 * Order holds per task and webhook (the outbox hands out a webhook's deliveries one at a time, in
 * order); webhooks are served side by side, at most {@link MAX_PUSH_ATTEMPTS_IN_FLIGHT} attempts at
 * once. The task only publishes its event: storing the delivery and sending it happen beside it, so a
 * slow or failing webhook never slows the task.
 */
@Injectable()
export class PushNotificationDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('A2aPush');
  private readonly settings: PushDeliverySettings;
  /** How long a claimed delivery stays hidden from other claimants: longer than any attempt takes. */
  private readonly leaseMs: number;
  private readonly stopping = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private subscription?: Subscription;
  /** Status events and registrations, turned into deliveries one at a time (so in order). */
  private queued: Promise<void> = Promise.resolve();
  private draining?: Promise<void>;
  private drainAgain = false;
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(A2A_OPTIONS) options: A2aOptions,
    private readonly tasks: TaskService,
    private readonly configs: PushNotificationConfigStore,
    private readonly outbox: PushDeliveryOutbox,
  ) {
    this.settings = { ...DEFAULT_PUSH_DELIVERY, ...options.push };
    this.leaseMs = 2 * this.settings.timeoutMs + 1000;
  }

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = this.tasks.allEvents$.subscribe((event) => {
      if (!STATUS_EVENT_TYPES.has(event.type)) return;
      this.serially(`push notifications of task ${event.taskId}`, () => this.notify(event));
    });
    // A previous run of this instance may have died mid-attempt: its claims are due again now.
    try {
      const resumed = await this.outbox.release(this.tasks.instanceId, Date.now());
      if (resumed > 0) this.logger.log(`resuming ${resumed} push notification(s) in flight when the gateway stopped`);
    } catch (err) {
      this.logger.warn(`push notification outbox unavailable at start-up: ${String(err)}`);
    }
    this.wake();
  }

  /**
   * Stops sending: attempts under way are cut short and kept for the next start. Status events still
   * go into the outbox until {@link onApplicationShutdown}, so that the tasks the shutdown interrupts
   * notify their webhooks after the restart.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping.abort();
    clearTimeout(this.timer);
    await this.draining;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Stops taking status events, once the ones already taken are in the outbox. */
  async onApplicationShutdown(): Promise<void> {
    this.subscription?.unsubscribe();
    await this.queued;
  }

  /**
   * Sends the task's current status to a webhook just registered, so that a status change between the
   * task's start and the registration (e.g. a config given with `SendMessage`) is not missed.
   */
  registered(config: PushNotificationConfig): void {
    // In line with the status events, so it goes before any later change.
    this.serially(`push notification config ${config.configId} of task ${config.taskId}`, async () => {
      const body = statusBody(await this.tasks.find(config.taskId), { type: 'registered' });
      await this.outbox.enqueue([{ taskId: config.taskId, configId: config.configId, eventId: 0, body }], Date.now());
      this.wake();
    });
  }

  private serially(what: string, work: () => Promise<void>): void {
    this.queued = this.queued.then(work).catch((err: unknown) => this.logger.warn(`${what} failed: ${String(err)}`));
  }

  private async notify(event: TaskEvent): Promise<void> {
    const configs = await this.configs.list(event.taskId);
    if (configs.length === 0) return;
    const body = statusBody(await this.tasks.find(event.taskId), { eventId: event.id, type: event.type });
    await this.outbox.enqueue(
      configs.map((config) => ({ taskId: event.taskId, configId: config.configId, eventId: event.id, body })),
      Date.now(),
    );
    this.wake();
  }

  /** Drains the outbox now (or once more after the drain under way). */
  private wake(): void {
    if (this.stopping.signal.aborted) return;
    if (this.draining) {
      this.drainAgain = true;
      return;
    }
    this.draining = this.drain()
      .catch((err: unknown) => this.logger.warn(`push notification outbox failed: ${String(err)}`))
      .finally(() => {
        this.draining = undefined;
        if (this.drainAgain) {
          this.drainAgain = false;
          this.wake();
        }
      });
  }

  /** Starts an attempt for each due delivery (as many as may be in flight), then sleeps until the next is due. */
  private async drain(): Promise<void> {
    clearTimeout(this.timer);
    while (!this.stopping.signal.aborted) {
      const room = MAX_PUSH_ATTEMPTS_IN_FLIGHT - this.inFlight.size;
      // A finished attempt wakes the dispatcher again.
      if (room <= 0) return;
      const claimed = await this.outbox.claimDue(this.tasks.instanceId, Date.now(), this.leaseMs, room);
      for (const delivery of claimed) this.start(delivery);
      if (claimed.length < room) break;
    }
    if (this.stopping.signal.aborted) return;
    const next = await this.outbox.nextDueAt();
    if (next === undefined) return;
    this.timer = setTimeout(() => this.wake(), Math.max(0, next - Date.now()));
    this.timer.unref();
  }

  private start(delivery: PushDelivery): void {
    const attempt = this.attempt(delivery)
      .catch((err: unknown) => this.logger.warn(`push notification ${delivery.eventId} of task ${delivery.taskId} failed: ${String(err)}`))
      .finally(() => {
        this.inFlight.delete(attempt);
        this.wake();
      });
    this.inFlight.add(attempt);
  }

  /** One attempt: delivered → removed; failed → rescheduled, or dropped after `maxAttempts`. */
  private async attempt(delivery: PushDelivery): Promise<void> {
    const config = await this.configs.get(delivery.taskId, delivery.configId);
    if (!config) return this.outbox.remove(delivery.deliveryId); // the webhook was unregistered
    const problem = await this.post(config, delivery.body);
    if (problem === undefined) return this.outbox.remove(delivery.deliveryId);
    if (this.stopping.signal.aborted) {
      // Cut short by the shutdown: not the webhook's failure, tried again after the next start.
      return this.outbox.reschedule(delivery.deliveryId, delivery.attempts, Date.now(), problem);
    }
    const attempts = delivery.attempts + 1;
    if (attempts >= this.settings.maxAttempts) {
      this.logger.warn(`push notification ${delivery.eventId} of task ${delivery.taskId} to config ${delivery.configId} dropped after ${attempts} attempts (${problem})`);
      return this.outbox.remove(delivery.deliveryId);
    }
    await this.outbox.reschedule(delivery.deliveryId, attempts, Date.now() + retryDelayMs(attempts, this.settings), problem);
  }

  /** POSTs the body; undefined when the webhook took it (2xx), else what went wrong. */
  private async post(config: PushNotificationConfig, body: string): Promise<string | undefined> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (config.authentication) headers.authorization = `${config.authentication.scheme} ${config.authentication.credentials}`;
    if (config.token) headers['x-a2a-notification-token'] = config.token;
    try {
      const response = await fetch(config.url, { method: 'POST', headers, body, signal: AbortSignal.any([AbortSignal.timeout(this.settings.timeoutMs), this.stopping.signal]), redirect: 'manual' });
      await response.body?.cancel();
      return response.ok ? undefined : `HTTP ${response.status}`;
    } catch (err) {
      return err instanceof Error ? (err.name === 'TimeoutError' ? `no answer within ${this.settings.timeoutMs} ms` : err.message) : String(err);
    }
  }
}

/** The A2A `StreamResponse` JSON of the task's current status. */
function statusBody(task: Task, metadata: Record<string, unknown>): string {
  return JSON.stringify(StreamResponseCodec.toJSON({ payload: { $case: 'statusUpdate', value: { taskId: task.taskId, contextId: contextIdOf(task), status: toA2aStatus(task), metadata } } }));
}
