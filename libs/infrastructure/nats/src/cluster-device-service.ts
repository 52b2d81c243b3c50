import { randomBytes } from 'node:crypto';
import { Logger, type LoggerService } from '@nestjs/common';
import { createInbox, type Msg, type Subscription } from '@nats-io/transport-node';
import { MobileClawError, MobileClawService, type Command, type CommandResult, type DeviceEvent, type DeviceInfo, type ExecuteOptions } from '@mobileclaw/domain';
import type { DeviceHub } from '@mobileclaw/device';
import { Subject, type Observable, type Subscription as RxSubscription } from 'rxjs';
import type { ClusterConnection } from './cluster-connection';
import { ClusterSubjects } from './cluster-subjects';
import { fromSubjectToken } from './subject-token';
import type { DeviceDirectory, DeviceDirectoryChange, DeviceDirectoryEntry } from './device-directory';
import { ChunkAssembler, CHUNK_HEADER, CHUNKED_BYTES_HEADER, splitIntoChunks } from './message-chunks';
import { readRemoteDeviceEvent } from './remote-device-event';
import { fromRoutedError, readRoutedCommand, toRoutedError, type RoutedCancel, type RoutedCommand, type RoutedCommandReply } from './routed-command';

export interface ClusterDeviceServiceOptions {
  /** First token(s) of every subject. Default `mobileclaw`. */
  subjectPrefix?: string;
  /** Wait before a claim that failed (link down, timeout) is tried again while the phone stays connected, in ms. Default 1 000. */
  claimRetryMs?: number;
  /**
   * Longest wait for the next chunk of a routed command split into chunks, in ms; then the chunks
   * so far are dropped and the caller answered `PROTOCOL_ERROR`. Default 10 000.
   */
  chunkTimeoutMs?: number;
  /**
   * Most routed commands split into chunks this instance reassembles at once; a first chunk beyond
   * them is answered `TOO_MANY_REQUESTS` (its caller may retry). Default 4.
   */
  maxChunkedCommands?: number;
  /**
   * Most bytes (as their first chunks declare) the routed commands being reassembled may hold
   * together; a first chunk beyond them is answered `TOO_MANY_REQUESTS`. Default 4 × (the hub's max
   * frame bytes + 64 KiB).
   */
  maxChunkedBytes?: number;
  /** Default: Nest's `Logger` with context `ClusterDeviceService`. */
  logger?: LoggerService;
}

/** What this instance knows of a phone its hub holds. */
interface Holding {
  sessionId: string;
  /** The epoch of this session's claim; undefined until the claim is written. */
  epoch?: number;
}

/**
 * A routed request awaiting its reply, failed at once when the link drops, its owner instance is
 * judged gone, or the phone is claimed again (by another instance or session).
 */
interface RoutedCall {
  owner: string;
  deviceId: string;
  /** The directory epoch it was routed for. */
  epoch: number;
  fail(error: MobileClawError): void;
}

const MAX_TIMEOUT_MS = 2_147_483_647;
/** Most events of one phone held behind its `device.connected` until the claim shows (beyond: dropped). */
const MAX_FOLLOWING_EVENTS = 64;
/** NATS's default max payload (1 MiB), for a connection that has no server info yet. */
const DEFAULT_MAX_PAYLOAD = 1024 * 1024;
/** Room for a routed command's or reply's envelope around a phone frame (ids, timings, the error fields), in bytes. */
const ENVELOPE_BYTES = 64 * 1024;

/**
 * The {@link MobileClawService} of one gateway instance in a cluster, over this instance's
 * {@link DeviceHub}, a {@link DeviceDirectory} and the NATS connection:
 *
 * - `execute`: a phone held here goes to the hub (every guarantee of the hub unchanged). A phone held
 *   by another live instance goes as a NATS request to `<p>.cmd.<owner>` ({@link RoutedCommand}: device
 *   id, directory epoch, command, the deadline left, the caller's request id); the owner runs it on its
 *   hub if it still holds the phone at that epoch (else `DEVICE_REPLACED`, `DEVICE_DISCONNECTED` or
 *   `DEVICE_NOT_FOUND`) and replies the result or the error, every field kept, to a reply subject of the call.
 *   A request or reply larger than the server's `max_payload` goes as ordered chunks
 *   ({@link splitIntoChunks}), reassembled up to the hub's `maxFrameBytes` + 64 KiB (beyond:
 *   `PAYLOAD_TOO_LARGE`); a chunk missing → `PROTOCOL_ERROR` at once, chunks that stop → `TIMEOUT` at
 *   the deadline (on the owner, after `chunkTimeoutMs`: `PROTOCOL_ERROR`). No owner listening →
 *   `DEVICE_DISCONNECTED` at once; the link down → `DEVICE_DISCONNECTED` at once (and for calls in
 *   flight when it drops: their outcome on the phone is unknown); no reply within the deadline →
 *   `TIMEOUT`; the caller's signal → a cancel on `<p>.cancel.<owner>` and `ABORTED` at once. A phone
 *   with no directory entry is the hub's to answer (`DEVICE_NOT_FOUND`, or `DEVICE_DISCONNECTED` for one
 *   it saw); an entry whose instance is gone → `DEVICE_DISCONNECTED`. A call in flight fails at once,
 *   its outcome on the phone unknown, when its owner instance is judged gone (`DEVICE_DISCONNECTED`) or
 *   the phone is claimed again, here or elsewhere (`DEVICE_REPLACED`, as the fenced owner answers).
 *   Routed commands in chunks are reassembled `maxChunkedCommands` at a time, holding at most
 *   `maxChunkedBytes` together (beyond: `TOO_MANY_REQUESTS` to that caller).
 * - Other instances' device events are checked ({@link readRemoteDeviceEvent}, and published by the
 *   instance the directory names for the phone); directory entries are validated where the directory
 *   reads them (`readDirectoryEntry`); both drop what fails with a log line.
 * - Fencing: each phone the hub registers is claimed (epoch + 1); when the directory shows a phone held
 *   here claimed by another instance, this hub's session is closed `DEVICE_REPLACED`; a phone that
 *   disconnects is released (only if its entry is still this claim).
 * - `listDevices`/`getDevice`: every live phone, this hub's and the other live instances' (their info
 *   as claimed, kept current by their instance's `device.status`, `device.disconnected`,
 *   `device.replaced`, `device.controller` and `device.updated` events), in the order they connected
 *   — the same order whichever instance answers — then offline ones (this hub's, then those of
 *   instances that are gone), one record per device id.
 *   `events$`: this hub's events and every other instance's (published on
 *   `<p>.device-events.<instance>`, heartbeats excepted; another instance's `device.connected` once
 *   this instance's directory view shows that session's claim), and `device.disconnected` once for the
 *   phones of an instance that left or expired (crashed: its key not renewed for the directory's TTL);
 *   it never errors and completes on {@link close}.
 */
