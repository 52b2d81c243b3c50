import { Subject, type Observable } from 'rxjs';
import {
  ToolSource,
  toolFailure,
  type ToolDescriptor,
  type ToolInvocationContext,
  type ToolInvocationResult,
  type ToolSourceChange,
  type ToolSourceRef,
} from '@mobileclaw/domain';
import { errorMessage } from './redaction';

/** What a remote source last learnt about its server, for health pages and the registry. */
export interface RemoteToolSourceStatus {
  /** True when the last refresh read the tools; false when it failed (the tools are then listed unavailable). */
  reachable: boolean;
  /** When the last refresh ended, ISO-8601; absent before the first. */
  checkedAt?: string;
  /** Why the last refresh failed, without credentials; absent when it succeeded. */
  error?: string;
}

/**
 * A remote source's tool list, read from its server on demand ({@link refresh}) and every
 * `refreshIntervalMs` after {@link start}. While the server cannot be read, the last tools it listed stay
 * listed with `available: false` (calls answer `TOOL_UNAVAILABLE`); {@link changes$} emits whenever
 * the list — availability included — changed. The subclass reads the server ({@link readTools}) and
 * makes the calls ({@link call}).
 */
export abstract class PolledToolSource extends ToolSource {
  private readonly changes = new Subject<ToolSourceChange>();
  readonly changes$: Observable<ToolSourceChange> = this.changes.asObservable();

  private tools: ToolDescriptor[] = [];
  private lastStatus: RemoteToolSourceStatus = { reachable: false };
  private loaded = false;
  private inFlight: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  protected constructor(
    readonly ref: ToolSourceRef,
    private readonly refreshIntervalMs: number,
  ) {
    super();
  }

  /**
   * Reads the tool list from the server. Rejects when the server cannot be reached or answers in a
   * shape it may not; the message (without credentials) becomes {@link status}'s `error`.
   */
  protected abstract readTools(): Promise<ToolDescriptor[]>;

  /** Makes the call of a listed, available tool; the caller's signal has not fired yet. Never rejects. */
  protected abstract call(tool: ToolDescriptor, args: Record<string, unknown>, context: ToolInvocationContext): Promise<ToolInvocationResult>;

  /** Every tool the server last listed, in its order; all `available: false` while it cannot be read. Reads it first when never read. */
  async list(): Promise<ToolDescriptor[]> {
    if (!this.loaded) await this.refresh();
    return this.tools.map(copyDescriptor);
  }

  /** What the last refresh learnt. */
  status(): RemoteToolSourceStatus {
    return { ...this.lastStatus };
  }

  /**
   * Reads the tool list now (refreshes already under way are joined, not repeated) and emits on
   * {@link changes$} when it changed. Never rejects: a failure is kept in {@link status}.
   */
  refresh(): Promise<void> {
    this.inFlight ??= this.readNow().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** Reads the list now and then every `refreshIntervalMs` (not at all when it is 0) until {@link close}. */
  async start(): Promise<void> {
    if (this.closed) return;
    if (this.refreshIntervalMs > 0 && this.timer === undefined) {
      this.timer = setInterval(() => void this.refresh(), this.refreshIntervalMs);
      this.timer.unref();
    }
    await this.refresh();
  }

  /** Stops refreshing and completes {@link changes$}. Calls under way finish on their own. */
  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    this.timer = undefined;
    this.changes.complete();
  }

  /**
   * Calls a listed tool. Failures besides the subclass's: `TOOL_NOT_FOUND` (not in the last list),
   * `ABORTED` (the signal fired before the call), `TOOL_UNAVAILABLE` (the server could not be read at
   * the last refresh).
   */
  async invoke(name: string, args: Record<string, unknown>, context: ToolInvocationContext): Promise<ToolInvocationResult> {
    if (!this.loaded) await this.refresh();
    const tool = this.tools.find((candidate) => candidate.name === name);
    if (tool === undefined) return toolFailure('TOOL_NOT_FOUND', `${this.describeSource()} lists no tool ${name}`);
    if (context.signal.aborted) return toolFailure('ABORTED', `the call of ${name} was given up before it started`);
    if (!tool.available) return toolFailure('TOOL_UNAVAILABLE', `${name} is unavailable: ${this.lastStatus.error ?? 'the source could not be read'}`);
    return this.call(tool, args, context);
  }

  /** How messages name this source, e.g. `catalog erp`. */
  protected describeSource(): string {
    return `${this.ref.kind} ${this.ref.id}`;
  }

  private async readNow(): Promise<void> {
    let next: ToolDescriptor[];
    try {
      next = await this.readTools();
      this.lastStatus = { reachable: true, checkedAt: new Date().toISOString() };
    } catch (err) {
      next = this.tools.map((tool) => ({ ...copyDescriptor(tool), available: false }));
      this.lastStatus = { reachable: false, checkedAt: new Date().toISOString(), error: errorMessage(err) };
    }
    const changed = JSON.stringify(next) !== JSON.stringify(this.tools);
    this.tools = next;
    this.loaded = true;
    if (changed && !this.closed) this.changes.next({ source: { ...this.ref } });
  }
}

/** A deep copy of a descriptor (plain JSON data), so that a caller's edits never reach the source's list. */
export function copyDescriptor(tool: ToolDescriptor): ToolDescriptor {
  return structuredClone(tool);
}
