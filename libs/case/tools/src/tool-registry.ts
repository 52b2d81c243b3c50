import { Subject, type Observable, type Subscription, merge } from 'rxjs';
import {
  ToolCallLedger,
  jsonShapeError,
  sanitizeToolName,
  TOOL_NAME_PATTERN,
  toolFailure,
  toolFailureFromError,
  toolSourceKey,
  type ToolCallKey,
  type ToolCallOutcome,
  type ToolInvocationResult,
  type ToolSource,
} from '@mobileclaw/domain';
import { InMemoryToolCallLedger } from './in-memory-tool-call-ledger';
import { mergeTools } from './merge-tools';
import { ToolArgumentsValidator } from './tool-arguments';
import { formatToolRef, type ToolEntry } from './tool-entry';
import type { ToolIssueReport, ToolSourceIssue } from './tool-source-issue';
import { sourceListed, toolAllowed, toolNeedsApproval, toolPolicyFor, type ToolPolicies, type ToolPolicy } from './tool-policy';
import { DEFAULT_TOOL_PRECEDENCE, toolSourceRanker, type ToolPrecedence } from './tool-precedence';

/** Defaults of {@link ToolRegistryOptions}. */
export const TOOL_REGISTRY_DEFAULTS = {
  /** 256 KiB of JSON: a result a model can still take in, far above what a lookup returns. */
  maxResultBytes: 256 * 1024,
} as const;

/** How a {@link ToolRegistry} merges and calls. */
export interface ToolRegistryOptions {
  /** Which source wins a name; default {@link DEFAULT_TOOL_PRECEDENCE}. */
  precedence?: ToolPrecedence;
  /** Who may call what, and which `ACTION` tools need no approval; default: everything, actions with approval. */
  policies?: ToolPolicies;
  /** Where calls with a `toolCallId` are recorded; default an {@link InMemoryToolCallLedger}. */
  ledger?: ToolCallLedger;
  /** Largest result, in bytes of its JSON (`{ok, content, text}`); a larger one becomes `PAYLOAD_TOO_LARGE`. Default 256 KiB. */
  maxResultBytes?: number;
  /** Where sources' issues are read, for {@link ToolRegistry.issues}; default none. */
  issueReports?: readonly ToolIssueReport[];
  /** The clock durations are measured with, in ms; default `performance.now`. */
  now?: () => number;
}

/** How a caller's view is narrowed beyond its policy ({@link ToolRegistry.listFor}, {@link ToolCallRequest}). */
export interface ToolCallerView {
  /**
   * Sources whose tools the caller never sees nor calls, whatever its policy allows, by `kind:id` key
   * (`native:phone`) or `kind:*`: a face with tools of its own (the planner's phone actions) or a
   * caller that must not reach some sources (a phone driving other phones). A call of such a tool
   * answers `TOOL_NOT_FOUND`, as a name nobody lists.
   */
  excludeSources?: readonly string[];
}

/** Who calls, and how, besides the tool's name and arguments; `excludeSources` as for {@link ToolRegistry.listFor}. */
export interface ToolCallRequest extends ToolCallerView {
  /** The caller's id: it picks the {@link ToolPolicy} and scopes `toolCallId`s (e.g. `rest`). */
  caller: string;
  /** The caller's id for this call: a call with an id executes at most once; the same id again gets the recorded result. */
  toolCallId?: string;
  /** True when a person approved this call (needed for `ACTION` tools the policy does not exempt). */
  approved?: boolean;
  /** Fires when the caller gives up: the source answers `ABORTED`. */
  signal: AbortSignal;
  /** How long the call may take, in ms. */
  deadlineMs: number;
  /**
   * The caller's memory scope (`context:<id>` or `device:<id>`), handed to the source as
   * `ToolInvocationContext.scope` (the memory tools read and write it); absent when the caller has none.
   */
  scope?: string;
}

/**
 * What {@link ToolRegistry.invoke} answers: the result; `called`: whether the tool ran (false: the
 * registry refused the call before any execution, e.g. `TOOL_NOT_FOUND`, `VALIDATION_FAILED`); the
 * call's duration in ms (0 when refused); `replayed`: the result is the recorded one of an earlier
 * call with the same `toolCallId`.
 */
export type ToolCallResult = ToolInvocationResult & { called: boolean; durationMs: number; replayed: boolean };

/** A tool as one caller sees it ({@link ToolRegistry.listFor}): whether a call needs `approved: true`. */
export type CallerToolEntry = ToolEntry & { needsApproval: boolean };