export class ClusterDeviceService extends MobileClawService {
  private readonly subjects: ClusterSubjects;
  private readonly logger: LoggerService;
  private readonly claimRetryMs: number;
  private readonly instanceId: string;
  private readonly held = new Map<string, Holding>();
  /** Per device, the claim or release in progress: they run in the order the hub's events came. */
  private readonly directoryWrites = new Map<string, Promise<void>>();
  /** Routed requests this instance runs for others, by the caller's request id (for cancels). */
  private readonly running = new Map<string, AbortController>();
  /** Chunked routed requests still arriving, by their reply inbox (unique per call). */
  private readonly assemblies = new Map<string, { assembler: ChunkAssembler; timer: NodeJS.Timeout; bytes: number }>();
  private readonly chunkTimeoutMs: number;
  private readonly maxChunkedCommands: number;
  private readonly maxChunkedBytes: number;
  /** The bytes the assemblies in progress declared, together. */
  private chunkedBytes = 0;
  /** Per device, the instance of the claim last released here: its `device.disconnected` may arrive after the release. */
  private readonly releasedFrom = new Map<string, string>();
  /** Other instances' phones as their events tell, by device id (used while the entry names that instance and session). */
  private readonly remote = new Map<string, { instanceId: string; info: DeviceInfo }>();
  /** The subject prefix of replies to this instance's routed requests: one subscription to `<inbox>.*` takes them all. */
  private readonly replyInbox = createInbox();
  /** Per device, the instance its claim in the directory view names (kept to know who released it). */
  private readonly claims = new Map<string, string>();
  /** Handlers of the replies awaited, by the last token of their reply subject. */
  private readonly replies = new Map<string, (msg: Msg) => void>();
  /** Requests this instance routed to others and still awaits. */
  private readonly calls = new Set<RoutedCall>();
  private readonly requestIdPrefix: string;
  private sequence = 0;
  private readonly events = new Subject<DeviceEvent>();
  /**
   * Other instances' `device.connected` events held until this instance's directory view shows that
   * session's claim: the event travels faster than the claim's KV update, and a phone announced here
   * must be listed and reachable from here.
   */
  private readonly announcing = new Map<string, { event: DeviceEvent & { type: 'device.connected' }; publisher: string; following: DeviceEvent[] }>();
  readonly events$: Observable<DeviceEvent> = this.events.asObservable();
  private readonly subscriptions: Subscription[] = [];
  private readonly rx: RxSubscription[] = [];
  private closed = false;

  private constructor(
    private readonly hub: DeviceHub,
    private readonly connection: ClusterConnection,
    private readonly directory: DeviceDirectory,
    options: ClusterDeviceServiceOptions,
  ) {
    super();
    this.subjects = new ClusterSubjects(options.subjectPrefix);
    this.logger = options.logger ?? new Logger('ClusterDeviceService');
    this.claimRetryMs = options.claimRetryMs ?? 1_000;
    this.chunkTimeoutMs = options.chunkTimeoutMs ?? 10_000;
    this.maxChunkedCommands = options.maxChunkedCommands ?? 4;
    this.maxChunkedBytes = options.maxChunkedBytes ?? 4 * this.maxMessageBytes();
    this.instanceId = directory.instanceId;
    this.requestIdPrefix = `${this.instanceId}-${randomBytes(3).toString('hex')}-`;
  }

  /**
   * Subscribes to this instance's command and cancel subjects and to every instance's device events,
   * claims the phones the hub already holds, releases this instance's entries left from an earlier
   * run, and resolves once the server has the subscriptions (commands routed from then on are served).
   * @throws Error when the directory's instance id differs from the connection's, or the server cannot be reached.
   */
  static async start(hub: DeviceHub, connection: ClusterConnection, directory: DeviceDirectory, options: ClusterDeviceServiceOptions = {}): Promise<ClusterDeviceService> {
    if (directory.instanceId !== connection.instanceId) throw new Error(`the directory's instance ${directory.instanceId} is not the connection's ${connection.instanceId}`);
    const service = new ClusterDeviceService(hub, connection, directory, options);
    await service.subscribe();
    return service;
  }

