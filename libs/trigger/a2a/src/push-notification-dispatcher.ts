import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { PushNotificationConfigStore, type PushNotificationConfig, type Task, type TaskEvent } from '@mobileclaw/domain';
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

/**
 * Sends each status change of a task to the task's webhooks (A2A push notifications): a POST of the
 * A2A `StreamResponse` JSON `{statusUpdate: {taskId, contextId, status, metadata}}` with
 * `Authorization: <scheme> <credentials>` when the config has authentication and
 * `X-A2A-Notification-Token` when it has a token. A 2xx answer delivers; anything else (an error
 * status, a network error, no answer within `timeoutMs`) is retried with {@link retryDelayMs}, up to
 * `maxAttempts`, then dropped with a warning: at least once while the gateway runs. A webhook just
 * registered first gets the task's current status (metadata `{type: 'registered'}`). Delivery runs
 * beside the tasks — the task's event is only queued — and in order per webhook, so a slow or failing
 * webhook delays only its own later notifications.
 */
@Injectable()
export class PushNotificationDispatcher implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('A2aPush');
  private readonly settings: PushDeliverySettings;
  private readonly chains = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();
  private subscription?: Subscription;
  private queued: Promise<void> = Promise.resolve();

  constructor(
    @Inject(A2A_OPTIONS) options: A2aOptions,
    private readonly tasks: TaskService,
    private readonly configs: PushNotificationConfigStore,
  ) {
    this.settings = { ...DEFAULT_PUSH_DELIVERY, ...options.push };
  }

  onApplicationBootstrap(): void {
    this.subscription = this.tasks.allEvents$.subscribe((event) => {
      if (!STATUS_EVENT_TYPES.has(event.type)) return;
      // One event at a time (reading configs and the task, no network), so each webhook's queue gets them in order.
      this.queued = this.queued.then(() => this.notify(event)).catch((err: unknown) => this.logger.warn(`push notifications of task ${event.taskId} failed: ${String(err)}`));
    });
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.subscription?.unsubscribe();
    this.stopping.abort();
    await this.queued;
    await Promise.allSettled([...this.chains.values()]);
  }

  /**
   * Sends the task's current status to a webhook just registered, so that a status change between the
   * task's start and the registration (e.g. a config given with `SendMessage`) is not missed.
   */
  registered(config: PushNotificationConfig): void {
    // Queued at once (the status is read when its turn comes), so it goes before any later change.
    this.enqueue([config], async () => statusBody(await this.tasks.find(config.taskId), { type: 'registered' }), 0);
  }

  private async notify(event: TaskEvent): Promise<void> {
    const configs = await this.configs.list(event.taskId);
    if (configs.length === 0) return;
    const task = await this.tasks.find(event.taskId);
    const body = statusBody(task, { eventId: event.id, type: event.type });
    this.enqueue(configs, () => Promise.resolve(body), event.id);
  }

  private enqueue(configs: PushNotificationConfig[], body: () => Promise<string>, eventId: number): void {
    for (const config of configs) {
      const key = `${config.taskId}\u0000${config.configId}`;
      const chain = (this.chains.get(key) ?? Promise.resolve())
        .then(async () => this.deliver(config, await body(), eventId))
        .catch((err: unknown) => this.logger.warn(`push notification ${eventId} of task ${config.taskId} failed: ${String(err)}`));
      this.chains.set(key, chain);
      void chain.finally(() => {
        if (this.chains.get(key) === chain) this.chains.delete(key);
      });
    }
  }

  private async deliver(config: PushNotificationConfig, body: string, eventId: number): Promise<void> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (config.authentication) headers.authorization = `${config.authentication.scheme} ${config.authentication.credentials}`;
    if (config.token) headers['x-a2a-notification-token'] = config.token;
    for (let attempt = 1; attempt <= this.settings.maxAttempts && !this.stopping.signal.aborted; attempt++) {
      let problem: string;
      try {
        const response = await fetch(config.url, { method: 'POST', headers, body, signal: AbortSignal.any([AbortSignal.timeout(this.settings.timeoutMs), this.stopping.signal]), redirect: 'manual' });
        await response.body?.cancel();
        if (response.ok) return;
        problem = `HTTP ${response.status}`;
      } catch (err) {
        problem = err instanceof Error ? (err.name === 'TimeoutError' ? `no answer within ${this.settings.timeoutMs} ms` : err.message) : String(err);
      }
      if (attempt === this.settings.maxAttempts) {
        this.logger.warn(`push notification ${eventId} of task ${config.taskId} to config ${config.configId} dropped after ${attempt} attempts (${problem})`);
        return;
      }
      await abortableDelay(retryDelayMs(attempt, this.settings), this.stopping.signal);
    }
  }
}

/** The A2A `StreamResponse` JSON of the task's current status. */
function statusBody(task: Task, metadata: Record<string, unknown>): string {
  return JSON.stringify(StreamResponseCodec.toJSON({ payload: { $case: 'statusUpdate', value: { taskId: task.taskId, contextId: contextIdOf(task), status: toA2aStatus(task), metadata } } }));
}

function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
