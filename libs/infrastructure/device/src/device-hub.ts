import { createHash, timingSafeEqual, randomBytes } from 'node:crypto';
import { Logger, type LoggerService } from '@nestjs/common';
import { Subject, type Observable } from 'rxjs';
import {
  COMMAND_NAMES,
  DeviceMetrics,
  DeviceToolRequests,
  MobileClawError,
  MobileClawService,
  NoDeviceMetrics,
  isMobileClawError,
  type Command,
  type CommandName,
  type CommandOutcome,
  type DeviceLoad,
  type DiscardedFrameReason,
  type DroppedReplyReason,
  type CommandResult,
  type DeviceEvent,
  type DeviceInfo,
  type ErrorCode,
  type ExecuteOptions,
} from '@mobileclaw/domain';
import { DeviceSession, type SessionCounter, type SessionHost } from './device-session';
import type { DeviceConnectionAcceptor, DeviceReachabilityReports, FrameTransport } from './frame-transport';
import { resolveDeviceGatewayOptions, type DeviceGatewayOptions, type ResolvedDeviceGatewayOptions } from './options';
import { PendingRequest } from './pending-request';
import type { PhoneRequestOutcome } from './phone-requests';
import { describeReplacementFlap, ReplacementFlapDetector, type ReplacementFlapOptions } from './replacement-flap-detector';

/** Counters since start, for diagnostics and tests. */
export interface DeviceHubStats {
  devicesOnline: number;
  /** Commands in flight or queued, all phones. */
  pending: number;
  droppedReplies: number;
  protocolErrors: number;
  oversizedFrames: number;
  unauthorized: number;
  timeouts: number;
  deviceEvents: number;
}

/** What a hub may be given besides its options; tests replace them to observe it exactly. */
export interface DeviceHubDependencies {
  /** Where the hub logs (connects, disconnects, refusals, flapping ids). Default: Nest's `Logger` with context `DeviceHub`. */
  logger?: LoggerService;
  /** A monotonic clock in ms, for counting replacements in a window. Default `performance.now()`. */
  monotonicNow?: () => number;
  /** When a device id counts as flapping between two connections (see {@link ReplacementFlapDetector}). */
  replacementFlap?: Partial<ReplacementFlapOptions>;
  /** Where commands, discarded frames, dropped replies, heartbeats and sessions are reported, and the load read. Default: nowhere. */
  metrics?: DeviceMetrics;
  /** Where phones' own `request`s go (tools a phone lists and calls). Default: none, every request answers `METHOD_NOT_FOUND`. */
  toolRequests?: DeviceToolRequests;
}

const KNOWN_COMMANDS = new Set<string>(COMMAND_NAMES);
const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * The gateway's device registry and the transport-independent adapter of the
 * {@link MobileClawService} port: transports hand it connections ({@link accept}), callers
 * `await execute(...)`. Each command gets a request id unique in this process; its reply settles the
 * caller's pending promise, a deadline (default 30 s, queue time included) or the session's end fails
 * it. One command in flight per phone with a FIFO queue behind it; heartbeats detect dead links; a phone
 * that reconnects replaces its old session (which is told `error DEVICE_REPLACED`), and an id replaced
 * again and again (two phones sharing it) is logged as a warning, once per device id per 10 min.
 * Every settled command is logged at debug level (name, device, outcome, duration, request id — never
 * its arguments, which may be typed text), in the caller's async context (so a task's log fields
 * follow), and reported to {@link DeviceMetrics}. A phone's own `request`s (docs/protocol.md §7) go to
 * the {@link DeviceToolRequests} it is given, each answered on that phone's socket (see `PhoneRequests`).
 */
export class DeviceHub extends MobileClawService implements SessionHost, DeviceConnectionAcceptor, DeviceReachabilityReports {
  readonly options: ResolvedDeviceGatewayOptions;
  private readonly logger: LoggerService;
  private readonly monotonicNow: () => number;
  private readonly flaps: ReplacementFlapDetector;
  private readonly metrics: DeviceMetrics;
  private servedToolRequests: DeviceToolRequests | undefined;
  /** Names of the transports that hand this hub connections (see {@link acceptorFor}). */
  private readonly transportNames = new Set<string>();
  private readonly sessions = new Map<string, DeviceSession>();
  /** Last known info of phones that went offline, oldest first (bounded). */
  private readonly offline = new Map<string, DeviceInfo>();
  /** Why phones that are not connected cannot connect, as their host reported it (see {@link reportUnreachable}). */
  private readonly unreachable = new Map<string, string>();
  private readonly handshaking = new Set<DeviceSession>();
  private readonly events = new Subject<DeviceEvent>();
  readonly events$: Observable<DeviceEvent> = this.events.asObservable();
  private readonly tokenDigest: Buffer;
  private readonly requestIdPrefix = randomBytes(4).toString('hex') + '-';
  private sequence = 0;
  private shuttingDown = false;
  private readonly heartbeatTimer: NodeJS.Timeout;
  private readonly counters: Record<SessionCounter, number> = {
    droppedReplies: 0,
    protocolErrors: 0,
    oversizedFrames: 0,
    unauthorized: 0,
    timeouts: 0,
    deviceEvents: 0,
  };