  // ---- MobileClawService ----------------------------------------------------------------------

  /**
   * Runs `command` on the phone wherever it is held; the result is the owner hub's (its request id,
   * `durationMs` and `queuedMs` measured there, the hop excluded).
   * @throws MobileClawError the hub's codes (see `MobileClawService.execute`), the owner's round-tripped,
   *   and `DEVICE_DISCONNECTED` (owner gone, not listening, or the cluster link down), `TIMEOUT` (no reply
   *   within the deadline), `ABORTED`, `DEVICE_REPLACED` (the phone moved since it was routed),
   *   `PAYLOAD_TOO_LARGE` (a reply beyond the hub's max frame bytes + 64 KiB), `PROTOCOL_ERROR` (a reply
   *   chunk missing or altered, an unreadable reply).
   */
  execute<T = Record<string, unknown>>(deviceId: string, command: Command, options: ExecuteOptions = {}): Promise<CommandResult<T>> {
    if (this.closed || this.held.has(deviceId)) return this.hub.execute<T>(deviceId, command, options);
    const entry = this.directory.lookup(deviceId);
    if (entry === undefined || entry.instanceId === this.instanceId) return this.hub.execute<T>(deviceId, command, options);
    if (!this.directory.isLive(entry.instanceId)) {
      return Promise.reject(new MobileClawError('DEVICE_DISCONNECTED', `device ${deviceId} is offline (its gateway instance ${entry.instanceId} is gone)`, { deviceId }));
    }
    return this.route<T>(entry, command, options);
  }

  /** Every phone of the cluster as this instance sees it, one record per device id: see the class. */
  async listDevices(): Promise<DeviceInfo[]> {
    const local = await this.hub.listDevices();
    const listed = new Map<string, DeviceInfo>();
    const add = (info: DeviceInfo): void => {
      if (!listed.has(info.deviceId)) listed.set(info.deviceId, info);
    };
    const entries = this.directory.entries().sort(byConnection);
    const remote = new Map(entries.filter((entry) => this.heldElsewhere(entry)).map((entry) => [entry.deviceId, this.remoteInfo(entry)]));
    // Every live phone, this hub's and the others', in the order they connected: the same list
    // whichever instance answers (the view's own order is the watch's arrival order).
    const live = [...local, ...remote.values()].filter((info) => info.status !== 'offline').sort(byConnection);
    for (const info of live) add(info);
    for (const info of local) add(info);
    for (const entry of entries) add(remote.get(entry.deviceId) ?? this.offlineInfo(entry));
    return [...listed.values()];
  }

  /**
   * One phone's info: this hub's, else its claim's on a live instance, else an offline record.
   * @throws MobileClawError `DEVICE_NOT_FOUND` when neither this hub nor the directory knows it.
   */
  async getDevice(deviceId: string): Promise<DeviceInfo> {
    if (this.held.has(deviceId)) return this.hub.getDevice(deviceId);
    const entry = this.directory.lookup(deviceId);
    if (entry !== undefined && this.heldElsewhere(entry)) return this.remoteInfo(entry);
    try {
      return await this.hub.getDevice(deviceId);
    } catch (err) {
      if (entry === undefined) throw err;
      return this.offlineInfo(entry);
    }
  }

