/** Connection state of a {@link ReconnectingEventSource}. */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface ReconnectingEventSourceOptions {
  /** The URL to (re)open; called on every opening, so it can carry the latest `lastEventId`. */
  url: () => string;
  /** Handlers of named events (`event:` field), e.g. `{'task.started': fn}`. */
  listeners: Record<string, (event: MessageEvent<string>) => void>;
  /** Called on every state change; `detail` says why when reconnecting. */
  onState?: (state: ConnectionState, detail?: string) => void;
  /**
   * Called before re-opening a stream the browser gave up on (HTTP error answer): return a reason to
   * stop for good (e.g. the task no longer exists), or undefined to try again.
   */
  shouldStop?: () => Promise<string | undefined>;
  /** First delay before re-opening a failed stream, ms; doubles up to `maxRetryMs`. Default 1000. */
  minRetryMs?: number;
  /** Default 15 000. */
  maxRetryMs?: number;
}

/**
 * An EventSource that stays connected. The browser itself retries a dropped connection (sending
 * `Last-Event-ID`); when it gives up (an HTTP error answer, e.g. 503 while the gateway restarts) this
 * opens a new one from `url()` after a backoff. {@link close} ends it for good (call it after the
 * stream's last event: a server closing the stream looks like a drop and would be retried forever).
 */
export class ReconnectingEventSource {
  private source: EventSource | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private retryMs: number;
  private closed = false;

  constructor(private readonly options: ReconnectingEventSourceOptions) {
    this.retryMs = options.minRetryMs ?? 1000;
  }

  open(): void {
    this.closed = false;
    this.connect('connecting');
  }

  /** Drops the current connection and opens a new one from `url()` at once. */
  reopen(): void {
    if (this.closed) return;
    this.connect('reconnecting');
  }

  close(): void {
    this.closed = true;
    this.dispose();
    this.options.onState?.('closed');
  }

  private connect(state: ConnectionState, detail?: string): void {
    this.dispose();
    this.options.onState?.(state, detail);
    const source = new EventSource(this.options.url());
    this.source = source;
    for (const [name, listener] of Object.entries(this.options.listeners)) {
      if (name === 'error') continue;
      source.addEventListener(name, (event) => {
        if (this.source === source) listener(event as MessageEvent<string>);
      });
    }
    source.addEventListener('open', () => {
      if (this.source !== source) return;
      this.retryMs = this.options.minRetryMs ?? 1000;
      this.options.onState?.('open');
    });
    source.addEventListener('error', (event) => {
      if (this.source !== source) return;
      // A server-sent `event: error` record is a MessageEvent with data; a connection failure is a plain Event.
      if (event instanceof MessageEvent && typeof event.data === 'string' && event.data !== '') {
        this.options.listeners['error']?.(event as MessageEvent<string>);
        return;
      }
      if (source.readyState === EventSource.CLOSED) this.scheduleRetry();
      else this.options.onState?.('reconnecting', 'connection lost; the browser is reconnecting');
    });
  }

  private scheduleRetry(): void {
    this.dispose();
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, this.options.maxRetryMs ?? 15_000);
    this.options.onState?.('reconnecting', `the stream failed; retrying in ${Math.round(delay / 1000)} s`);
    this.retryTimer = setTimeout(() => {
      void (async () => {
        const reason = await this.options.shouldStop?.();
        if (this.closed) return;
        if (reason !== undefined) {
          this.closed = true;
          this.options.onState?.('closed', reason);
        } else {
          this.connect('reconnecting');
        }
      })();
    }, delay);
  }

  private dispose(): void {
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.source?.close();
    this.source = undefined;
  }
}
