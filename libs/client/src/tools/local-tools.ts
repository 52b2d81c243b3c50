import type { ValidateFunction } from 'ajv';
import { jsonResultRefusal } from './json-result';
import { boundedReason } from './rejection-reason';
import { InMemoryToolCallStore, ToolCallStore } from './tool-call-store';
import { ToolRegistrationError } from './tool-errors';
import { visibilityRefusal } from './tool-policy';
import { describeArgumentErrors, ToolSchemas } from './tool-schema';
import type {
  JsonValue,
  LocalTool,
  ToolApprovalDecision,
  ToolApprovalHandler,
  ToolCallGuard,
  ToolCallOutcome,
  ToolCallRecord,
  ToolCallRequest,
  ToolPolicy,
  ToolSpec,
} from './tool-types';

/** Hooks the invocation gives the pipeline for one call. */
export interface ToolCallHooks {
  /** Policies in force: the conversation's and the invocation's (intersected). */
  conversationPolicy?: ToolPolicy;
  invocationPolicy?: ToolPolicy;
  /** The approval handler in force (the invocation's, else the client's); absent → ACTION tools are rejected. */
  approve?: ToolApprovalHandler;
  /** Told when an ACTION tool waits for the approval handler (the stream shows it). */
  onConfirmationRequired?(request: ToolCallRequest & { kind: 'ACTION'; description: string }): void;
  /** Fires when the invocation is canceled. */
  signal: AbortSignal;
}

/** How {@link LocalTools} keeps and checks calls. */
export interface LocalToolsOptions {
  /** Where each answered `toolCallId` is recorded (at most once per id). Default: in memory — pass a `FileToolCallStore` to survive restarts. */
  store?: ToolCallStore;
  /** The app's policy guard, run after validation and before approval; absent → every valid call passes. */
  guard?: ToolCallGuard;
}

/** The answer to a call whose record a crash left `running`: it may have had effects, so it is never run again. */
export const INTERRUPTED_REASON = 'interrupted before it finished; not run again';

interface RegisteredTool {
  tool: LocalTool;
  spec: ToolSpec;
  validate: ValidateFunction;
}

/** A refusal inside the pipeline: the tool does not run, the call is answered `rejected` with `reason`. */
class Refusal {
  constructor(readonly reason: string) {}
}

/**
 * The app's registered local tools and the pipeline one delivered call goes through:
 * visibility → resolve → validate → policy guard → approval → execute → record.
 *
 * - visibility: the name must be allowed by both the conversation's and the invocation's policy
 *   (the hooks'); an absent policy allows nothing.
 * - resolve: the name must be registered.
 * - validate: the arguments must match the tool's input schema (ajv; the reason lists each error
 *   with its place, e.g. `arguments/orderId must be string`).
 * - policy guard: the app's {@link LocalToolsOptions.guard}, when set.
 * - approval: an `ACTION` tool (unless registered with `requiresApproval: false`) runs only when the
 *   hooks' approval handler approves; `onConfirmationRequired` is told first. `OBSERVATION` tools run directly.
 * - execute: the tool's `execute` with the validated arguments and the invocation's abort signal; its
 *   value must be JSON (≤ 64 KiB serialised).
 * - record: every outcome, refusals included, is stored under the `toolCallId`; a later delivery of
 *   that id gets the stored outcome and runs nothing — once it passed visibility and resolve again, and
 *   only when it names the tool the record was made for (else it is rejected: a record is never
 *   answered to a conversation that does not expose its tool).
 *
 * Every rejection reason is at most 2,000 characters (the gateway's bound; longer ones are cut, `…`).
 *
 * At most once per `toolCallId`: concurrent deliveries within this instance share one run; a
 * delivery finding a `done` record answers its outcome; one finding a `running` record that this
 * instance is not running (a crash mid-execution) answers `rejected` {@link INTERRUPTED_REASON}.
 * Hence one `LocalTools` per store per process.
 */
export class LocalTools {
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly schemas = new ToolSchemas();
  private readonly store: ToolCallStore;
  private readonly guard: ToolCallGuard | undefined;
  /** Calls being handled now, by `toolCallId`: a second delivery awaits the first's outcome. */
  private readonly inFlight = new Map<string, Promise<ToolCallOutcome>>();

  constructor(options: LocalToolsOptions = {}) {
    this.store = options.store ?? new InMemoryToolCallStore();
    this.guard = options.guard;
  }