  /**
   * Stops serving routed commands (those running are aborted), fails routed calls awaiting a reply
   * with `SHUTTING_DOWN`, unsubscribes and completes {@link events$}. The hub, the directory and the
   * connection stay open (their owner closes them). Idempotent.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const sub of this.rx) sub.unsubscribe();
    for (const sub of this.subscriptions) sub.unsubscribe();
    for (const controller of this.running.values()) controller.abort();
    for (const replyTo of [...this.assemblies.keys()]) this.dropAssembly(replyTo);
    for (const call of [...this.calls]) call.fail(new MobileClawError('SHUTTING_DOWN', 'gateway is shutting down'));
    await Promise.allSettled([...this.directoryWrites.values()]);
    this.events.complete();
  }

  // ---- the caller's side of a routed command --------------------------------------------------

  private route<T>(entry: DeviceDirectoryEntry, command: Command, options: ExecuteOptions): Promise<CommandResult<T>> {
    const { deviceId, instanceId: owner } = entry;
    const timeoutMs = options.timeoutMs ?? this.hub.options.defaultTimeoutMs;
    // Node timers hold at most 2^31-1 ms: the same bound as the hub's.
    if (!(timeoutMs > 0) || timeoutMs > MAX_TIMEOUT_MS) {
      return Promise.reject(
        new MobileClawError('VALIDATION_FAILED', `timeoutMs must be between 1 and ${MAX_TIMEOUT_MS}`, { deviceId, fieldErrors: [{ field: 'timeoutMs', message: `must be 1-${MAX_TIMEOUT_MS} ms` }] }),
      );
    }
    const signal = options.signal;
    if (signal?.aborted) return Promise.reject(new MobileClawError('ABORTED', 'aborted before it was sent', { deviceId }));
    if (!this.connection.linkUp) {
      return Promise.reject(new MobileClawError('DEVICE_DISCONNECTED', `device ${deviceId} is held by gateway instance ${owner} and the cluster link (NATS) is down`, { deviceId }));
    }
    const routed: RoutedCommand = { requestId: this.requestIdPrefix + (++this.sequence).toString(36), deviceId, epoch: entry.epoch, command, timeoutMs };
    if (options.frameId !== undefined) routed.frameId = options.frameId;
    if (options.background !== undefined) routed.background = options.background;
    return new Promise<CommandResult<T>>((resolve, reject) => {
      let settled = false;
      const reply = new ChunkAssembler({ maxBytes: this.maxMessageBytes(), what: `the reply of gateway instance ${owner} for device ${deviceId}`, deviceId });
      const timer = setTimeout(() => {
        const arrived = reply.partial ? `; ${reply.progress()} of the reply arrived` : '';
        call.fail(new MobileClawError('TIMEOUT', `no reply within ${timeoutMs} ms (routed to gateway instance ${owner}${arrived})`, { deviceId }));
      }, timeoutMs);
      const finish = (settle: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.replies.delete(replyToken);
        this.calls.delete(call);
        signal?.removeEventListener('abort', onAbort);
        settle();
      };
      const call: RoutedCall = { owner, deviceId, epoch: entry.epoch, fail: (error) => finish(() => reject(error)) };
      const onAbort = (): void => {
        const cancel: RoutedCancel = { requestId: routed.requestId };
        try {
          this.connection.nc.publish(this.subjects.cancel(owner), JSON.stringify(cancel));
        } catch (err) {
          this.logger.warn(`could not cancel request ${routed.requestId} on instance ${owner}: ${describe(err)}`);
        }
        call.fail(new MobileClawError('ABORTED', 'aborted by the caller', { deviceId }));
      };
      // Replies come to a subject of this call under the service's reply inbox: a reply larger than the
      // server's max payload arrives as several chunks, which a one-message request would drop after the first.
      const replyToken = (++this.sequence).toString(36);
      const received = (msg: Msg): void => {
        // The server answers a message nobody subscribes to with an empty 503 status message.
        if (msg.data.length === 0 && msg.headers?.status === '503') {
          call.fail(new MobileClawError('DEVICE_DISCONNECTED', `device ${deviceId}'s gateway instance ${owner} does not answer on the cluster link (no responders)`, { deviceId }));
          return;
        }
        let body: Uint8Array | undefined;
        try {
          body = reply.add(msg);
        } catch (err) {
          call.fail(err as MobileClawError);
          return;
        }
        if (body === undefined) return;
        const answer = readReply(body);
        if (answer === undefined) call.fail(new MobileClawError('PROTOCOL_ERROR', `gateway instance ${owner} sent an unreadable reply for device ${deviceId}`, { deviceId }));
        else if (answer.ok) finish(() => resolve(answer.result as CommandResult<T>));
        else call.fail(fromRoutedError(answer.error));
      };
      this.calls.add(call);
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const nc = this.connection.nc;
        const replyTo = `${this.replyInbox}.${replyToken}`;
        this.replies.set(replyToken, received);
        for (const chunk of splitIntoChunks(Buffer.from(JSON.stringify(routed)), this.maxPayload())) {
          nc.publish(this.subjects.command(owner), chunk.data, { reply: replyTo, headers: chunk.headers });
        }
      } catch (err) {
        call.fail(this.routingFailure(err, owner, deviceId)); // e.g. the connection was closed
      }
    });
  }

  /** The catalog error for a NATS call that failed (the connection closed, a permission refused). */
  private routingFailure(err: unknown, owner: string, deviceId: string): MobileClawError {
    return new MobileClawError('DEVICE_DISCONNECTED', `the cluster link (NATS) failed while routing to gateway instance ${owner}: ${describe(err)}`, { deviceId, cause: err });
  }

  /** The server's max payload (headers and data, bytes) on the connection now. */
  private maxPayload(): number {
    return this.connection.nc.info?.max_payload ?? DEFAULT_MAX_PAYLOAD;
  }

  /** The largest routed request or reply accepted: a phone frame (the hub's bound) and the envelope around it, in bytes. */
  private maxMessageBytes(): number {
    return this.hub.options.maxFrameBytes + ENVELOPE_BYTES;
  }

  // ---- the owner's side of a routed command ---------------------------------------------------

  /** A message on this instance's command subject: a whole routed command, or one chunk of one. */
  private receive(msg: Msg): void {
    const replyTo = msg.reply;
    if (!replyTo) return; // nobody to answer
    const pending = this.assemblies.get(replyTo);
    if (pending === undefined && msg.headers?.get(CHUNK_HEADER)) {
      const refusal = this.assemblyRefusal(msg);
      if (refusal !== undefined) {
        this.respond(replyTo, { ok: false, error: toRoutedError(refusal) });
        return;
      }
    }
    const assembler = pending?.assembler ?? new ChunkAssembler({ maxBytes: this.maxMessageBytes(), what: 'a routed command' });
    let body: Uint8Array | undefined;
    try {
      body = assembler.add(msg);
    } catch (err) {
      this.dropAssembly(replyTo);
      this.respond(replyTo, { ok: false, error: toRoutedError(err) });
      return;
    }
    if (body !== undefined) {
      this.dropAssembly(replyTo);
      void this.serve(replyTo, body);
    } else if (pending !== undefined) {
      pending.timer.refresh();
    } else {
      const timer = setTimeout(() => {
        this.dropAssembly(replyTo);
        const error = new MobileClawError('PROTOCOL_ERROR', `a routed command: ${assembler.progress()} arrived, then none for ${this.chunkTimeoutMs} ms`);
        this.respond(replyTo, { ok: false, error: toRoutedError(error) });
      }, this.chunkTimeoutMs);
      timer.unref();
      const bytes = Number(msg.headers?.get(CHUNKED_BYTES_HEADER));
      this.chunkedBytes += bytes;
      this.assemblies.set(replyTo, { assembler, timer, bytes });
    }
  }

