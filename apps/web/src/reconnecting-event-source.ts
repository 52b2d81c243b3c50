/**
 * Connection state of a {@link ReconnectingEventSource}: `unauthorized` means the gateway refused the
 * stream with 401/403 and the source waits (no retries) until {@link ReconnectingEventSource.resume}.
 */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting' | 'unauthorized' | 'closed';

/** Why the gateway refused a stream: its HTTP status (401 or 403) and the problem's text. */
export interface StreamRefusal {
  status: number;
  detail: string;
}

export interface ReconnectingEventSourceOptions {
  /** The URL to (re)open; called on every opening, so it can carry the latest `lastEventId` and token. */
  url: () => string;
  /** Handlers of named events (`event:` field), e.g. `{'task.started': fn}`. */
  listeners: Record<string, (event: MessageEvent<string>) => void>;
  /** Called on every state change; `detail` says why when reconnecting, waiting or closed. */
  onState?: (state: ConnectionState, detail?: string) => void;
  /** Called when the gateway answers 401/403: the source then waits for {@link ReconnectingEventSource.resume}. */
  onUnauthorized?: (refusal: StreamRefusal) => void;
  /** First delay before re-opening a failed stream, ms; doubles up to `maxRetryMs`. Default 1000. */
  minRetryMs?: number;
  /** Default 15 000. */
  maxRetryMs?: number;
}

/** What a probe of the stream's URL found: `status` 0 when the gateway could not be reached. */
interface ProbeResult {
  status: number;
  detail: string;
}

/** 4xx answers that are worth retrying (timeouts, rate limits); every other 4xx is final. */
const TRANSIENT_CLIENT_ERRORS = new Set([408, 425, 429]);

/**
 * Opens `url` with fetch only to read the answer's status (an EventSource error never exposes it),
 * then drops the connection. For a non-2xx answer `detail` is the problem's `detail`/`title` text.
 */
async function probe(url: string): Promise<ProbeResult> {
  const abort = new AbortController();
  try {
    const response = await fetch(url, { headers: { accept: 'text/event-stream' }, cache: 'no-store', signal: abort.signal });
    if (response.ok) return { status: response.status, detail: '' };
    let detail = `${response.status} ${response.statusText}`.trim();
    try {
      const problem = (await response.json()) as { detail?: string; title?: string };
      detail = problem.detail ?? problem.title ?? detail;
    } catch {
      // Not JSON: keep the status line.
    }
    return { status: response.status, detail };
  } catch (err) {
    return { status: 0, detail: `the gateway cannot be reached (${err instanceof Error ? err.message : String(err)})` };
  } finally {
    abort.abort();
  }
}

/**
 * An EventSource that stays connected. The browser itself retries a dropped connection (sending
 * `Last-Event-ID`); when it gives up (an HTTP error answer) this probes `url()` with fetch to learn
 * the status: 401/403 → state `unauthorized` and {@link ReconnectingEventSourceOptions.onUnauthorized},
 * no retries until {@link resume}; another final 4xx (e.g. 404, the task no longer exists) → `closed`
 * with the problem's text; anything else (5xx while the gateway restarts, unreachable) → a new
 * EventSource after a backoff. {@link close} ends it for good (call it after the stream's last event:
 * a server closing the stream looks like a drop and would be retried forever).
 */
export class ReconnectingEventSource {
  private source: EventSource | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private retryMs: number;
  private closed = false;
  private waitingForAccess = false;
  /** Bumped on every (re)connect and close: a probe that finishes after either is ignored. */
  private generation = 0;

  constructor(private readonly options: ReconnectingEventSourceOptions) {
    this.retryMs = options.minRetryMs ?? 1000;
  }

  /** True while the gateway refused the stream (401/403) and no new token was given. */
  get unauthorized(): boolean {
    return this.waitingForAccess;
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

  /** Reconnects a source waiting after 401/403 (call it once a new token is set); no-op otherwise. */
  resume(): void {
    if (this.closed || !this.waitingForAccess) return;
    this.connect('reconnecting');
  }

  close(): void {
    this.closed = true;
    this.dispose();
    this.options.onState?.('closed');
  }

  private connect(state: ConnectionState, detail?: string): void {
    this.dispose();
    this.waitingForAccess = false;
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
      if (source.readyState === EventSource.CLOSED) void this.diagnose();
      else this.options.onState?.('reconnecting', 'connection lost; the browser is reconnecting');
    });
  }

  /** The browser gave up on the stream: find out why (status) and wait, stop, or retry. */
  private async diagnose(): Promise<void> {
    this.dispose();
    const generation = this.generation;
    this.options.onState?.('reconnecting', 'the stream failed; checking why');
    const result = await probe(this.options.url());
    if (this.closed || generation !== this.generation) return;
    if (result.status === 401 || result.status === 403) {
      this.waitingForAccess = true;
      this.options.onState?.('unauthorized', result.detail);
      this.options.onUnauthorized?.({ status: result.status, detail: result.detail });
    } else if (result.status >= 400 && result.status < 500 && !TRANSIENT_CLIENT_ERRORS.has(result.status)) {
      this.closed = true;
      this.options.onState?.('closed', result.detail);
    } else {
      this.scheduleRetry(result.status === 0 ? result.detail : result.status >= 400 ? result.detail : undefined);
    }
  }

  private scheduleRetry(reason: string | undefined): void {
    this.dispose();
    const delay = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, this.options.maxRetryMs ?? 15_000);
    const why = reason ? `${reason}; ` : '';
    this.options.onState?.('reconnecting', `${why}retrying in ${Math.round(delay / 1000)} s`);
    const generation = this.generation;
    this.retryTimer = setTimeout(() => {
      if (!this.closed && generation === this.generation) this.connect('reconnecting');
    }, delay);
  }

  private dispose(): void {
    this.generation++;
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.source?.close();
    this.source = undefined;
  }
}