/** The registry's announcement of a new merged view. */
export interface ToolRegistryChange {
  tools: ToolEntry[];
}

/**
 * One registry of every tool: the sources' lists merged with one visible precedence ({@link mergeTools})
 * and calls checked, then executed at most once per `toolCallId`. Sources are merged in any order
 * they are given or answer in: the view depends only on their lists and the precedence.
 *
 * The view is re-merged when a source announces a change; {@link changes$} then emits it.
 * Call {@link close} to stop following the sources (it does not close them: they belong to the host).
 */
export class ToolRegistry {
  private readonly sources = new Map<string, ToolSource>();
  private readonly precedence: ToolPrecedence;
  private readonly policies: ToolPolicies;
  private readonly ledger: ToolCallLedger;
  private readonly maxResultBytes: number;
  private readonly now: () => number;
  private readonly issueReports: readonly ToolIssueReport[];
  private readonly validator = new ToolArgumentsValidator();
  private readonly changesSubject = new Subject<ToolRegistryChange>();
  private readonly subscription: Subscription;
  /** Calls with an id running in this process, so that a concurrent duplicate waits for the first. */
  private readonly running = new Map<string, { tool: string; result: Promise<ToolCallResult> }>();
  /** Merges run one after the other, so views are announced in the order of the changes. */
  private merging: Promise<unknown> = Promise.resolve();
  private view?: Promise<ToolEntry[]>;

  /** A new merged view after each source change, in order. Completes on {@link close}. */
  readonly changes$: Observable<ToolRegistryChange> = this.changesSubject.asObservable();

  /**
   * @throws Error when two sources share a `kind:id`, or the precedence is invalid.
   */
  constructor(sources: readonly ToolSource[], options: ToolRegistryOptions = {}) {
    for (const source of sources) {
      const key = toolSourceKey(source.ref);
      if (this.sources.has(key)) throw new Error(`two tool sources are ${key}`);
      this.sources.set(key, source);
    }
    this.precedence = options.precedence ?? DEFAULT_TOOL_PRECEDENCE;
    toolSourceRanker(this.precedence);
    this.policies = options.policies ?? {};
    this.ledger = options.ledger ?? new InMemoryToolCallLedger();
    this.maxResultBytes = options.maxResultBytes ?? TOOL_REGISTRY_DEFAULTS.maxResultBytes;
    this.now = options.now ?? (() => performance.now());
    this.issueReports = options.issueReports ?? [];
    this.subscription = merge(...sources.map((source) => source.changes$)).subscribe(() => {
      const view = this.remerge();
      this.view = view;
      void view.then((tools) => this.changesSubject.next({ tools: structuredClone(tools) }));
    });
  }

  /** Every tool of every source, merged: visible ones and shadowed ones, sorted by exposed name. */
  async list(): Promise<ToolEntry[]> {
    this.view ??= this.remerge();
    return structuredClone(await this.view);
  }

  /**
   * The tools `caller` may call, as it would see them: the visible entries its {@link ToolPolicy}
   * allows, each with `needsApproval` (an `ACTION` tool its policy does not exempt), sorted by exposed
   * name. Shadowed entries, tools it may not call and tools of `view.excludeSources` are left out.
   */
  async listFor(caller: string, view: ToolCallerView = {}): Promise<CallerToolEntry[]> {
    const policy = toolPolicyFor(this.policies, caller);
    return (await this.list())
      .filter((entry) => entry.visible && callable(policy, entry, view))
      .map((entry) => ({ ...entry, needsApproval: toolNeedsApproval(policy, entry, entry.kind) }));
  }

  /** The visible tool callers call `exposedName`, or undefined. */
  async find(exposedName: string): Promise<ToolEntry | undefined> {
    return (await this.list()).find((entry) => entry.visible && entry.exposedName === exposedName);
  }

  /** What the sources could not turn into tools, source by source in the order reported (a report that rejects gives none). */
  async issues(): Promise<ToolSourceIssue[]> {
    const reports = await Promise.all(
      this.issueReports.map(async (report) => (await report.issues().catch(() => [])).map(({ kind, location, message }) => ({ source: { ...report.source }, kind, location, message }))),
    );
    return reports.flat();
  }