  /**
   * `TOO_MANY_REQUESTS` when the first chunk `msg` of a routed command would exceed
   * `maxChunkedCommands` or `maxChunkedBytes`; a malformed one is the assembler's to refuse.
   */
  private assemblyRefusal(msg: Msg): MobileClawError | undefined {
    if (this.assemblies.size >= this.maxChunkedCommands) {
      return new MobileClawError('TOO_MANY_REQUESTS', `gateway instance ${this.instanceId} is receiving ${this.assemblies.size} routed commands in chunks, its limit (maxChunkedCommands); retry later`);
    }
    const bytes = Number(msg.headers?.get(CHUNKED_BYTES_HEADER));
    if (Number.isSafeInteger(bytes) && bytes <= this.maxMessageBytes() && this.chunkedBytes + bytes > this.maxChunkedBytes) {
      return new MobileClawError(
        'TOO_MANY_REQUESTS',
        `gateway instance ${this.instanceId} holds ${this.chunkedBytes} bytes of routed commands in chunks; ${bytes} more would exceed its limit of ${this.maxChunkedBytes} (maxChunkedBytes); retry later`,
      );
    }
    return undefined;
  }

  private dropAssembly(replyTo: string): void {
    const pending = this.assemblies.get(replyTo);
    if (pending === undefined) return;
    clearTimeout(pending.timer);
    this.assemblies.delete(replyTo);
    this.chunkedBytes -= pending.bytes;
  }