  /** @throws Error when the options are invalid (see {@link resolveDeviceGatewayOptions}). */
  constructor(options: DeviceGatewayOptions, dependencies: DeviceHubDependencies = {}) {
    super();
    this.options = resolveDeviceGatewayOptions(options);
    this.logger = dependencies.logger ?? new Logger('DeviceHub');
    this.monotonicNow = dependencies.monotonicNow ?? (() => performance.now());
    this.flaps = new ReplacementFlapDetector(dependencies.replacementFlap);
    this.metrics = dependencies.metrics ?? new NoDeviceMetrics();
    this.servedToolRequests = dependencies.toolRequests;
    this.metrics.observeDevices(() => this.load());
    this.tokenDigest = digest(this.options.deviceToken);
    // One sweep for all sessions instead of a timer per phone (10 000 idle phones stay cheap).
    const sweepMs = Math.min(1000, Math.max(5, Math.floor(this.options.heartbeatIntervalMs / 4)));
    this.heartbeatTimer = setInterval(() => this.sweepHeartbeats(), sweepMs);
    this.heartbeatTimer.unref();
  }

  // ---- MobileClawService ----------------------------------------------------------------------

  execute<T = Record<string, unknown>>(deviceId: string, command: Command, options: ExecuteOptions = {}): Promise<CommandResult<T>> {
    const name = commandNameOf(command);
    const submitted: { request?: PendingRequest } = {};
    const result = this.submit<T>(deviceId, command, options, submitted);
    // Registered here, so that the line is logged in the caller's async context (a task's fields follow).
    result.then(
      (done) => this.settled(deviceId, name, 'ok', done.durationMs, done.requestId),
      (error: unknown) => {
        const code = isMobileClawError(error) ? error.code : 'INTERNAL_ERROR';
        const requestId = isMobileClawError(error) ? error.requestId : undefined;
        const request = submitted.request;
        this.settled(deviceId, name, code, request === undefined ? undefined : request.settledAt - request.startedAt, requestId);
      },
    );
    return result;
  }

  /** Validates and queues a command; `submitted.request` is set once it is queued. */
  private submit<T>(deviceId: string, command: Command, options: ExecuteOptions, submitted: { request?: PendingRequest }): Promise<CommandResult<T>> {
    if (this.shuttingDown) return Promise.reject(new MobileClawError('SHUTTING_DOWN', 'gateway is shutting down', { deviceId }));
    const session = this.sessions.get(deviceId);
    if (session === undefined) {
      const reason = this.unreachable.get(deviceId);
      return Promise.reject(
        this.offline.has(deviceId)
          ? new MobileClawError('DEVICE_DISCONNECTED', `device ${deviceId} is offline${reason === undefined ? '' : ` (${reason})`}`, { deviceId })
          : new MobileClawError('DEVICE_NOT_FOUND', `no device ${JSON.stringify(deviceId)} is known`, { deviceId }),
      );
    }
    if (command === null || typeof command !== 'object' || !KNOWN_COMMANDS.has(command.command)) {
      const name = (command as { command?: unknown } | null)?.command;
      return Promise.reject(
        new MobileClawError('VALIDATION_FAILED', `unknown command ${JSON.stringify(name)}`, {
          deviceId,
          fieldErrors: [{ field: 'command', message: `must be one of ${COMMAND_NAMES.join(', ')}` }],
        }),
      );
    }
    const capabilities = session.hello?.capabilities;
    if (capabilities !== undefined && capabilities.length > 0 && !capabilities.includes(command.command)) {
      return Promise.reject(
        new MobileClawError('VALIDATION_FAILED', `device ${deviceId} does not support "${command.command}" (it supports ${capabilities.join(', ')})`, {
          deviceId,
          fieldErrors: [{ field: 'command', message: `not among the device's capabilities: ${capabilities.join(', ')}` }],
        }),
      );
    }
    const timeoutMs = options.timeoutMs ?? this.options.defaultTimeoutMs;
    // Node timers hold at most 2^31-1 ms; a larger deadline would fire at once.
    if (!(timeoutMs > 0) || timeoutMs > MAX_TIMEOUT_MS) {
      return Promise.reject(
        new MobileClawError('VALIDATION_FAILED', `timeoutMs must be between 1 and ${MAX_TIMEOUT_MS}`, { deviceId, fieldErrors: [{ field: 'timeoutMs', message: `must be 1-${MAX_TIMEOUT_MS} ms` }] }),
      );
    }
    if (options.signal?.aborted) return Promise.reject(new MobileClawError('ABORTED', 'aborted before it was sent', { deviceId }));
    if (session.congested) return Promise.reject(new MobileClawError('DEVICE_BUSY', `device ${deviceId} is not reading its socket`, { deviceId }));
    if (session.queueFull) {
      return Promise.reject(new MobileClawError('DEVICE_BUSY', `device ${deviceId} has ${this.options.queueLimit} commands queued`, { deviceId }));
    }
    const requestId = this.requestIdPrefix + (++this.sequence).toString(36);
    return new Promise<CommandResult<T>>((resolve, reject) => {
      const request = new PendingRequest(
        requestId,
        deviceId,
        command,
        options.frameId,
        timeoutMs,
        options.signal,
        resolve as (result: CommandResult<never>) => void,
        reject,
        (expired) => {
          this.counters.timeouts += 1;
          session.withdraw(expired, 'TIMEOUT', `no reply within ${timeoutMs} ms`);
        },
        (aborted) => session.withdraw(aborted, 'ABORTED', 'aborted by the caller'),
      );
      request.background = options.background === true;
      submitted.request = request;
      session.enqueue(request);
    });
  }

