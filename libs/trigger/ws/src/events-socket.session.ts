import { Logger } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import type { RawData, WebSocket } from 'ws';
import type { LiveScreenService } from '@mobileclaw/case-device-control';
import type { TaskService } from '@mobileclaw/case-tasks';
import { MobileClawError, type DeviceEvent, type MobileClawService } from '@mobileclaw/domain';
import { toTaskEventResource, toTaskResource } from '@mobileclaw/trigger-rest';
import {
  EVENTS_SOCKET_VERSION,
  MAX_LISTED,
  isUnreadable,
  parseClientMessage,
  socketError,
  type ApproveMessage,
  type CancelMessage,
  type MessageId,
  type ServerMessage,
  type SubscribeMessage,
  type UnsubscribeMessage,
} from './events-socket.messages';

/** Close code of a client that does not read fast enough (RFC 6455 registry: 1013 Try Again Later). */
export const CLOSE_TOO_SLOW = 1013;
/** Close code of a socket whose message the gateway failed to handle (RFC 6455: 1011 Internal Error). */
export const CLOSE_INTERNAL_ERROR = 1011;
/** Most characters of a handler's error message that are logged. */
const LOGGED_ERROR_CHARS = 200;

const logger = new Logger('EventsSocket');

/** What a session needs of the gateway. */
export interface EventsSocketSessionDeps {
  tasks: TaskService;
  phones: MobileClawService;
  screens: LiveScreenService;
}

/** Limits of one session. */
export interface EventsSocketSessionLimits {
  /** Largest client message, bytes (the socket's `maxPayload`); announced in `welcome`. */
  maxMessageBytes: number;
  /**
   * Bytes the socket may hold unsent. Past it an event closes the socket with {@link CLOSE_TOO_SLOW}
   * (the client resubscribes with `since`); a screen frame is held back instead (only the newest
   * held frame of a phone is sent, once the socket has drained below a quarter of the bound).
   */
  maxBufferedBytes: number;
  /** How often a held-back screen frame is tried again, ms. */
  frameRetryMs: number;
}

/**
 * One client of the live event socket: reads its messages ({@link parseClientMessage}), keeps its
 * subscriptions (device events, task events, live screens) and sends what they produce. A message
 * that cannot be read gets an `error` message and changes nothing else.
 */