  /**
   * Calls the visible tool `exposedName`. Resolves with a failure, never rejects:
   * - `TOOL_NOT_FOUND`: no visible tool of that name, the caller's policy does not allow it, or its
   *   source is one of `request.excludeSources` (the message names the winner when the name is a shadowed tool's);
   * - `TOOL_UNAVAILABLE`: the tool is listed unavailable;
   * - `VALIDATION_FAILED`: `args` do not match its input schema (ajv's messages), before any call;
   * - `APPROVAL_REQUIRED`: an `ACTION` tool, not approved, and the policy does not exempt it;
   * - `IDEMPOTENCY_KEY_REUSED`: the `toolCallId` was used for another tool;
   *   `IDEMPOTENCY_KEY_IN_PROGRESS`: it began before and never ended (a process stopped during it): it is not run again;
   * - `PAYLOAD_TOO_LARGE`: the result is over `maxResultBytes`;
   * - the source's own failures; a source that throws gives `INTERNAL_ERROR` (or the thrown error's code).
   * With a `toolCallId`, the same id again answers the first call's result (`replayed: true`) without a
   * second call; a concurrent duplicate waits for the first.
   */
  async invoke(exposedName: string, args: Record<string, unknown>, request: ToolCallRequest): Promise<ToolCallResult> {
    const start = this.now();
    const tools = await this.list();
    const entry = tools.find((candidate) => candidate.visible && candidate.exposedName === exposedName);
    const policy = toolPolicyFor(this.policies, request.caller);
    if (!entry || !callable(policy, entry, request)) return refuse(toolFailure('TOOL_NOT_FOUND', notFoundMessage(exposedName, tools, entry !== undefined)));
    if (!entry.available) return refuse(toolFailure('TOOL_UNAVAILABLE', `tool ${exposedName} (${formatToolRef(entry)}) is unavailable right now`));
    // Before anything recursive reads them (ajv, the ledger, the source): bounded depth, no prototype keys.
    const shape = jsonShapeError(args, 'arguments');
    if (shape !== undefined) return refuse(toolFailure('VALIDATION_FAILED', `tool ${exposedName}: ${shape.field}: ${shape.message}`));
    const problem = this.validator.check(entry.inputSchema, args);
    if (problem !== undefined) return refuse(toolFailure('VALIDATION_FAILED', `tool ${exposedName}: ${problem}`));
    if (toolNeedsApproval(policy, entry, entry.kind) && request.approved !== true) {
      return refuse(toolFailure('APPROVAL_REQUIRED', `tool ${exposedName} is an ACTION: a person must approve the call (approved: true)`));
    }
    if (request.signal.aborted) return refuse(toolFailure('ABORTED', `tool ${exposedName}: the caller gave up before the call`));
    if (request.toolCallId === undefined) return this.execute(entry, args, request, globalThis.crypto.randomUUID(), start);

    const key: ToolCallKey = { caller: request.caller, toolCallId: request.toolCallId };
    const runningKey = JSON.stringify([key.caller, key.toolCallId]);
    const running = this.running.get(runningKey);
    if (running) {
      if (running.tool !== exposedName) return refuse(reused(key, running.tool));
      const first = await running.result;
      return first.called ? { ...first, replayed: true } : first;
    }
    const result = this.executeOnce(entry, args, request, key, start);
    this.running.set(runningKey, { tool: exposedName, result });
    try {
      return await result;
    } finally {
      this.running.delete(runningKey);
    }
  }

  /** Stops following the sources; {@link changes$} completes. The sources stay open. */
  close(): void {
    this.subscription.unsubscribe();
    this.changesSubject.complete();
  }

  private async executeOnce(entry: ToolEntry, args: Record<string, unknown>, request: ToolCallRequest, key: ToolCallKey, start: number): Promise<ToolCallResult> {
    let begin;
    try {
      begin = await this.ledger.begin(key, entry.exposedName);
    } catch (err) {
      return refuse(toolFailureFromError(err));
    }
    if (!begin.begun) {
      const { record } = begin;
      if (record.tool !== entry.exposedName) return refuse(reused(key, record.tool));
      if (!record.outcome) {
        return refuse(toolFailure('IDEMPOTENCY_KEY_IN_PROGRESS', `tool call ${key.toolCallId} began before and has not ended (the gateway may have stopped during it); it is not run again`));
      }
      return { ...record.outcome.result, called: true, durationMs: record.outcome.durationMs, replayed: true };
    }
    const result = await this.execute(entry, args, request, key.toolCallId, start);
    const outcome: ToolCallOutcome = { result: withoutTiming(result), durationMs: result.durationMs };
    // The call ran: its result is the caller's even when recording it fails (a retry then gets IDEMPOTENCY_KEY_IN_PROGRESS, never a second run).
    await this.ledger.finish(key, outcome).catch(() => undefined);
    return result;
  }