  /**
   * Registers a tool; registering exposes nothing (a policy does). The input schema is compiled now,
   * so a bad one fails here and not at the first call.
   * @throws ToolRegistrationError `TOOL_SPEC_INVALID` (name not 1–64 of `A-Z a-z 0-9 _ -`, description not 1–1,024
   * characters, kind not OBSERVATION/ACTION, inputSchema not a compilable JSON Schema with `"type": "object"` of
   * at most 16 KiB, execute not a function) or `TOOL_NAME_TAKEN` (a tool of that name is registered, also one
   * differing only in case: the gateway refuses such specs side by side).
   */
  register(tool: LocalTool): void {
    const { validate, inputSchema } = this.schemas.compile(tool);
    if (typeof tool.execute !== 'function') throw new ToolRegistrationError('TOOL_SPEC_INVALID', `tool ${tool.name}: execute must be a function`);
    if (this.tools.has(tool.name)) throw new ToolRegistrationError('TOOL_NAME_TAKEN', `a tool named ${tool.name} is already registered`);
    const sameIgnoringCase = [...this.tools.keys()].find((name) => name.toLowerCase() === tool.name.toLowerCase());
    if (sameIgnoringCase) throw new ToolRegistrationError('TOOL_NAME_TAKEN', `a tool named ${sameIgnoringCase} is already registered (names differing only in case are refused)`);
    const spec: ToolSpec = { name: tool.name, description: tool.description, inputSchema, kind: tool.kind };
    this.tools.set(tool.name, { tool, spec, validate });
  }

  /** The registered tools' specs, in registration order (whether exposed or not). */
  registeredSpecs(): ToolSpec[] {
    return [...this.tools.values()].map(({ spec }) => structuredClone(spec));
  }

  /**
   * Specs of the registered tools both policies expose, in registration order: what the invocation
   * sends as `tools` (the gateway accepts at most 64, and refuses names its planner reserves).
   */
  exposedSpecs(conversationPolicy: ToolPolicy | undefined, invocationPolicy: ToolPolicy | undefined): ToolSpec[] {
    return [...this.tools.values()]
      .filter(({ spec }) => visibilityRefusal(spec.name, conversationPolicy, invocationPolicy) === undefined)
      .map(({ spec }) => structuredClone(spec));
  }

  /** The stored record of a call, or undefined when this store never saw it. @throws ToolCallStoreError when the record is damaged. */
  record(toolCallId: string): Promise<ToolCallRecord | undefined> {
    return this.store.get(toolCallId);
  }

  /**
   * Runs one delivered call through the pipeline and answers what the gateway is told; never throws
   * (any refusal, failure or cancellation is a `rejected` outcome with a precise reason).
   */
  handle(call: ToolCallRequest, hooks: ToolCallHooks): Promise<ToolCallOutcome> {
    if (typeof call?.toolCallId !== 'string' || call.toolCallId === '') return Promise.resolve(rejected('the tool call has no toolCallId, so it is not run'));
    const running = this.inFlight.get(call.toolCallId);
    if (running) return running;
    const handling = this.run(call, hooks).catch((err: unknown): ToolCallOutcome => rejected(`the tool call failed inside the client: ${messageOf(err)}`));
    this.inFlight.set(call.toolCallId, handling);
    void handling.finally(() => this.inFlight.delete(call.toolCallId));
    return handling;
  }

  private async run(call: ToolCallRequest, hooks: ToolCallHooks): Promise<ToolCallOutcome> {
    // Visibility and resolve come before any replay: a recorded outcome is answered only where its tool is exposed.
    let registered: RegisteredTool | undefined;
    let hidden: Refusal | undefined;
    try {
      registered = this.resolveVisible(call, hooks);
    } catch (err) {
      if (!(err instanceof Refusal)) throw err;
      hidden = err;
    }
    let previous: ToolCallRecord | undefined;
    try {
      previous = await this.store.get(call.toolCallId);
    } catch (err) {
      return rejected(`the record of this tool call cannot be read, so it is not run: ${messageOf(err)}`);
    }
    if (previous) return hidden ? rejected(hidden.reason) : replay(previous, call);
    if (hidden || !registered) return this.recordRefusal(call, rejected(hidden?.reason ?? `tool ${call.name} is not registered in this client`));

    let approved: RegisteredTool;
    try {
      approved = await this.admit(call, registered, hooks);
    } catch (err) {
      if (!(err instanceof Refusal)) throw err;
      return this.recordRefusal(call, rejected(err.reason));
    }

    let claim: 'started' | ToolCallRecord;
    try {
      claim = await this.store.begin(call.toolCallId, call.name);
    } catch (err) {
      return rejected(`the tool call cannot be recorded, so it is not run: ${messageOf(err)}`);
    }
    if (claim !== 'started') return replay(claim, call);

    const outcome = await this.execute(approved, call, hooks.signal);
    try {
      await this.store.finish(call.toolCallId, outcome);
    } catch {
      // The tool ran: its outcome is answered. Its record stays `running`, so a later delivery is
      // answered as interrupted rather than run again.
    }
    return outcome;
  }

  /** Visibility and resolve: the tool both policies expose, registered here. @throws Refusal */
  private resolveVisible(call: ToolCallRequest, hooks: ToolCallHooks): RegisteredTool {
    const hidden = visibilityRefusal(call.name, hooks.conversationPolicy, hooks.invocationPolicy);
    if (hidden) throw new Refusal(hidden);
    const registered = this.tools.get(call.name);
    if (!registered) throw new Refusal(`tool ${call.name} is not registered in this client`);
    return registered;
  }

