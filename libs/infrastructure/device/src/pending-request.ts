import { MobileClawError, type Command, type CommandResult, type ErrorCode } from '@mobileclaw/domain';

/**
 * One awaited command: the caller's promise, its deadline timer and abort listener. Settles exactly
 * once; later attempts are ignored, so a late reply, a deadline and an abort can race safely.
 */
export class PendingRequest {
  /** performance.now() when the caller called execute. */
  readonly startedAt: number;
  /** performance.now() by which it must be answered. */
  readonly deadline: number;
  dispatchedAt = -1;
  /** performance.now() when it settled (answer, error, deadline, abort); -1 until then. */
  settledAt = -1;
  settled = false;
  /** A background read (`ExecuteOptions.background` of the domain): does not make the phone `busy`. */
  background = false;
  private timer: NodeJS.Timeout | undefined;
  private abortListener: (() => void) | undefined;

  constructor(
    readonly requestId: string,
    readonly deviceId: string,
    readonly command: Command,
    readonly frameId: string | undefined,
    timeoutMs: number,
    private readonly signal: AbortSignal | undefined,
    private readonly resolveFn: (result: CommandResult<never>) => void,
    private readonly rejectFn: (error: MobileClawError) => void,
    onDeadline: (request: PendingRequest) => void,
    onAbort: (request: PendingRequest) => void,
  ) {
    this.startedAt = performance.now();
    this.deadline = this.startedAt + timeoutMs;
    this.timer = setTimeout(onDeadline, timeoutMs, this);
    if (signal) {
      this.abortListener = () => onAbort(this);
      signal.addEventListener('abort', this.abortListener, { once: true });
    }
  }

  /** Remaining time to the deadline in whole ms (≥ 1). */
  remainingMs(now = performance.now()): number {
    return Math.max(1, Math.ceil(this.deadline - now));
  }

  resolve(data: Record<string, unknown>): void {
    if (!this.begin()) return;
    const now = performance.now();
    this.resolveFn({
      requestId: this.requestId,
      deviceId: this.deviceId,
      command: this.command.command,
      status: 'success',
      data: data as never,
      durationMs: round(now - this.startedAt),
      queuedMs: round((this.dispatchedAt < 0 ? now : this.dispatchedAt) - this.startedAt),
    });
  }

  reject(code: ErrorCode, message: string, deviceCode?: string): void {
    if (!this.begin()) return;
    this.rejectFn(new MobileClawError(code, message, { deviceId: this.deviceId, requestId: this.requestId, deviceCode }));
  }

  private begin(): boolean {
    if (this.settled) return false;
    this.settled = true;
    this.settledAt = performance.now();
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.abortListener) this.signal?.removeEventListener('abort', this.abortListener);
    this.abortListener = undefined;
    return true;
  }
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