export class EventsSocketSession {
  /** Subscribed phones: `'*'` for all, else the ids; undefined for none. */
  private deviceFilter: '*' | Set<string> | undefined;
  private deviceEvents?: Subscription;
  /** Device events that arrived while a `devices` list was being read; sent after it. */
  private heldDeviceEvents?: DeviceEvent[];
  private readonly taskStreams = new Map<string, Subscription>();
  private readonly screenStreams = new Map<string, Subscription>();
  /** The newest screen frame of each phone that waits for the socket to drain. */
  private readonly heldFrames = new Map<string, ServerMessage>();
  private frameRetry?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly socket: WebSocket,
    private readonly deps: EventsSocketSessionDeps,
    private readonly limits: EventsSocketSessionLimits,
  ) {
    socket.on('message', (data: RawData, isBinary: boolean) => this.onMessage(data, isBinary));
    socket.on('close', () => this.close());
    this.send({ type: 'welcome', v: EVENTS_SOCKET_VERSION, maxMessageBytes: limits.maxMessageBytes });
  }

  /** Ends every subscription (the socket closed, or the session is dropped). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.frameRetry);
    this.deviceEvents?.unsubscribe();
    for (const sub of [...this.taskStreams.values(), ...this.screenStreams.values()]) sub.unsubscribe();
    this.taskStreams.clear();
    this.screenStreams.clear();
    this.heldFrames.clear();
  }

  /**
   * Reads one client message. Whatever its handling throws (synchronously or from the task lookups
   * it awaits) ends this socket only: logged once, an `error` message with `INTERNAL_ERROR`, close
   * {@link CLOSE_INTERNAL_ERROR}; it never reaches the process (an uncaught exception or unhandled
   * rejection would end every session and the gateway).
   */
  private onMessage(data: RawData, isBinary: boolean): void {
    try {
      this.handleMessage(data, isBinary);
    } catch (err) {
      this.failed(err);
    }
  }

  private failed(err: unknown): void {
    if (this.closed) return;
    const message = (err instanceof Error ? err.message : String(err)).slice(0, LOGGED_ERROR_CHARS);
    logger.error(`closing an event socket: handling its message failed: ${message}`);
    try {
      this.send({ type: 'error', error: { code: 'INTERNAL_ERROR', message: 'the gateway failed to handle this message; the socket closes' } });
    } finally {
      this.socket.close(CLOSE_INTERNAL_ERROR, 'internal error');
      this.close();
    }
  }

  private handleMessage(data: RawData, isBinary: boolean): void {
    if (this.closed) return;
    if (isBinary) {
      this.send({ type: 'error', error: { code: 'VALIDATION_FAILED', message: 'binary messages are not read: send JSON text messages' } });
      return;
    }
    const message = parseClientMessage(Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]).toString('utf8'));
    if (isUnreadable(message)) {
      this.send({ type: 'error', ...(message.id !== undefined ? { id: message.id } : {}), error: socketError(message.error) });
      return;
    }
    switch (message.type) {
      case 'subscribe':
        this.subscribe(message).catch((err: unknown) => this.failed(err));
        break;
      case 'unsubscribe':
        this.unsubscribe(message);
        break;
      case 'cancel':
      case 'approve':
        this.command(message).catch((err: unknown) => this.failed(err));
        break;
    }
  }

  /**
   * Starts the listed subscriptions. Every task is looked up first: one unknown task
   * (`TASK_NOT_FOUND`) refuses the whole message, and nothing of it is subscribed; so does going over
   * {@link MAX_LISTED} tasks, screens or device ids followed at once (`VALIDATION_FAILED`; `"*"`
   * counts as none).
   */
  private async subscribe(message: SubscribeMessage): Promise<void> {
    const tasks = new Set([...this.taskStreams.keys(), ...(message.tasks ?? []).map((t) => t.taskId)]);
    const screens = new Set([...this.screenStreams.keys(), ...(message.screens ?? [])]);
    if (tasks.size > MAX_LISTED || screens.size > MAX_LISTED || this.followedDevicesAfter(message.devices) > MAX_LISTED) {
      this.answer(message.id, new MobileClawError('VALIDATION_FAILED', `a socket follows at most ${MAX_LISTED} tasks, ${MAX_LISTED} screens and ${MAX_LISTED} device ids at once: unsubscribe some first, or follow every device with "*"`));
      return;
    }
    try {
      for (const { taskId } of message.tasks ?? []) await this.deps.tasks.find(taskId);
    } catch (err) {
      this.answer(message.id, err);
      return;
    }
    if (this.closed) return;
    for (const { taskId, since } of message.tasks ?? []) this.followTask(taskId, since ?? 0);
    for (const deviceId of message.screens ?? []) this.followScreen(deviceId);
    if (message.devices !== undefined) {
      // Checked again: the task lookups above may have let another subscribe add ids meanwhile.
      if (this.followedDevicesAfter(message.devices) > MAX_LISTED) {
        this.answer(message.id, new MobileClawError('VALIDATION_FAILED', `a socket follows at most ${MAX_LISTED} device ids at once: unsubscribe some first, or follow every device with "*"`));
        return;
      }
      if (message.devices === '*') this.deviceFilter = '*';
      else if (this.deviceFilter !== '*') {
        this.deviceFilter ??= new Set();
        for (const deviceId of message.devices) this.deviceFilter.add(deviceId);
      }
      this.followDevices();
    }
    this.answer(message.id);
  }

  /** How many device ids the socket would follow after subscribing to `devices` (0 under `"*"`). */
  private followedDevicesAfter(devices: SubscribeMessage['devices']): number {
    if (devices === undefined) return this.deviceFilter instanceof Set ? this.deviceFilter.size : 0;
    if (devices === '*' || this.deviceFilter === '*') return 0;
    const current = this.deviceFilter;
    return (current?.size ?? 0) + new Set(devices.filter((deviceId) => !current?.has(deviceId))).size;
  }

  /**
   * Ends the listed subscriptions. Devices followed as `"*"` are unsubscribed as `"*"`: a list of ids
   * then refuses the whole message (`VALIDATION_FAILED`), since "every device but these" is not a
   * subscription the socket keeps — unsubscribe `"*"` and subscribe the ids wanted instead.
   */
  private unsubscribe(message: UnsubscribeMessage): void {
    if (this.deviceFilter === '*' && Array.isArray(message.devices)) {
      this.answer(
        message.id,
        new MobileClawError('VALIDATION_FAILED', 'this socket follows every device ("*"): unsubscribe devices "*", then subscribe the device ids wanted', {
          fieldErrors: [{ field: 'devices', message: 'must be "*" while every device is followed' }],
        }),
      );
      return;
    }
    for (const taskId of message.tasks ?? []) {
      this.taskStreams.get(taskId)?.unsubscribe();
      this.taskStreams.delete(taskId);
    }
    for (const deviceId of message.screens ?? []) {
      this.screenStreams.get(deviceId)?.unsubscribe();
      this.screenStreams.delete(deviceId);
      this.heldFrames.delete(deviceId);
    }
    if (message.devices === '*') this.deviceFilter = undefined;
    else if (message.devices && this.deviceFilter instanceof Set) for (const id of message.devices) this.deviceFilter.delete(id);
    if (this.deviceFilter === undefined || (this.deviceFilter instanceof Set && this.deviceFilter.size === 0)) {
      this.deviceFilter = undefined;
      this.deviceEvents?.unsubscribe();
      this.deviceEvents = undefined;
      this.heldDeviceEvents = undefined;
    }
    this.answer(message.id);
  }

  /** `cancel` and `approve`, by the REST endpoints' rules: the reply carries the task, or the error. */
  private async command(message: CancelMessage | ApproveMessage): Promise<void> {
    try {
      const task = message.type === 'cancel' ? await this.deps.tasks.cancel(message.taskId) : await this.deps.tasks.approve(message.taskId, message.approved);
      this.send({ type: 'reply', id: message.id, ok: true, task: toTaskResource(task) });
    } catch (err) {
      this.send({ type: 'reply', id: message.id, ok: false, error: socketError(err) });
    }
  }

  /** Sends the reply to a message with an id; a failure of a message without one is an `error` message. */
  private answer(id: MessageId | undefined, err?: unknown): void {
    if (id !== undefined) this.send(err === undefined ? { type: 'reply', id, ok: true } : { type: 'reply', id, ok: false, error: socketError(err) });
    else if (err !== undefined) this.send({ type: 'error', error: socketError(err) });
  }

  /**
   * A task's events after `since`, as its SSE stream sends them (replayed from the store, then live,
   * same ids), then `task.end` with the id of the task's last event (looked up when none came after
   * `since`: the client's `since` may be past the end). Subscribing again to a task restarts its
   * stream after the new `since`.
   */
  private followTask(taskId: string, since: number): void {
    this.taskStreams.get(taskId)?.unsubscribe();
    let lastEventId: number | undefined;
    const subscription = this.deps.tasks.events(taskId, since).subscribe({
      next: (event) => {
        lastEventId = event.id;
        this.send(toTaskEventResource(event));
      },
      error: (err: unknown) => {
        this.taskStreams.delete(taskId);
        this.send({ type: 'task.end', taskId, lastEventId: lastEventId ?? since, error: socketError(err) });
      },
      complete: () => {
        this.taskStreams.delete(taskId);
        if (lastEventId !== undefined) {
          this.send({ type: 'task.end', taskId, lastEventId });
          return;
        }
        this.deps.tasks.lastEventId(taskId).then(
          (last) => this.send({ type: 'task.end', taskId, lastEventId: last }),
          (err: unknown) => this.send({ type: 'task.end', taskId, lastEventId: since, error: socketError(err) }),
        );
      },
    });
    if (!subscription.closed) this.taskStreams.set(taskId, subscription);
  }

  /** The phones' events, filtered to the subscribed ones, after a `devices` list of them (as the SSE stream does). */
  private followDevices(): void {
    this.deviceEvents ??= this.deps.phones.events$.subscribe((event) => {
      if (!this.wantsDevice(event.deviceId)) return;
      if (this.heldDeviceEvents) this.heldDeviceEvents.push(event);
      else this.send(event);
    });
    this.heldDeviceEvents ??= [];
    const held = this.heldDeviceEvents;
    this.deps.phones.listDevices().then(
      (devices) => {
        if (this.heldDeviceEvents !== held) return;
        this.send({ type: 'devices', devices: devices.filter((d) => this.wantsDevice(d.deviceId)) });
        this.heldDeviceEvents = undefined;
        for (const event of held) this.send(event);
      },
      (err: unknown) => {
        if (this.heldDeviceEvents !== held) return;
        this.heldDeviceEvents = undefined;
        this.send({ type: 'error', error: socketError(err) });
      },
    );
  }

  private wantsDevice(deviceId: string): boolean {
    return this.deviceFilter === '*' || (this.deviceFilter?.has(deviceId) ?? false);
  }

  /** A phone's live screen: `screen.frame` on each change, `screen.end` when the phone is gone. */
  private followScreen(deviceId: string): void {
    if (this.screenStreams.has(deviceId)) return;
    const subscription = this.deps.screens.watch(deviceId).subscribe({
      next: (frame) => this.sendFrame({ type: 'screen.frame', ...frame }),
      error: (err: unknown) => {
        this.screenStreams.delete(deviceId);
        this.heldFrames.delete(deviceId);
        this.send({ type: 'screen.end', deviceId, error: socketError(err) });
      },
    });
    if (!subscription.closed) this.screenStreams.set(deviceId, subscription);
  }

  /** Sends a frame, or holds it (replacing an older held one) while the socket is backed up. */
  private sendFrame(frame: ServerMessage & { type: 'screen.frame' }): void {
    if (this.socket.bufferedAmount > this.limits.maxBufferedBytes / 4) {
      this.heldFrames.set(frame.deviceId, frame);
      this.frameRetry ??= setTimeout(() => this.flushFrames(), this.limits.frameRetryMs);
      return;
    }
    this.heldFrames.delete(frame.deviceId);
    this.send(frame);
  }

  private flushFrames(): void {
    this.frameRetry = undefined;
    for (const frame of [...this.heldFrames.values()]) this.sendFrame(frame as ServerMessage & { type: 'screen.frame' });
  }

  /** Sends one message; a client holding more than `maxBufferedBytes` unsent is closed instead. */
  private send(message: ServerMessage): void {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return;
    if (this.socket.bufferedAmount > this.limits.maxBufferedBytes) {
      this.socket.close(CLOSE_TOO_SLOW, 'too slow: messages not read; reconnect and resubscribe with since');
      this.close();
      return;
    }
    this.socket.send(JSON.stringify(message));
  }
}