  /** Validate, guard and approval of a visible, registered tool; answers the tool to run. @throws Refusal */
  private async admit(call: ToolCallRequest, registered: RegisteredTool, hooks: ToolCallHooks): Promise<RegisteredTool> {
    if (hooks.signal.aborted) throw new Refusal('the invocation was canceled before the tool ran');
    if (!registered.validate(call.arguments)) {
      throw new Refusal(`tool ${call.name}: the arguments do not match its input schema: ${describeArgumentErrors(registered.validate.errors)}`);
    }
    await this.checkGuard(call, registered.spec);
    if (registered.spec.kind === 'ACTION' && registered.tool.requiresApproval !== false) await this.obtainApproval(call, registered.spec, hooks);
    if (hooks.signal.aborted) throw new Refusal('the invocation was canceled before the tool ran');
    return registered;
  }

  private async checkGuard(call: ToolCallRequest, spec: ToolSpec): Promise<void> {
    if (!this.guard) return;
    let decision: Awaited<ReturnType<ToolCallGuard>>;
    try {
      decision = await this.guard(structuredClone(call), structuredClone(spec));
    } catch (err) {
      throw new Refusal(`tool ${call.name}: the policy guard failed: ${messageOf(err)}`);
    }
    if (decision?.allowed === true) return;
    const reason = decision?.allowed === false && decision.reason ? decision.reason : 'no reason given';
    throw new Refusal(`tool ${call.name}: refused by the policy guard: ${reason}`);
  }

  private async obtainApproval(call: ToolCallRequest, spec: ToolSpec, hooks: ToolCallHooks): Promise<void> {
    if (!hooks.approve) throw new Refusal(`tool ${call.name} needs approval but no approval handler is set`);
    const request = { ...structuredClone(call), kind: 'ACTION' as const, description: spec.description };
    try {
      hooks.onConfirmationRequired?.(request);
    } catch {
      // Only a notice to the stream: its failure does not decide the call; the approval handler does.
    }
    let decision: ToolApprovalDecision;
    try {
      decision = await untilAborted(Promise.resolve(hooks.approve(request)), hooks.signal);
    } catch (err) {
      if (err instanceof Refusal) throw new Refusal('the invocation was canceled while the tool waited for approval');
      throw new Refusal(`tool ${call.name}: the approval handler failed: ${messageOf(err)}`);
    }
    const approved = typeof decision === 'boolean' ? decision : decision?.approved === true;
    if (approved) return;
    const reason = typeof decision === 'object' && decision?.reason ? decision.reason : 'no reason given';
    throw new Refusal(`tool ${call.name} was not approved: ${reason}`);
  }

  private async execute({ tool }: RegisteredTool, call: ToolCallRequest, signal: AbortSignal): Promise<ToolCallOutcome> {
    const context = { toolCallId: call.toolCallId, invocationRef: call.invocationRef, conversationId: call.conversationId, signal };
    let value: unknown;
    try {
      value = await untilAborted(Promise.resolve().then(() => tool.execute(structuredClone(call.arguments), context)), signal);
    } catch (err) {
      if (err instanceof Refusal) return rejected(`tool ${call.name}: the invocation was canceled while the tool ran`);
      return rejected(`tool ${call.name} failed: ${messageOf(err)}`);
    }
    const notJson = jsonResultRefusal(value);
    if (notJson) return rejected(`tool ${call.name}: ${notJson}`);
    return { outcome: 'ok', result: value as JsonValue };
  }

  /** Records a refusal as the call's outcome; a concurrent claim's record wins when there is one. */
  private async recordRefusal(call: ToolCallRequest, refusal: ToolCallOutcome): Promise<ToolCallOutcome> {
    try {
      const claim = await this.store.begin(call.toolCallId, call.name);
      if (claim !== 'started') return replay(claim, call);
      await this.store.finish(call.toolCallId, refusal);
    } catch {
      // Unrecorded (or left `running`), a refusal is still the answer: the tool did not run.
    }
    return refusal;
  }
}

/** The recorded outcome for a delivery of the same call: only when it names the tool the record was made for. */
function replay(record: ToolCallRecord, call: ToolCallRequest): ToolCallOutcome {
  if (record.name !== call.name) return rejected(`toolCallId ${call.toolCallId} was recorded for another tool; not run`);
  if (record.state === 'done' && record.outcome) return record.outcome;
  return rejected(INTERRUPTED_REASON);
}

function rejected(reason: string): ToolCallOutcome {
  return { outcome: 'rejected', reason: boundedReason(reason) };
}

/** `work`'s value, or a {@link Refusal} as soon as `signal` fires (the work itself is told through the same signal). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Refusal('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Refusal('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