  /** The phones of this process, online first; the snapshot is taken when called, resolved at once. */
  async listDevices(): Promise<DeviceInfo[]> {
    const online = [...this.sessions.values()].map((s) => s.info());
    const offline = [...this.offline.values()].reverse().map((info) => this.withReason(info));
    return [...online, ...offline];
  }

  /**
   * The phone's info as of the call, resolved at once.
   * @throws MobileClawError `DEVICE_NOT_FOUND` (as a rejection) when this process has never seen it or forgot it.
   */
  async getDevice(deviceId: string): Promise<DeviceInfo> {
    const session = this.sessions.get(deviceId);
    if (session) return session.info();
    const offline = this.offline.get(deviceId);
    if (offline) return this.withReason(offline);
    throw new MobileClawError('DEVICE_NOT_FOUND', `no device ${JSON.stringify(deviceId)} is known`, { deviceId });
  }

  // ---- transports -----------------------------------------------------------------------------

  /**
   * Starts a session on a new connection. The transport then feeds it frames (`receive`), oversized
   * frames (`frameTooLarge`, `frameDiscarded`) and its close (`transportClosed`).
   */
  accept(transport: FrameTransport, transportName = 'unknown'): DeviceSession {
    const session = new DeviceSession(this, transport, transportName);
    if (this.shuttingDown) {
      session.close('SHUTTING_DOWN', 'no new connections accepted', true);
      return session;
    }
    this.handshaking.add(session);
    return session;
  }

  /**
   * The acceptor to give the transport named `name` (`DeviceTransport.name`): its sessions carry that
   * name (device listings' metrics count phones by it), and it is counted with 0 phones until one connects.
   */
  acceptorFor(name: string): DeviceConnectionAcceptor {
    this.transportNames.add(name);
    return { accept: (transport) => this.accept(transport, name) };
  }

  // ---- DeviceReachabilityReports --------------------------------------------------------------

  /**
   * Lists a phone that is not connected as offline with `reason` (emits `device.updated`); a
   * connected phone keeps its status, and the reason applies once it disconnects, until cleared. A
   * phone never seen gets an offline record (no session id, no capabilities) counted against the
   * offline limit. Ignored during shutdown.
   */
  reportUnreachable(deviceId: string, reason: string): void {
    if (this.shuttingDown || this.unreachable.get(deviceId) === reason) return;
    this.unreachable.set(deviceId, reason);
    if (this.sessions.has(deviceId)) return;
    const at = new Date().toISOString();
    if (!this.offline.has(deviceId)) {
      this.rememberOffline({ deviceId, status: 'offline', capabilities: [], sessionId: '', connectedAt: at, lastSeenAt: at, disconnectedAt: at, queueLength: 0 });
    }
    this.emitUpdated(deviceId, at);
  }