  private async serve(replyTo: string, body: Uint8Array): Promise<void> {
    const routed = readRoutedCommand(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
    if (routed === undefined) {
      this.respond(replyTo, { ok: false, error: { code: 'VALIDATION_FAILED', message: 'not a routed command' } });
      return;
    }
    const { deviceId, requestId } = routed;
    const refusal = await this.refusal(routed);
    if (refusal !== undefined) {
      this.respond(replyTo, { ok: false, error: toRoutedError(refusal) });
      return;
    }
    const controller = new AbortController();
    this.running.set(requestId, controller);
    try {
      const options: ExecuteOptions = { timeoutMs: routed.timeoutMs, signal: controller.signal };
      if (routed.frameId !== undefined) options.frameId = routed.frameId;
      if (routed.background !== undefined) options.background = routed.background;
      const result = await this.hub.execute(deviceId, routed.command, options);
      this.respond(replyTo, { ok: true, result });
    } catch (err) {
      this.respond(replyTo, { ok: false, error: toRoutedError(err) });
    } finally {
      this.running.delete(requestId);
    }
  }

  /** Why this instance must not run `routed`, or undefined when it holds the phone at the routed epoch. */
  private async refusal(routed: RoutedCommand): Promise<MobileClawError | undefined> {
    const { deviceId, epoch } = routed;
    const holding = this.held.get(deviceId);
    // Another instance may see this instance's claim before this one has its acknowledgement.
    if (holding !== undefined && holding.epoch === undefined) await this.directoryWrites.get(deviceId);
    if (holding !== undefined && holding.epoch === epoch && this.held.get(deviceId) === holding) return undefined;
    const entry = this.directory.lookup(deviceId);
    const newer = holding !== undefined || (entry !== undefined && (entry.epoch !== epoch || entry.instanceId !== this.instanceId));
    if (newer) return new MobileClawError('DEVICE_REPLACED', `device ${deviceId} was claimed again since epoch ${epoch} was routed`, { deviceId });
    const known = await this.hub.getDevice(deviceId).then(
      () => true,
      () => false,
    );
    return known
      ? new MobileClawError('DEVICE_DISCONNECTED', `device ${deviceId} is offline on gateway instance ${this.instanceId}`, { deviceId })
      : new MobileClawError('DEVICE_NOT_FOUND', `no device ${JSON.stringify(deviceId)} is known on gateway instance ${this.instanceId}`, { deviceId });
  }

  private cancel(msg: Msg): void {
    try {
      const { requestId } = msg.json<RoutedCancel>();
      if (typeof requestId === 'string') this.running.get(requestId)?.abort();
    } catch {
      // Not a cancel: nothing to abort.
    }
  }

  /**
   * Sends `reply` to `replyTo`, in chunks when it exceeds the server's max payload; one larger than
   * {@link maxMessageBytes} becomes `PAYLOAD_TOO_LARGE` (the caller is told, not left to time out).
   */
  private respond(replyTo: string, reply: RoutedCommandReply): void {
    let body = Buffer.from(JSON.stringify(reply));
    if (body.length > this.maxMessageBytes()) {
      const error = { code: 'PAYLOAD_TOO_LARGE' as const, message: `the reply (${body.length} bytes) exceeds the ${this.maxMessageBytes()} bytes a routed reply may take (the hub's max frame bytes and ${ENVELOPE_BYTES} for the envelope)` };
      body = Buffer.from(JSON.stringify({ ok: false, error } satisfies RoutedCommandReply));
    }
    try {
      for (const chunk of splitIntoChunks(body, this.maxPayload())) this.connection.nc.publish(replyTo, chunk.data, { headers: chunk.headers });
    } catch (err) {
      this.logger.warn(`could not reply to a routed command: ${describe(err)}`);
    }
  }

  // ---- directory claims and fencing -----------------------------------------------------------

  private hubEvent(event: DeviceEvent): void {
    if (event.type === 'device.connected') this.connected(event.device);
    else if (event.type === 'device.disconnected') this.disconnected(event.deviceId);
    this.events.next(event);
    if (event.type === 'device.heartbeat') return; // every phone every few seconds: each hub's own business
    try {
      this.connection.nc.publish(this.subjects.deviceEvents(this.instanceId), JSON.stringify(event));
    } catch (err) {
      this.logger.warn(`could not publish a ${event.type} event of ${event.deviceId}: ${describe(err)}`);
    }
  }

  private connected(device: DeviceInfo): void {
    const holding: Holding = { sessionId: device.sessionId };
    this.held.set(device.deviceId, holding);
    this.inOrder(device.deviceId, () => this.claim(device, holding));
  }

  /** Claims `device` for `holding`, retried every `claimRetryMs` while that session stays held here. */
  private async claim(device: DeviceInfo, holding: Holding): Promise<void> {
    for (;;) {
      if (this.closed || this.held.get(device.deviceId) !== holding) return;
      try {
        holding.epoch = await this.directory.claim(device);
        // A newer claim elsewhere may have reached the watch before this acknowledgement did.
        const current = this.directory.lookup(device.deviceId);
        if (current !== undefined && current.epoch > holding.epoch) this.fenceIfClaimedElsewhere(current);
        return;
      } catch (err) {
        this.logger.warn(`could not claim device ${device.deviceId} (retrying in ${this.claimRetryMs} ms): ${describe(err)}`);
        await new Promise<void>((resolve) => setTimeout(resolve, this.claimRetryMs).unref());
      }
    }
  }

  private disconnected(deviceId: string): void {
    const holding = this.held.get(deviceId);
    if (holding === undefined) return; // fenced: another instance's claim owns the entry
    this.held.delete(deviceId);
    this.inOrder(deviceId, async () => {
      if (holding.epoch === undefined) return;
      try {
        await this.directory.release(deviceId, holding.epoch);
      } catch (err) {
        this.logger.warn(`could not release device ${deviceId} (its entry stays until it is claimed again): ${describe(err)}`);
      }
    });
  }

  /**
   * A phone held here claimed by another instance: this session is the stale one and is closed. An
   * instance that left the cluster (it deleted its key on shutdown, when its hub tells nobody) or
   * expired (a crash: nobody else tells) has its phones announced `device.disconnected` here, once.
   * Snapshots that no longer match their entry are dropped.
   */
  private directoryChanged(change: DeviceDirectoryChange): void {
    if (change.type === 'instance-left' || change.type === 'instance-expired') {
      const at = new Date().toISOString();
      const reason = change.type === 'instance-left' ? `its gateway instance ${change.instanceId} left the cluster` : `its gateway instance ${change.instanceId} stopped renewing its heartbeat (crashed or cut off from NATS)`;
      for (const entry of this.directory.entries()) {
        if (entry.instanceId === change.instanceId) this.events.next({ type: 'device.disconnected', deviceId: entry.deviceId, reason, at });
      }
      for (const [deviceId, snapshot] of this.remote) if (snapshot.instanceId === change.instanceId) this.remote.delete(deviceId);
      for (const call of [...this.calls]) {
        if (call.owner === change.instanceId) call.fail(new MobileClawError('DEVICE_DISCONNECTED', `device ${call.deviceId}'s gateway instance ${call.owner} is gone (${change.type === 'instance-left' ? 'it left the cluster' : 'its heartbeat stopped'}) while the command was routed to it; its outcome on the phone is unknown`, { deviceId: call.deviceId }));
      }
      return;
    }
    if (change.type === 'released') {
      const claim = this.claims.get(change.deviceId);
      if (claim !== undefined) this.releasedFrom.set(change.deviceId, claim);
      this.claims.delete(change.deviceId);
      this.remote.delete(change.deviceId);
      return;
    }
    this.claims.set(change.entry.deviceId, change.entry.instanceId);
    this.releasedFrom.delete(change.entry.deviceId);
    for (const call of [...this.calls]) {
      // The watch shows claims in the order they were written: an epoch above the routed one is a newer claim.
      if (call.deviceId === change.entry.deviceId && change.entry.epoch > call.epoch) {
        // The owner's own answer in this case (its session was fenced): the command's outcome on the phone is unknown.
        call.fail(new MobileClawError('DEVICE_REPLACED', `device reconnected on a new session: claimed by gateway instance ${change.entry.instanceId} (epoch ${change.entry.epoch})`, { deviceId: call.deviceId }));
      }
    }
    const snapshot = this.remote.get(change.entry.deviceId);
    if (snapshot !== undefined && (snapshot.instanceId !== change.entry.instanceId || snapshot.info.sessionId !== change.entry.sessionId)) this.remote.delete(change.entry.deviceId);
    this.fenceIfClaimedElsewhere(change.entry);
    const waiting = this.announcing.get(change.entry.deviceId);
    if (waiting !== undefined && waiting.event.device.sessionId === change.entry.sessionId) {
      this.announcing.delete(change.entry.deviceId);
      if (waiting.publisher === change.entry.instanceId) for (const event of [waiting.event, ...waiting.following]) this.remoteEventOfOwner(waiting.publisher, event);
      else this.logger.warn(`dropped a device.connected event of ${change.entry.deviceId} from gateway instance ${waiting.publisher}: its claim names instance ${change.entry.instanceId}`);
    }
  }

  /** Closes this hub's session of `entry`'s phone when `entry` is another instance's claim, newer than this one's. */
  private fenceIfClaimedElsewhere(entry: DeviceDirectoryEntry): void {
    const holding = this.held.get(entry.deviceId);
    // While this claim is unacknowledged it will be newer than any entry seen so far (compare-and-set).
    if (holding === undefined || holding.epoch === undefined || entry.instanceId === this.instanceId || entry.epoch <= holding.epoch) return;
    this.held.delete(entry.deviceId);
    const reason = `claimed by gateway instance ${entry.instanceId} (epoch ${entry.epoch})`;
    if (this.hub.disconnect(entry.deviceId, 'DEVICE_REPLACED', reason)) this.logger.log(`device ${entry.deviceId} moved: ${reason}`);
  }

  private inOrder(deviceId: string, write: () => Promise<void>): void {
    const previous = this.directoryWrites.get(deviceId) ?? Promise.resolve();
    const next = previous.then(write);
    this.directoryWrites.set(deviceId, next);
    void next.finally(() => {
      if (this.directoryWrites.get(deviceId) === next) this.directoryWrites.delete(deviceId);
    });
  }

  // ---- subscriptions --------------------------------------------------------------------------

  private async subscribe(): Promise<void> {
    const nc = this.connection.nc;
    const ownEvents = this.subjects.deviceEvents(this.instanceId);
    this.subscriptions.push(
      nc.subscribe(this.subjects.command(this.instanceId), { callback: (err, msg) => (err ? this.subscriptionFailed(err) : this.receive(msg)) }),
      nc.subscribe(this.subjects.cancel(this.instanceId), { callback: (err, msg) => (err ? this.subscriptionFailed(err) : this.cancel(msg)) }),
      nc.subscribe(`${this.replyInbox}.*`, { callback: (err, msg) => (err ? this.subscriptionFailed(err) : this.replies.get(msg.subject.slice(this.replyInbox.length + 1))?.(msg)) }),
      nc.subscribe(this.subjects.allDeviceEvents(), {
        callback: (err, msg) => {
          if (err) this.subscriptionFailed(err);
          else if (msg.subject !== ownEvents) this.remoteEvent(msg);
        },
      }),
    );
    this.rx.push(
      this.hub.events$.subscribe({ next: (event) => this.hubEvent(event) }),
      this.directory.changes$.subscribe({ next: (change) => this.directoryChanged(change) }),
      // The server lost the directory (a restart without its store): every phone held here is claimed again.
      this.directory.resynced$.subscribe(() => void this.reclaimHeld()),
      this.connection.link$.subscribe((state) => {
        if (state === 'down') for (const call of [...this.calls]) call.fail(new MobileClawError('DEVICE_DISCONNECTED', 'the cluster link (NATS) went down while the command was routed; its outcome on the phone is unknown'));
      }),
    );
    for (const entry of this.directory.entries()) this.claims.set(entry.deviceId, entry.instanceId);
    // Entries of this instance from an earlier run name sessions that no longer exist.
    for (const entry of this.directory.entries()) {
      if (entry.instanceId === this.instanceId && !this.held.has(entry.deviceId)) this.inOrder(entry.deviceId, async () => void (await this.directory.release(entry.deviceId, entry.epoch).catch(() => false)));
    }
    for (const device of await this.hub.listDevices()) if (device.status !== 'offline' && !this.held.has(device.deviceId)) this.connected(device);
    await nc.flush();
  }

  /** Claims again every phone this hub holds (same session as when it was first claimed). */
  private async reclaimHeld(): Promise<void> {
    for (const device of await this.hub.listDevices()) {
      const holding = this.held.get(device.deviceId);
      if (holding !== undefined && holding.sessionId === device.sessionId) this.inOrder(device.deviceId, () => this.claim(device, holding));
    }
  }

  /**
   * Another instance's event: passed on only when it is a well-formed {@link DeviceEvent} (see
   * {@link readRemoteDeviceEvent}) published by the instance the directory names for its phone (or,
   * for a `device.disconnected`, whose claim was the last one released); a `device.connected` waits for
   * its session's claim and must name that publisher too. Anything else is dropped with a log line.
   */
  private remoteEvent(msg: Msg): void {
    const publisher = fromSubjectToken(msg.subject.slice(msg.subject.lastIndexOf('.') + 1));
    let value: unknown;
    try {
      value = msg.json<unknown>();
    } catch {
      value = undefined;
    }
    const event = readRemoteDeviceEvent(value);
    if (event === undefined) {
      this.logger.warn(`dropped a message on ${msg.subject} that is not a device event (${msg.data.length} bytes)`);
      return;
    }
    const entry = this.directory.lookup(event.deviceId);
    if (event.type === 'device.connected') {
      if (entry?.sessionId === event.device.sessionId && entry.instanceId === publisher) this.remoteEventOfOwner(publisher, event);
      else if (entry?.sessionId === event.device.sessionId) this.logger.warn(`dropped a device.connected event of ${event.deviceId} from gateway instance ${publisher}: its claim names instance ${entry.instanceId}`);
      else this.announcing.set(event.deviceId, { event, publisher, following: [] });
      return;
    }
    // The publisher's later events of a phone whose announcement waits for its claim follow it (a bounded few).
    const waiting = this.announcing.get(event.deviceId);
    if (waiting?.publisher === publisher && event.type !== 'device.disconnected') {
      if (waiting.following.length < MAX_FOLLOWING_EVENTS) waiting.following.push(event);
      return;
    }
    const fromOwner = entry !== undefined ? entry.instanceId === publisher : event.type === 'device.disconnected' && this.releasedFrom.get(event.deviceId) === publisher;
    // A phone gone from the same instance before its claim showed here was never reachable from here
    // (another instance's disconnect is the session this one replaced).
    if (event.type === 'device.disconnected' && this.announcing.get(event.deviceId)?.publisher === publisher) this.announcing.delete(event.deviceId);
    if (!fromOwner) {
      this.logger.warn(`dropped a ${event.type} event of ${event.deviceId} from gateway instance ${publisher}: the directory names ${entry === undefined ? 'no instance' : `instance ${entry.instanceId}`} for it`);
      return;
    }
    this.remoteEventOfOwner(publisher, event);
  }

  private remoteEventOfOwner(publisher: string, event: DeviceEvent): void {
    this.applyToSnapshot(publisher, event);
    this.events.next(event);
  }

  /**
   * Keeps the snapshot of a phone held by `instanceId` current with that instance's event: connected
   * and updated replace it; status, disconnected, replaced and controller change its fields (starting
   * from the claim's info when there is no snapshot yet).
   */
  private applyToSnapshot(instanceId: string, event: DeviceEvent): void {
    const { deviceId } = event;
    if (event.type === 'device.connected' || event.type === 'device.updated') {
      if (typeof event.device?.sessionId === 'string') this.remote.set(deviceId, { instanceId, info: event.device });
      return;
    }
    const snapshot = this.remote.get(deviceId);
    const entry = this.directory.lookup(deviceId);
    const info = snapshot?.instanceId === instanceId ? snapshot.info : entry?.instanceId === instanceId ? entry.device : undefined;
    if (info === undefined) return;
    let next: DeviceInfo;
    switch (event.type) {
      case 'device.status':
        next = { ...info, status: event.status, queueLength: event.queueLength };
        break;
      case 'device.disconnected':
        next = { ...info, status: 'offline', queueLength: 0, disconnectedAt: event.at };
        break;
      case 'device.replaced':
        next = { ...info, sessionId: event.newSessionId };
        break;
      case 'device.controller': {
        const { controller: _previous, ...rest } = info;
        next = event.controller === null ? rest : { ...rest, controller: event.controller };
        break;
      }
      default:
        return;
    }
    this.remote.set(deviceId, { instanceId, info: next });
  }

  private subscriptionFailed(err: Error): void {
    this.logger.error(`a cluster subscription failed: ${err.message}`);
  }

  /** `entry`'s phone listed as offline: its instance is gone, or the entry outlived its session here. */
  private offlineInfo(entry: DeviceDirectoryEntry): DeviceInfo {
    const statusReason = entry.instanceId === this.instanceId ? `its session on gateway instance ${entry.instanceId} ended` : `its gateway instance ${entry.instanceId} is gone`;
    return { ...entry.device, status: 'offline', queueLength: 0, statusReason };
  }

  /** What this instance knows of the phone of `entry`, held by another instance: its events' snapshot, else its claim's info. */
  private remoteInfo(entry: DeviceDirectoryEntry): DeviceInfo {
    const snapshot = this.remote.get(entry.deviceId);
    return snapshot !== undefined && snapshot.instanceId === entry.instanceId && snapshot.info.sessionId === entry.sessionId ? snapshot.info : entry.device;
  }

  /** Whether another live instance holds the phone of `entry`. */
  private heldElsewhere(entry: DeviceDirectoryEntry): boolean {
    return entry.instanceId !== this.instanceId && this.directory.isLive(entry.instanceId);
  }
}

function readReply(body: Uint8Array): RoutedCommandReply | undefined {
  try {
    const reply = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')) as RoutedCommandReply | null;
    return reply !== null && typeof reply === 'object' && typeof reply.ok === 'boolean' ? reply : undefined;
  } catch {
    return undefined;
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Older connection first; phones that connected in the same millisecond by device id. */
function byConnection(x: { connectedAt: string; deviceId: string }, y: { connectedAt: string; deviceId: string }): number {
  const at = Date.parse(x.connectedAt) - Date.parse(y.connectedAt);
  if (at !== 0 && !Number.isNaN(at)) return at;
  return x.deviceId < y.deviceId ? -1 : x.deviceId > y.deviceId ? 1 : 0;
}
