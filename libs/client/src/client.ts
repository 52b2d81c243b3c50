import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { MobileClawClientError, isUnacknowledged } from './errors';
import { EventChannel } from './event-channel';
import { isTerminalStatus, type InvocationStatus, type InvocationAccepted, type InvocationEvent, type InvocationResult, type InvocationState } from './events';
import { GatewayApi, type PendingToolCallResource, type TaskResource } from './gateway-api';
import { FileInvocationStore, MemoryInvocationStore, type InvocationRecord, type InvocationStore } from './invocation-store';
import { TaskFollower, type FollowedEvent, type ToolCallDelivery } from './task-follower';
import { pendingActionOf, pendingToolApprovalOf } from './task-event-mapping';
import { FileToolCallStore } from './tools/file-tool-call-store';
import { LocalTools } from './tools/local-tools';
import { boundedReason } from './tools/rejection-reason';
import { InMemoryToolCallStore, ToolCallStore } from './tools/tool-call-store';
import type { ToolApprovalHandler, ToolCallGuard, ToolCallOutcome, ToolPolicy } from './tools/tool-types';

/** Settings of a {@link MobileClawClient}. Durations are ms. */
export interface MobileClawClientOptions {
  /** The gateway, e.g. `http://127.0.0.1:8080`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …` (the gateway's `MOBILECLAW_API_TOKEN`). */
  apiToken?: string;
  /**
   * Directory of the default file stores: invocation records in `<storeDir>/invocations`, local tool
   * call records (a `toolCallId` runs at most once, across restarts too) in `<storeDir>/tool-calls`
   * (owner-only, 0700 directories and 0600 files). Default `~/.mobileclaw/client`. `store: 'memory'`
   * keeps them in memory instead (lost with the process).
   */
  storeDir?: string;
  store?: 'file' | 'memory';
  /** Replaces the default invocation store. */
  invocationStore?: InvocationStore;
  /** Replaces the default store of local tool calls (e.g. one in the app's database). */
  toolCallStore?: ToolCallStore;
  /** The app's policy guard: asked for each local tool call after its arguments are validated, before approval. */
  toolGuard?: ToolCallGuard;
  /** Pauses before each re-send of an unacknowledged creation. Default `[200, 400, 800]`: 3 retries. */
  creationRetry?: { delaysMs: number[] };
  /** Pauses before each attempt to recover a lost event stream, their number bounding the attempts in a row. Default `[200, 400, 800, 1600, 3200]`. */
  streamRecovery?: { delaysMs: number[] };
  /** Per HTTP request (until the answer is in; for the event stream until it opens). Default 30 000. */
  requestTimeoutMs?: number;
  /** An event stream silent for this long counts as lost (the gateway sends a keep-alive every 15 s). Default 45 000. */
  streamIdleTimeoutMs?: number;
  /**
   * Largest answer body the client reads, in bytes (counted while read; past it the request is
   * aborted and fails `BAD_RESPONSE`, retried like an unacknowledged answer within its bounds).
   * Default 4 MiB (4 194 304).
   */
  maxResponseBytes?: number;
  /**
   * Largest single event of an event stream, in bytes (counted while read; past it the stream is
   * closed as broken, `BAD_RESPONSE`, and recovered within `streamRecovery`'s bounds, then
   * `progress_uncertain`). Default 4 MiB (4 194 304).
   */
  maxStreamEventBytes?: number;
  /** BLOCKING's fallback when no event stream can be kept: polls `GET /api/tasks/:id`. Default `{intervalMs: 1000, maxAttempts: 60}`. */
  blockingPoll?: { intervalMs: number; maxAttempts: number };
  /** Approval handler for `ACTION` local tools when an invocation names none; without one they are rejected. */
  onToolApproval?: ToolApprovalHandler;
  /** Default the global `fetch` (Node 20). */
  fetch?: typeof fetch;
}