  /** Withdraws the reason of {@link reportUnreachable} (emits `device.updated` when the phone is listed offline). */
  clearUnreachable(deviceId: string): void {
    if (!this.unreachable.delete(deviceId) || this.sessions.has(deviceId)) return;
    this.emitUpdated(deviceId, new Date().toISOString());
  }

  /**
   * Where phones' own requests go from now on, sessions already open included (a host that builds
   * the port after the hub, e.g. from a tool registry whose sources use this hub, sets it here once).
   */
  serveToolRequests(toolRequests: DeviceToolRequests): void {
    this.servedToolRequests = toolRequests;
  }

  /** Where phones' own requests go; undefined: none are served (they answer `METHOD_NOT_FOUND`). */
  get toolRequests(): DeviceToolRequests | undefined {
    return this.servedToolRequests;
  }

  /**
   * Closes `deviceId`'s session from the gateway's side, e.g. because another gateway instance claimed
   * the phone (`DEVICE_REPLACED`): the command in flight and every queued one fail with `code`, a phone
   * told `DEVICE_REPLACED` gets that `error` frame before its connection ends, and `device.disconnected`
   * is emitted with `reason`; the phone is then listed offline. Other phones are untouched.
   * @returns whether a session was open (false: nothing happened).
   */
  disconnect(deviceId: string, code: 'DEVICE_REPLACED' | 'DEVICE_DISCONNECTED', reason: string): boolean {
    const session = this.sessions.get(deviceId);
    if (session === undefined) return false;
    session.close(code, reason);
    return true;
  }

  stats(): DeviceHubStats {
    let pending = 0;
    for (const session of this.sessions.values()) pending += session.pendingCount;
    return { devicesOnline: this.sessions.size, pending, ...this.counters };
  }

  /**
   * Graceful shutdown: refuses new commands, fails everything waiting with `SHUTTING_DOWN`, closes
   * every session and completes {@link events$}. Idempotent.
   */
  shutdown(): void {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    clearInterval(this.heartbeatTimer);
    for (const session of [...this.handshaking]) session.close('SHUTTING_DOWN', 'all sessions are being closed');
    for (const session of [...this.sessions.values()]) session.close('SHUTTING_DOWN', 'all sessions are being closed');
    this.events.complete();
  }

  // ---- SessionHost ----------------------------------------------------------------------------

  authenticate(token: string): boolean {
    return timingSafeEqual(digest(token), this.tokenDigest);
  }

  register(session: DeviceSession): void {
    this.handshaking.delete(session);
    const deviceId = session.deviceId;
    const previous = this.sessions.get(deviceId);
    const seenBefore = this.offline.has(deviceId);
    this.sessions.set(deviceId, session);
    this.offline.delete(deviceId);
    // Connected: whatever kept it from connecting no longer holds.
    this.unreachable.delete(deviceId);
    const at = new Date().toISOString();
    this.metrics.sessionStarted(deviceId, session.transportName, previous ? 'replacement' : seenBefore ? 'reconnect' : 'first');
    if (previous) {
      this.logger.log(`device ${deviceId} reconnected (session ${previous.sessionId} → ${session.sessionId})`);
      previous.close('DEVICE_REPLACED', `replaced by session ${session.sessionId}`);
      this.emit({ type: 'device.replaced', deviceId, oldSessionId: previous.sessionId, newSessionId: session.sessionId, at });
      const flap = this.flaps.replaced(deviceId, previous.transport.remoteAddress, session.transport.remoteAddress, this.monotonicNow());
      if (flap) this.logger.warn(describeReplacementFlap(flap));
    } else {
      this.logger.log(`device ${deviceId} connected from ${session.transport.remoteAddress ?? 'unknown'} (session ${session.sessionId})`);
    }
    this.emit({ type: 'device.connected', deviceId, device: session.info(), at });
  }

  unregister(session: DeviceSession, code: ErrorCode, reason: string): void {
    this.handshaking.delete(session);
    const deviceId = session.deviceId;
    if (this.sessions.get(deviceId) !== session) return; // replaced: the new session owns the entry
    this.sessions.delete(deviceId);
    const info: DeviceInfo = { ...session.info(), status: 'offline', queueLength: 0, disconnectedAt: new Date().toISOString() };
    this.rememberOffline(info);
    if (code !== 'SHUTTING_DOWN') this.logger.log(`device ${deviceId} disconnected: ${reason}`);
    this.emit({ type: 'device.disconnected', deviceId, reason, at: info.disconnectedAt as string });
  }