  private async execute(entry: ToolEntry, args: Record<string, unknown>, request: ToolCallRequest, toolCallId: string, start: number): Promise<ToolCallResult> {
    // Every listed entry's source is registered: the view is merged from exactly these sources.
    const source = this.sources.get(toolSourceKey(entry.source)) as ToolSource;
    let result: ToolInvocationResult;
    try {
      const answer: unknown = await source.invoke(entry.name, args, {
        toolCallId,
        signal: request.signal,
        deadlineMs: request.deadlineMs,
        ...(request.scope === undefined ? {} : { scope: request.scope }),
      });
      result = isInvocationResult(answer) ? this.bounded(entry, answer) : toolFailure('INTERNAL_ERROR', `tool ${entry.exposedName}: the source ${toolSourceKey(entry.source)} answered no result`);
    } catch (err) {
      result = toolFailureFromError(err);
    }
    return { ...result, called: true, durationMs: Math.max(0, this.now() - start), replayed: false };
  }

  private bounded(entry: ToolEntry, result: ToolInvocationResult): ToolInvocationResult {
    if (!result.ok) return result;
    let bytes: number;
    try {
      bytes = new TextEncoder().encode(JSON.stringify(result)).length;
    } catch (err) {
      return toolFailure('INTERNAL_ERROR', `tool ${entry.exposedName}: the result is not JSON: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (bytes <= this.maxResultBytes) return result;
    return toolFailure('PAYLOAD_TOO_LARGE', `tool ${entry.exposedName}: the result is ${bytes} bytes of JSON, more than the ${this.maxResultBytes} allowed`);
  }

  private remerge(): Promise<ToolEntry[]> {
    const next = this.merging.then(async () => {
      const listings = await Promise.all(
        [...this.sources.values()].map(async (source) => ({
          source: source.ref,
          // A source that cannot list (a bug: the port says it never rejects) contributes nothing rather than hiding every other.
          tools: await source.list().catch(() => []),
        })),
      );
      return mergeTools(listings, this.precedence);
    });
    this.merging = next.catch(() => undefined);
    return next;
  }
}

/** True when the caller of `policy` may call `entry` and `view` does not exclude its source: the one rule of both listing and calling. */
function callable(policy: ToolPolicy, entry: ToolEntry, view: ToolCallerView): boolean {
  return toolAllowed(policy, entry) && !sourceListed(view.excludeSources, entry.source);
}

function refuse(result: ToolInvocationResult): ToolCallResult {
  return { ...result, called: false, durationMs: 0, replayed: false };
}

function reused(key: ToolCallKey, tool: string): ToolInvocationResult {
  return toolFailure('IDEMPOTENCY_KEY_REUSED', `tool call ${key.toolCallId} was already used for tool ${tool}`);
}

function withoutTiming(result: ToolCallResult): ToolInvocationResult {
  // `verified: false` is recorded too: a replayed answer must not pass for a verified one.
  if (result.ok) return { ok: true, content: result.content, text: result.text, ...(result.verified === undefined ? {} : { verified: result.verified }) };
  return { ok: false, error: result.error };
}

/** Why `name` is not callable: shadowed (naming the winner), not allowed, or unknown. */
function notFoundMessage(name: string, tools: readonly ToolEntry[], listed: boolean): string {
  if (listed) return `no tool ${name} for this caller`;
  const shadowed = tools.find(
    (entry) => !entry.visible && (entry.name === name || entry.originalName === name || sanitizeToolName(`${entry.source.id}_${entry.name}`) === name),
  );
  if (shadowed?.shadowedBy) {
    return `no tool ${name}: ${formatToolRef(shadowed)} is shadowed by ${formatToolRef(shadowed.shadowedBy)}, called ${shadowed.exposedName}`;
  }
  // A name no tool can have is quoted and cut: a caller's 10 KB or control-character name is not echoed whole.
  if (!TOOL_NAME_PATTERN.test(name)) return `no tool ${JSON.stringify(name.length > 80 ? `${name.slice(0, 80)}…` : name)}: a tool name is 1–64 of [A-Za-z0-9_-]`;
  return `no tool ${name}`;
}

function isInvocationResult(value: unknown): value is ToolInvocationResult {
  if (typeof value !== 'object' || value === null) return false;
  const result = value as { ok?: unknown; text?: unknown; error?: unknown };
  if (result.ok === true) return typeof result.text === 'string' && 'content' in result;
  return result.ok === false && typeof result.error === 'object' && result.error !== null;
}
