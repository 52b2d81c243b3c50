import { toolFailure, type ToolInvocationContext, type ToolInvocationFailure } from '@mobileclaw/domain';

/** One call's end: its caller's signal and its deadline merged into one signal for the remote request. */
export class CallDeadline {
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onCallerAbort = (): void => this.controller.abort(this.context.signal.reason);

  /**
   * @param context the call's context: its `signal`, and `deadlineMs` from now
   * @param limitMs a longer deadline is cut to this, in ms (a source's own ceiling)
   */
  constructor(
    private readonly context: ToolInvocationContext,
    limitMs: number = Number.POSITIVE_INFINITY,
  ) {
    const ms = Math.max(0, Math.min(context.deadlineMs, limitMs));
    this.timer = setTimeout(() => this.controller.abort(new Error(`deadline of ${ms} ms passed`)), ms);
    this.deadlineMs = ms;
    if (context.signal.aborted) this.onCallerAbort();
    else context.signal.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  /** The deadline in force, in ms from the start. */
  readonly deadlineMs: number;

  /** Fires when the caller gives up or the deadline passes. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** `ABORTED` when the caller gave up, `TIMEOUT` when the deadline passed, undefined while neither happened. */
  interruption(what: string): ToolInvocationFailure | undefined {
    if (this.context.signal.aborted) return toolFailure('ABORTED', `${what} was given up by its caller`);
    if (this.controller.signal.aborted) return toolFailure('TIMEOUT', `${what} did not answer within ${this.deadlineMs} ms`);
    return undefined;
  }

  /** Stops the timer and the listener; call once the call is over. */
  dispose(): void {
    clearTimeout(this.timer);
    this.context.signal.removeEventListener('abort', this.onCallerAbort);
  }
}