  count(counter: SessionCounter): void {
    this.counters[counter] += 1;
  }

  statusChanged(session: DeviceSession): void {
    if (!this.events.observed || session.state !== 'open') return;
    this.emit({ type: 'device.status', deviceId: session.deviceId, status: session.status, queueLength: session.queueLength, at: new Date().toISOString() });
  }

  heartbeat(session: DeviceSession, rttMs: number): void {
    this.metrics.heartbeatMeasured(session.deviceId, rttMs);
    this.emit({ type: 'device.heartbeat', deviceId: session.deviceId, rttMs, at: new Date().toISOString() });
  }

  deviceEvent(session: DeviceSession, event: string, data: Record<string, unknown>): void {
    this.counters.deviceEvents += 1;
    this.emit({ type: 'device.event', deviceId: session.deviceId, event, data, at: new Date().toISOString() });
  }

  dispatched(session: DeviceSession, request: PendingRequest): void {
    this.metrics.commandDispatched({ deviceId: session.deviceId, command: request.command.command, queuedMs: request.dispatchedAt - request.startedAt });
  }

  frameDiscarded(session: DeviceSession, reason: DiscardedFrameReason): void {
    this.metrics.frameDiscarded(reason, session.transportName);
  }

  replyDropped(_session: DeviceSession, reason: DroppedReplyReason): void {
    this.metrics.replyDropped(reason);
  }

  refused(session: DeviceSession, code: string, message: string): void {
    this.metrics.connectionRefused(code);
    const claimed = session.deviceId || 'unknown device';
    this.logger.warn(`refused connection from ${session.transport.remoteAddress ?? 'unknown'} (${claimed}): ${code} ${message}`);
  }

  phoneRequestSettled(session: DeviceSession, method: string, outcome: PhoneRequestOutcome, durationMs: number, requestId: string): void {
    this.logger.debug?.(`request ${method} from ${session.deviceId}: ${outcome} in ${Math.round(durationMs * 10) / 10} ms (request ${requestId})`);
  }

  // ---- internals ------------------------------------------------------------------------------

  /** The connected phones' load, for a metrics scrape. */
  private load(): DeviceLoad {
    const devices = [...this.sessions.values()].map((s) => ({ deviceId: s.deviceId, transport: s.transportName, pendingRequests: s.pendingCount, queuedCommands: s.queueLength }));
    return { transports: [...this.transportNames], devices };
  }

  /** Logs and reports a settled command; `durationMs` is absent for one refused before it was queued. */
  private settled(deviceId: string, command: CommandName | 'unknown', outcome: CommandOutcome, durationMs: number | undefined, requestId: string | undefined): void {
    this.metrics.commandSettled(durationMs === undefined ? { deviceId, command, outcome } : { deviceId, command, outcome, durationMs });
    const took = durationMs === undefined ? 'refused before it was queued' : `in ${Math.round(durationMs * 10) / 10} ms`;
    this.logger.debug?.(`command ${command} on ${deviceId}: ${outcome} ${took}${requestId === undefined ? '' : ` (request ${requestId})`}`);
  }

  /** Keeps an offline phone's record, the oldest dropped beyond the offline limit (with its reason). */
  private rememberOffline(info: DeviceInfo): void {
    this.offline.set(info.deviceId, info);
    while (this.offline.size > this.options.offlineDeviceLimit) {
      const oldest = this.offline.keys().next().value as string;
      this.offline.delete(oldest);
      this.unreachable.delete(oldest);
    }
  }

  /** An offline record with the phone's reported reason, if any. */
  private withReason(info: DeviceInfo): DeviceInfo {
    const reason = this.unreachable.get(info.deviceId);
    return reason === undefined ? info : { ...info, statusReason: reason };
  }

  private emitUpdated(deviceId: string, at: string): void {
    const info = this.offline.get(deviceId);
    if (info) this.emit({ type: 'device.updated', deviceId, device: this.withReason(info), at });
  }

  private emit(event: DeviceEvent): void {
    if (!this.shuttingDown) this.events.next(event);
  }

  private sweepHeartbeats(): void {
    const now = performance.now();
    for (const session of [...this.sessions.values()]) session.checkHeartbeat(now);
  }
}

/** The command's name when the gateway knows it, else `unknown` (a bounded label, whatever a caller sends). */
function commandNameOf(command: Command): CommandName | 'unknown' {
  const name = (command as { command?: unknown } | null)?.command;
  return typeof name === 'string' && KNOWN_COMMANDS.has(name) ? (name as CommandName) : 'unknown';
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