interface InvokeCommon {
  /** What to do on the phone, in natural language (1–`maxGoalLength` characters on the gateway). */
  goal: string;
  /** The phone; default the only online phone (`DEVICE_NOT_FOUND` when none, `DEVICE_AMBIGUOUS` when several). */
  deviceId?: string;
  /** The app's conversation (A2A `contextId`, 1–256 printable characters); default a new UUID. */
  conversationId?: string;
  /** This invocation's tool policy; it can only narrow the conversation's (`setConversationToolPolicy`). */
  tools?: ToolPolicy;
  /** Default a new UUID. Re-invoking with the same key, conversationId and content never creates a second task. */
  idempotencyKey?: string;
  /** Step budget, 1–200 (the gateway's default when absent). */
  maxSteps?: number;
  /** Approval handler for this invocation's `ACTION` tool calls (default the client's). */
  onToolApproval?: ToolApprovalHandler;
  /** Stops waiting and following (the task itself goes on; `cancel` ends it). */
  signal?: AbortSignal;
}

export type StreamingInvocationOptions = InvokeCommon & { mode: 'STREAMING' };
export type BlockingInvocationOptions = InvokeCommon & { mode: 'BLOCKING' };
export type AsyncInvocationOptions = InvokeCommon & { mode: 'ASYNC' };
export type InvocationOptions = StreamingInvocationOptions | BlockingInvocationOptions | AsyncInvocationOptions;

/**
 * A STREAMING invocation: its identifiers at once, and an async iterable of {@link InvocationEvent}s
 * (iterate it once). The iteration ends after the terminal event (`completed`, `failed`, `canceled`),
 * after `progress_uncertain`, or — when the stream drops while the task waits for the app's approval —
 * after `input_required` (answer with `approve`, then follow with `client.events`). It throws a
 * {@link MobileClawClientError} for a refusal (4xx) of the creation or of the stream.
 */
export interface Invocation extends AsyncIterable<InvocationEvent> {
  readonly invocationRef: string;
  readonly conversationId: string;
  readonly idempotencyKey: string;
}

const DEFAULTS = {
  creationDelaysMs: [200, 400, 800],
  recoveryDelaysMs: [200, 400, 800, 1600, 3200],
  requestTimeoutMs: 30_000,
  streamIdleTimeoutMs: 45_000,
  maxResponseBytes: 4 * 1024 * 1024,
  maxStreamEventBytes: 4 * 1024 * 1024,
  blockingPoll: { intervalMs: 1000, maxAttempts: 60 },
};

/**
 * Calls a MobileClaw gateway from a business system over its REST API and event streams (Node 20,
 * no framework). One call, three modes: `STREAMING` (typed events), `BLOCKING` (the final result),
 * `ASYNC` (accepted; ask later). Creation is idempotent and re-sent when unacknowledged; a lost stream is
 * recovered from the last event id; tool calls of the agent run the app's local tools (`tools`).
 * Everything later takes the `invocationRef`; the gateway's task id stays internal.
 *
 * Kept across a restart (default file stores): invocation records and local tool-call records. Not
 * kept: registered tools, conversation tool policies (`setConversationToolPolicy`) and approval
 * handlers — register and set them again before resuming with `events(ref)` or `result(ref)`.
 */
export class MobileClawClient {
  /** The app's local tools: `register` them; policies decide which are exposed. */
  readonly tools: LocalTools;
  private readonly api: GatewayApi;
  private readonly store: InvocationStore;
  private readonly creationDelaysMs: readonly number[];
  private readonly recoveryDelaysMs: readonly number[];
  private readonly blockingPoll: { intervalMs: number; maxAttempts: number };
  private readonly conversationPolicies = new Map<string, ToolPolicy>();
  private readonly approvalHandlers = new Map<string, ToolApprovalHandler>();
  private readonly followers = new Map<string, Set<TaskFollower>>();
  private readonly cancellations = new Map<string, AbortController>();
  private readonly background = new Set<AbortController>();
  private readonly updates = new Map<string, Promise<unknown>>();

  constructor(private readonly options: MobileClawClientOptions) {
    if (!/^https?:\/\//.test(options.baseUrl)) throw new MobileClawClientError('VALIDATION_FAILED', `baseUrl must be an http(s) URL (got "${options.baseUrl}")`);
    this.api = new GatewayApi({
      baseUrl: options.baseUrl,
      apiToken: options.apiToken,
      fetch: options.fetch ?? globalThis.fetch,
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULTS.requestTimeoutMs,
      streamIdleTimeoutMs: options.streamIdleTimeoutMs ?? DEFAULTS.streamIdleTimeoutMs,
      maxResponseBytes: options.maxResponseBytes ?? DEFAULTS.maxResponseBytes,
      maxStreamEventBytes: options.maxStreamEventBytes ?? DEFAULTS.maxStreamEventBytes,
    });
    const storeDir = options.storeDir ?? join(homedir(), '.mobileclaw', 'client');
    this.store = options.invocationStore ?? (options.store === 'memory' ? new MemoryInvocationStore() : new FileInvocationStore(join(storeDir, 'invocations')));
    this.creationDelaysMs = options.creationRetry?.delaysMs ?? DEFAULTS.creationDelaysMs;
    this.recoveryDelaysMs = options.streamRecovery?.delaysMs ?? DEFAULTS.recoveryDelaysMs;
    this.blockingPoll = options.blockingPoll ?? DEFAULTS.blockingPoll;
    this.tools = new LocalTools({
      store: options.toolCallStore ?? (options.store === 'memory' ? new InMemoryToolCallStore() : new FileToolCallStore(join(storeDir, 'tool-calls'))),
      guard: options.toolGuard,
    });
  }

  /**
   * Sets (or with `undefined` clears) which local tools a conversation exposes; an invocation's policy
   * can only narrow it. Conversation policies live in this client's memory only (unlike invocation
   * records and tool-call records, which the stores keep): after a restart, set them again before
   * resuming an invocation (`events(ref)`, `result(ref)`), else its tool calls are answered `rejected`
   * (no conversation policy exposes nothing).
   */
  setConversationToolPolicy(conversationId: string, policy: ToolPolicy | undefined): void {
    if (policy === undefined) this.conversationPolicies.delete(conversationId);
    else this.conversationPolicies.set(conversationId, policy);
  }

  /**
   * Starts a phone task.
   * - `STREAMING` → an {@link Invocation} at once (iterate it for events).
   * - `BLOCKING` → resolves with the {@link InvocationResult} once the task ended or waits for the app's
   *   approval (`input_required`).
   * - `ASYNC` → resolves with {@link InvocationAccepted} once the gateway accepted the task; answers the
   *   task's tool calls in the background until it ends (stop with `close`).
   * Creation without an acknowledgement (network error, 5xx, timeout, 409 IDEMPOTENCY_KEY_IN_PROGRESS)
   * is re-sent with the same key and content after each `creationRetry` delay.
   * @throws (BLOCKING, ASYNC: rejects; STREAMING: the iteration throws) {@link MobileClawClientError}:
   *   the gateway's code for a refusal, e.g. `IDEMPOTENCY_KEY_REUSED` (422, the key was used with other
   *   content), `VALIDATION_FAILED` (400), `DEVICE_NOT_FOUND` (404); `PROGRESS_UNCERTAIN` with hint
   *   `RESEND_WITH_SAME_IDEMPOTENCY_KEY` and the `idempotencyKey` when no attempt was acknowledged
   *   (STREAMING emits `progress_uncertain` instead); BLOCKING also `PROGRESS_UNCERTAIN` with
   *   `QUERY_LATER_DO_NOT_REINVOKE` when the task's end cannot be established.
   */
  invoke(options: StreamingInvocationOptions): Invocation;
  invoke(options: BlockingInvocationOptions): Promise<InvocationResult>;
  invoke(options: AsyncInvocationOptions): Promise<InvocationAccepted>;
  invoke(options: InvocationOptions): Invocation | Promise<InvocationResult> | Promise<InvocationAccepted> {
    const record = this.prepare(options);
    if (options.onToolApproval) this.approvalHandlers.set(record.invocationRef, options.onToolApproval);
    switch (options.mode) {
      case 'STREAMING':
        return this.streaming(record, options.signal);
      case 'BLOCKING':
        return this.blocking(record, options.signal);
      case 'ASYNC':
        return this.async(record, options.signal);
    }
  }

  /**
   * The invocation's events after the last one this client delivered for it (from the start when none),
   * by the same rules as STREAMING: e.g. after `approve`, after a `progress_uncertain`, or after a restart
   * (the default store keeps the records).
   * The iteration throws `UNKNOWN_INVOCATION` (no record), `NOT_CREATED` (creation never acknowledged:
   * hint `RESEND_WITH_SAME_IDEMPOTENCY_KEY`), or the gateway's code for a refusal.
   */
  events(invocationRef: string, options: { signal?: AbortSignal } = {}): AsyncIterable<InvocationEvent> {
    const channel = new EventChannel<InvocationEvent>(() => stop.abort());
    const stop = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
    void (async () => {
      const record = await this.created(invocationRef);
      await this.follow(record, (item) => void this.deliver(channel, item), signal);
    })().then(
      () => void this.drained().then(() => channel.end()),
      (error: unknown) => channel.end(error),
    );
    return channel;
  }

  /**
   * Waits for the invocation's result like BLOCKING (e.g. after `approve` on a BLOCKING result):
   * resolves once the task ended or waits for the app's approval. @throws like BLOCKING, and
   * `UNKNOWN_INVOCATION`, `NOT_CREATED`.
   */
  async result(invocationRef: string, options: { signal?: AbortSignal } = {}): Promise<InvocationResult> {
    return this.awaitResult(await this.created(invocationRef), options.signal);
  }

  /**
   * The invocation's state now, from the gateway. @throws `UNKNOWN_INVOCATION`, `NOT_CREATED` (hint
   * `RESEND_WITH_SAME_IDEMPOTENCY_KEY`), `NETWORK_ERROR`/`TIMEOUT`, or the gateway's code.
   */
  async get(invocationRef: string, options: { signal?: AbortSignal } = {}): Promise<InvocationState> {
    const record = await this.created(invocationRef);
    const task = await this.api.getTask(record.taskRef, options.signal);
    return this.stateOf(await this.noteTask(record, task), task);
  }

  /**
   * Answers the approval the task waits for: true runs the pending phone action, false cancels the task
   * (`APPROVAL_DENIED`); for a gateway tool's call (`pendingToolApproval`), true runs it and false skips
   * it (its step ends `denied`, the task goes on). Resolves with the new state (`running`, or `canceled`).
   * @throws `TASK_STATE_CONFLICT` (409, not waiting for an approval), `UNKNOWN_INVOCATION`, `NOT_CREATED`,
   *   `NETWORK_ERROR`/`TIMEOUT`.
   */
  async approve(invocationRef: string, approve: boolean, options: { signal?: AbortSignal } = {}): Promise<InvocationState> {
    const record = await this.created(invocationRef);
    const task = await this.api.approve(record.taskRef, approve, options.signal);
    for (const follower of this.followers.get(invocationRef) ?? []) follower.noteApproval(task.status);
    return this.stateOf(await this.noteTask(record, task), task);
  }

  /**
   * Cancels the task (`canceled`); a local tool running for it sees its signal fire.
   * @throws `TASK_STATE_CONFLICT` (409, already ended), `UNKNOWN_INVOCATION`, `NOT_CREATED`, `NETWORK_ERROR`/`TIMEOUT`.
   */
  async cancel(invocationRef: string, options: { signal?: AbortSignal } = {}): Promise<InvocationState> {
    const record = await this.created(invocationRef);
    const task = await this.api.cancel(record.taskRef, options.signal);
    this.cancellations.get(invocationRef)?.abort();
    return this.stateOf(await this.noteTask(record, task), task);
  }

  /** Stops background work (ASYNC invocations answering tool calls). The tasks go on on the gateway. */
  close(): void {
    for (const controller of this.background) controller.abort();
    this.background.clear();
  }

  private prepare(options: InvocationOptions): InvocationRecord {
    const conversationId = options.conversationId ?? randomUUID();
    const now = new Date().toISOString();
    return {
      invocationRef: randomUUID(),
      conversationId,
      idempotencyKey: options.idempotencyKey ?? randomUUID(),
      request: {
        ...(options.deviceId === undefined ? {} : { deviceId: options.deviceId }),
        goal: options.goal,
        ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
        contextId: conversationId,
        ...this.toolsField(conversationId, options.tools),
      },
      ...(options.tools === undefined ? {} : { toolPolicy: options.tools }),
      lastEventId: 0,
      createdAt: now,
      updatedAt: now,
    };
  }

  /**
   * `tools` for the creation: the exposed specs. Sent once the app registered any local tool (possibly
   * `[]`: the gateway then hands every tool call to the SDK, which answers it rejected); without local
   * tools the field is left out, which gateways from before caller tools also accept.
   */
  private toolsField(conversationId: string, policy: ToolPolicy | undefined): { tools?: ReturnType<LocalTools['exposedSpecs']> } {
    if (this.tools.exposedSpecs({ allow: '*' }, { allow: '*' }).length === 0) return {};
    return { tools: this.tools.exposedSpecs(this.conversationPolicies.get(conversationId), policy) };
  }

  private streaming(record: InvocationRecord, callerSignal: AbortSignal | undefined): Invocation {
    const stop = new AbortController();
    const signal = callerSignal ? AbortSignal.any([callerSignal, stop.signal]) : stop.signal;
    const channel = new EventChannel<InvocationEvent>(() => stop.abort());
    void (async () => {
      await this.store.put(record);
      try {
        await this.create(record, signal);
      } catch (error) {
        if (!(error instanceof MobileClawClientError) || error.hint !== 'RESEND_WITH_SAME_IDEMPOTENCY_KEY') throw error;
        channel.push({ invocationRef: record.invocationRef, conversationId: record.conversationId, type: 'progress_uncertain', hint: error.hint, idempotencyKey: record.idempotencyKey, cause: error.message });
        return;
      }
      await this.follow(record as InvocationRecord & { taskRef: string }, (item) => void this.deliver(channel, item), signal);
    })().then(
      () => void this.drained().then(() => channel.end()),
      (error: unknown) => channel.end(error),
    );
    return Object.assign(channel, { invocationRef: record.invocationRef, conversationId: record.conversationId, idempotencyKey: record.idempotencyKey });
  }

  private async blocking(record: InvocationRecord, signal: AbortSignal | undefined): Promise<InvocationResult> {
    await this.store.put(record);
    await this.create(record, signal);
    return this.awaitResult(record as InvocationRecord & { taskRef: string }, signal);
  }

  private async async(record: InvocationRecord, signal: AbortSignal | undefined): Promise<InvocationAccepted> {
    await this.store.put(record);
    const accepted = await this.create(record, signal);
    if (record.request.tools !== undefined && !isTerminalStatus(accepted.status)) {
      // Nobody follows an ASYNC task, yet its tool calls need answers: follow it quietly until it ends.
      const controller = new AbortController();
      this.background.add(controller);
      void this.follow(record as InvocationRecord & { taskRef: string }, () => undefined, controller.signal, { throughApprovals: true })
        .catch(() => undefined)
        .finally(() => this.background.delete(controller));
    }
    return {
      invocationRef: record.invocationRef,
      conversationId: record.conversationId,
      idempotencyKey: record.idempotencyKey,
      status: accepted.status,
      ...(accepted.queuePosition === undefined ? {} : { queuePosition: accepted.queuePosition }),
    };
  }

  /**
   * Sends the creation until acknowledged: the same key and body each time. @throws the gateway's
   * refusal at once, or `PROGRESS_UNCERTAIN` (hint `RESEND_WITH_SAME_IDEMPOTENCY_KEY`) after the last retry.
   */
  private async create(record: InvocationRecord, signal: AbortSignal | undefined): Promise<{ status: InvocationStatus; queuePosition?: number }> {
    let last: unknown;
    for (let attempt = 0; ; attempt++) {
      try {
        if (record.request.deviceId === undefined) {
          record.request.deviceId = await this.onlyPhone(signal);
          await this.update(record.invocationRef, (stored) => ({ ...stored, request: { ...stored.request, deviceId: record.request.deviceId } }));
        }
        const { accepted } = await this.api.createTask({ ...record.request, deviceId: record.request.deviceId }, record.idempotencyKey, signal);
        record.taskRef = accepted.taskId;
        record.status = accepted.status;
        await this.update(record.invocationRef, (stored) => ({ ...stored, taskRef: accepted.taskId, status: accepted.status }));
        return accepted;
      } catch (error) {
        if (signal?.aborted) throw new MobileClawClientError('ABORTED', 'aborted by the caller', { idempotencyKey: record.idempotencyKey, cause: error });
        const pending = error instanceof MobileClawClientError && error.code === 'IDEMPOTENCY_KEY_IN_PROGRESS';
        if (!isUnacknowledged(error) && !pending) {
          if (error instanceof MobileClawClientError) Object.assign(error, { idempotencyKey: record.idempotencyKey });
          throw error;
        }
        last = error;
      }
      if (attempt >= this.creationDelaysMs.length) break;
      await sleep(this.creationDelaysMs[attempt], signal);
    }
    const cause = last instanceof Error ? last.message : String(last);
    throw new MobileClawClientError('PROGRESS_UNCERTAIN', `the gateway did not acknowledge the task after ${this.creationDelaysMs.length + 1} attempts (${cause}); invoke again with idempotencyKey ${record.idempotencyKey}, conversationId ${record.conversationId} and the same content`, {
      retryable: true,
      hint: 'RESEND_WITH_SAME_IDEMPOTENCY_KEY',
      idempotencyKey: record.idempotencyKey,
      conversationId: record.conversationId,
      cause: last,
    });
  }

  /** The only online phone. @throws DEVICE_NOT_FOUND (none), DEVICE_AMBIGUOUS (several). */
  private async onlyPhone(signal: AbortSignal | undefined): Promise<string> {
    const online = (await this.api.listDevices(signal)).filter((device) => device.status !== 'offline');
    if (online.length === 1) return online[0].deviceId;
    if (online.length === 0) throw new MobileClawClientError('DEVICE_NOT_FOUND', 'no phone is online; name one with deviceId', { status: 404 });
    throw new MobileClawClientError('DEVICE_AMBIGUOUS', `several phones are online (${online.map((d) => d.deviceId).join(', ')}); name one with deviceId`, { status: 400 });
  }

  private async follow(record: InvocationRecord & { taskRef: string }, emit: (item: FollowedEvent) => void, signal: AbortSignal, options: { throughApprovals?: boolean } = {}): Promise<void> {
    const cancellation = this.cancellations.get(record.invocationRef) ?? new AbortController();
    this.cancellations.set(record.invocationRef, cancellation);
    const follower = new TaskFollower(
      { ...record, lastEventId: record.lastEventId },
      {
        api: this.api,
        recoveryDelaysMs: this.recoveryDelaysMs,
        sleep,
        answerToolCall: (call, callSignal) => this.answerToolCall(record, call, emit, callSignal, cancellation.signal),
        throughApprovals: options.throughApprovals,
      },
      emit,
    );
    const followers = this.followers.get(record.invocationRef) ?? new Set();
    this.followers.set(record.invocationRef, followers.add(follower));
    try {
      await follower.run(signal);
    } finally {
      followers.delete(follower);
      if (followers.size === 0) {
        this.followers.delete(record.invocationRef);
        this.cancellations.delete(record.invocationRef);
      }
    }
  }

  /**
   * Runs one tool call through the local tools and gives the gateway the outcome (retried after
   * each recovery delay while unacknowledged). Answers `answered` once the gateway has an answer for
   * the call (409 `TOOL_CALL_NOT_PENDING`: it had one already, or the task no longer waits), `ended`
   * when the invocation was canceled meanwhile (nothing left to answer: the task's own events tell its
   * end), `unanswered` when no attempt was acknowledged.
   * A refused answer (400/413) is never taken as delivered: it is sent once more as `rejected` with a
   * short reason naming the gateway's objection.
   * @throws MobileClawClientError `TOOL_RESULT_REFUSED` when that is refused too; the gateway's error
   *   for any other refusal (401, 404 …).
   */
  private async answerToolCall(record: InvocationRecord & { taskRef: string }, call: PendingToolCallResource, emit: (item: FollowedEvent) => void, followSignal: AbortSignal, cancellation: AbortSignal): Promise<ToolCallDelivery> {
    const ids = { invocationRef: record.invocationRef, conversationId: record.conversationId };
    const signal = AbortSignal.any([followSignal, cancellation]);
    let outcome: ToolCallOutcome = await this.tools.handle(
      { toolCallId: call.toolCallId, name: call.name, arguments: call.arguments ?? {}, ...ids },
      {
        conversationPolicy: this.conversationPolicies.get(record.conversationId),
        invocationPolicy: record.toolPolicy,
        approve: this.approvalHandlers.get(record.invocationRef) ?? this.options.onToolApproval,
        onConfirmationRequired: (request) => emit({ event: { ...ids, type: 'tool_call_requires_confirmation', toolCallId: request.toolCallId, name: request.name, arguments: request.arguments } }),
        signal,
      },
    );
    let refused: MobileClawClientError | undefined;
    for (let attempt = 0; ; attempt++) {
      // Canceled: the task ended on the gateway (cancel ends it before it aborts), nothing waits for this answer.
      if (cancellation.aborted) return 'ended';
      if (followSignal.aborted) return 'unanswered';
      try {
        await this.api.submitToolResult(record.taskRef, { toolCallId: call.toolCallId, ...boundedOutcome(outcome) }, signal);
        return 'answered';
      } catch (error) {
        if (cancellation.aborted) return 'ended';
        if (followSignal.aborted) return 'unanswered';
        if (!(error instanceof MobileClawClientError)) throw error;
        // The task waits for no such call: answered already (an earlier delivery) or it ended.
        if (error.code === 'TOOL_CALL_NOT_PENDING') return 'answered';
        if (error.status === 400 || error.status === 413) {
          if (refused) {
            throw new MobileClawClientError('TOOL_RESULT_REFUSED', `the gateway refused the answer to tool call ${call.toolCallId} (${refused.message}) and then the rejection sent instead (${error.message}); the task waits until its tool-result timeout`, {
              status: error.status,
              cause: error,
            });
          }
          // Never "delivered": the task would wait until its tool-result timeout. Told once more, as a short rejection.
          refused = error;
          outcome = { outcome: 'rejected', reason: `the gateway refused the answer of tool ${call.name}: ${error.code}: ${error.message}` };
          continue;
        }
        if (!isUnacknowledged(error)) throw error;
      }
      if (attempt >= this.recoveryDelaysMs.length) return 'unanswered';
      await sleep(this.recoveryDelaysMs[attempt], signal);
    }
  }

  /** Follows the task until it ended or waits for the app's approval; polls when no stream can be kept. */
  private async awaitResult(record: InvocationRecord & { taskRef: string }, callerSignal: AbortSignal | undefined): Promise<InvocationResult> {
    const stop = new AbortController();
    const signal = callerSignal ? AbortSignal.any([callerSignal, stop.signal]) : stop.signal;
    let uncertain: InvocationEvent | undefined;
    let stopped = false;
    await this.follow(
      record,
      (item) => {
        if (stopped) return;
        void this.deliver(undefined, item);
        const type = item.event.type;
        if (type === 'progress_uncertain') uncertain = item.event;
        if (type === 'input_required' || type === 'completed' || type === 'failed' || type === 'canceled') {
          stopped = true;
          stop.abort();
        }
      },
      signal,
    );
    if (callerSignal?.aborted) throw new MobileClawClientError('ABORTED', 'aborted by the caller');
    await this.drained();
    for (let attempt = 0; ; attempt++) {
      try {
        const task = await this.api.getTask(record.taskRef, callerSignal);
        if (isTerminalStatus(task.status) || (task.status === 'input_required' && (task.pendingAction || task.pendingToolApproval))) return this.stateOf(await this.noteTask(record, task), task);
        if (task.pendingToolCall) await this.answerToolCall(record, task.pendingToolCall, () => undefined, callerSignal ?? new AbortController().signal, this.cancellations.get(record.invocationRef)?.signal ?? new AbortController().signal);
      } catch (error) {
        if (callerSignal?.aborted) throw new MobileClawClientError('ABORTED', 'aborted by the caller', { cause: error });
        if (!isUnacknowledged(error)) throw error;
      }
      if (attempt >= this.blockingPoll.maxAttempts) break;
      await sleep(this.blockingPoll.intervalMs, callerSignal);
    }
    const cause = uncertain?.type === 'progress_uncertain' ? uncertain.cause : 'the task did not end while polled';
    throw new MobileClawClientError('PROGRESS_UNCERTAIN', `the task's end could not be established (${cause}); query it later, do not invoke again`, {
      retryable: true,
      hint: 'QUERY_LATER_DO_NOT_REINVOKE',
      idempotencyKey: record.idempotencyKey,
      conversationId: record.conversationId,
    });
  }

  /**
   * Notes one event in the record as delivered, then hands it to the app (when a channel is given): a
   * later `events()` (also after a restart) starts after the last event the app got.
   */
  private deliver(channel: EventChannel<InvocationEvent> | undefined, item: FollowedEvent): Promise<void> {
    const { event } = item;
    const work = this.update(event.invocationRef, (stored) => ({
      ...stored,
      ...(event.eventId !== undefined && event.eventId > stored.lastEventId ? { lastEventId: event.eventId } : {}),
      ...(item.status === undefined ? {} : { status: item.status, pendingAction: item.pendingAction, pendingToolApproval: item.pendingToolApproval }),
      ...(event.type === 'completed' || event.type === 'failed' || event.type === 'canceled' ? { ended: true } : {}),
    }));
    if (event.type === 'completed' || event.type === 'failed' || event.type === 'canceled') this.approvalHandlers.delete(event.invocationRef);
    // Records of one invocation are written in order, so the events reach the app in order too. A
    // store that fails to write loses only the resume point, never the event.
    return work.catch(() => undefined).then(() => channel?.push(event));
  }

  /** Resolves once every record update queued so far has landed. */
  private async drained(): Promise<void> {
    await Promise.all([...this.updates.values()]);
  }

  /** Applies `change` to the stored record; the changes of one record are applied in call order. */
  private update(invocationRef: string, change: (stored: InvocationRecord) => InvocationRecord): Promise<void> {
    const previous = this.updates.get(invocationRef) ?? Promise.resolve();
    const next = previous.then(async () => {
      const stored = await this.store.get(invocationRef);
      if (stored) await this.store.put({ ...change(stored), updatedAt: new Date().toISOString() });
    });
    const settled = next.catch(() => undefined);
    this.updates.set(invocationRef, settled);
    void settled.then(() => {
      if (this.updates.get(invocationRef) === settled) this.updates.delete(invocationRef);
    });
    return next;
  }

  private async created(invocationRef: string): Promise<InvocationRecord & { taskRef: string }> {
    const record = await this.store.get(invocationRef);
    if (!record) throw new MobileClawClientError('UNKNOWN_INVOCATION', `no invocation ${invocationRef} in the invocation store`);
    if (record.taskRef === undefined) {
      throw new MobileClawClientError('NOT_CREATED', `the task of invocation ${invocationRef} was never acknowledged; invoke again with idempotencyKey ${record.idempotencyKey} and the same content`, {
        hint: 'RESEND_WITH_SAME_IDEMPOTENCY_KEY',
        idempotencyKey: record.idempotencyKey,
      });
    }
    return record as InvocationRecord & { taskRef: string };
  }

  private async noteTask(record: InvocationRecord, task: TaskResource): Promise<InvocationRecord> {
    const pendingAction = task.pendingAction ? pendingActionOf(task.pendingAction) : undefined;
    const pendingToolApproval = task.pendingToolApproval ? pendingToolApprovalOf(task.pendingToolApproval) : undefined;
    await this.update(record.invocationRef, (stored) => ({ ...stored, status: task.status, pendingAction, pendingToolApproval }));
    return { ...record, status: task.status, pendingAction, pendingToolApproval };
  }

  private stateOf(record: InvocationRecord, task: TaskResource): InvocationState {
    return {
      invocationRef: record.invocationRef,
      conversationId: record.conversationId,
      status: task.status,
      ...(task.summary === undefined ? {} : { summary: task.summary }),
      ...(task.error === undefined ? {} : { error: task.error }),
      ...(record.pendingAction === undefined ? {} : { pendingAction: record.pendingAction }),
      ...(record.pendingToolApproval === undefined ? {} : { pendingToolApproval: record.pendingToolApproval }),
      stepCount: task.stepCount,
      taskRef: task.taskId,
    };
  }
}

/** `outcome` as the gateway takes it: a rejection's reason cut to its bound. */
function boundedOutcome(outcome: ToolCallOutcome): ToolCallOutcome {
  return outcome.outcome === 'rejected' ? { outcome: 'rejected', reason: boundedReason(outcome.reason) } : outcome;
}

/** Resolves after `ms`, or at once when `signal` fires. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
