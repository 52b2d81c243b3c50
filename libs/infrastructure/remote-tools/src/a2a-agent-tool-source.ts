import { randomUUID } from 'node:crypto';
import {
  TOOL_SOURCE_ID_PATTERN,
  sanitizeToolName,
  toolEligibility,
  toolFailure,
  type ToolDescriptor,
  type ToolInputSchema,
  type ToolInvocationContext,
  type ToolInvocationResult,
  type ToolKind,
} from '@mobileclaw/domain';
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory, Role, TaskState, type AgentCard, type AgentSkill, type Client, type StreamResponse } from './a2a-sdk';
import { delegationInstruction, delegationResult, partsText, type DelegationRecord } from './a2a-delegation';
import { ResponseTooLargeError, bearerFetch, boundedFetch, credentialsRefusal, refusalFetch } from './bounded-fetch';
import { CallDeadline } from './call-deadline';
import { PolledToolSource } from './polled-tool-source';
import { errorMessage, publicUrl, redactSecret } from './redaction';
import { anyObjectSchema } from './tool-catalog';

/** Defaults of {@link A2aAgentToolSourceOptions}. */
export const A2A_AGENT_TOOL_DEFAULTS = {
  refreshIntervalMs: 60_000,
  cardTimeoutMs: 10_000,
  /** A delegated call waits at most this long, in ms, whatever the caller's deadline. */
  maxDeadlineMs: 120_000,
  /** How long cancelling a remote task may take after a deadline or an abort, in ms. */
  cancelTimeoutMs: 5_000,
  /** 1 MiB per HTTP answer (an agent card, a task with its history, a whole event stream). */
  maxResponseBytes: 1024 * 1024,
} as const;

/** Tags of an agent skill that mark it read-only (`OBSERVATION`); any other skill is an `ACTION`. */
export const READ_ONLY_SKILL_TAGS = ['read-only', 'readonly', 'observation'] as const;

const TERMINAL_STATES = new Set<number>([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_REJECTED]);
/** States in which the remote waits for us: a delegation cannot answer them, so they end it. */
const WAITING_STATES = new Set<number>([TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED]);

/** Which remote agent an {@link A2aAgentToolSource} delegates to, and how. */
export interface A2aAgentToolSourceOptions {
  /** The source id in `agent:<id>`: 1–32 of `[A-Za-z0-9_-]`. */
  id: string;
  /** The agent's base URL; its card is read from `<agentUrl>/.well-known/agent-card.json`. Absolute http(s). */
  agentUrl: string;
  /** Sent as `Authorization: Bearer <token>` on every request; never shown in errors, `location` or status. */
  token?: string;
  /**
   * Input schemas by skill id: A2A skills declare none, so a skill's tool takes any object
   * (`{type: 'object', properties: {}, additionalProperties: true}`) unless given here.
   */
  inputSchemas?: Readonly<Record<string, ToolInputSchema>>;
  /** How often the card is read again after `start()`, in ms; 0: only on `refresh()`. Default 60,000. */
  refreshIntervalMs?: number;
  /** Longest wait for the card, in ms; default 10,000. */
  cardTimeoutMs?: number;
  /** A call's deadline is cut to this, in ms; default 120,000. */
  maxDeadlineMs?: number;
  /** Longest wait for the remote to take a cancellation, in ms; default 5,000. */
  cancelTimeoutMs?: number;
  /** Largest HTTP answer read, in bytes; default 1 MiB. */
  maxResponseBytes?: number;
  /** The `fetch` used (Node's by default). */
  fetch?: typeof fetch;
}

/**
 * A remote A2A agent as a {@link ToolSource} of execution mode `AGENT_SESSION` (source kind `agent`):
 * each skill of its agent card is a tool, delegated to the agent through `@a2a-js/sdk`'s client.
 *
 * Listing: the card is read on the first `list()`, on `refresh()` and every `refreshIntervalMs` after
 * `start()`; a skill becomes a tool named by its sanitised `id` (the id kept as `originalName`), its
 * `description` (else its name), kind `OBSERVATION` when tagged one of {@link READ_ONLY_SKILL_TAGS}
 * (else `ACTION`), its schema from `inputSchemas` (else any object). While the card cannot be read, the
 * last skills stay listed unavailable.
 *
 * Calling (one delegation): a new message in a new `contextId` of its own — concurrent delegations never
 * share one — with the instruction to call the skill's tool with the JSON arguments
 * ({@link delegationInstruction}), a data part `{tool, arguments}` and metadata `{toolCallId, tool}`;
 * then the task's events until a terminal state, at most `min(deadlineMs, maxDeadlineMs)`. On the
 * deadline or the caller's abort the remote task is cancelled (found by its context when the stream
 * had not named it yet). A completed task is read once more (`GetTask`) for its history and artifacts,
 * and answered by {@link delegationResult}: never an empty success, `verified: false` when the reply
 * shows no tool call.
 *
 * `invoke` failures: `TOOL_NOT_FOUND`; `ABORTED`; `TIMEOUT`; `TOOL_UNAVAILABLE` (card unreadable at
 * the last refresh, agent unreachable, credentials refused); `TOOL_FAILED` (the task failed, was rejected or canceled by the
 * agent, asked for input, or the agent refused the request); `TOOL_BAD_RESPONSE` (the task ended with
 * no answer, or the stream ended before the task did); `PAYLOAD_TOO_LARGE`.
 */
export class A2aAgentToolSource extends PolledToolSource {
  private readonly agentUrl: string;
  private readonly token: string | undefined;
  private readonly inputSchemas: Readonly<Record<string, ToolInputSchema>>;
  private readonly limits: { cardTimeoutMs: number; maxDeadlineMs: number; cancelTimeoutMs: number };
  private readonly fetch: typeof fetch;
  private client: Client | undefined;

  /** @throws Error when `id` does not match `TOOL_SOURCE_ID_PATTERN` or `agentUrl` is not absolute http(s) */
  constructor(options: A2aAgentToolSourceOptions) {
    if (!TOOL_SOURCE_ID_PATTERN.test(options.id)) throw new Error(`agent source id ${JSON.stringify(options.id)} must be 1–32 of [A-Za-z0-9_-]`);
    super({ kind: 'agent', id: options.id }, options.refreshIntervalMs ?? A2A_AGENT_TOOL_DEFAULTS.refreshIntervalMs);
    let url: URL;
    try {
      url = new URL(options.agentUrl);
    } catch {
      throw new Error('agentUrl must be an absolute http(s) URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`agentUrl must be an absolute http(s) URL, not ${url.protocol}`);
    this.agentUrl = options.agentUrl.replace(/\/+$/, '');
    this.token = options.token === '' ? undefined : options.token;
    this.inputSchemas = options.inputSchemas ?? {};
    this.limits = {
      cardTimeoutMs: options.cardTimeoutMs ?? A2A_AGENT_TOOL_DEFAULTS.cardTimeoutMs,
      maxDeadlineMs: options.maxDeadlineMs ?? A2A_AGENT_TOOL_DEFAULTS.maxDeadlineMs,
      cancelTimeoutMs: options.cancelTimeoutMs ?? A2A_AGENT_TOOL_DEFAULTS.cancelTimeoutMs,
    };
    this.fetch = refusalFetch(boundedFetch(options.maxResponseBytes ?? A2A_AGENT_TOOL_DEFAULTS.maxResponseBytes, bearerFetch(this.token, options.fetch ?? fetch)));
  }

  protected override describeSource(): string {
    return `agent ${this.ref.id} (${publicUrl(this.agentUrl)})`;
  }

  protected async readTools(): Promise<ToolDescriptor[]> {
    const where = publicUrl(this.agentUrl);
    const cardTimeoutMs = this.limits.cardTimeoutMs;
    const base = this.fetch;
    const timedFetch: typeof fetch = (input, init) => base(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(cardTimeoutMs) });
    let card: AgentCard;
    let client: Client;
    try {
      const resolver = new DefaultAgentCardResolver({ fetchImpl: timedFetch });
      card = await resolver.resolve(this.agentUrl);
      const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl: this.fetch }), new RestTransportFactory({ fetchImpl: this.fetch })], cardResolver: resolver });
      client = await factory.createFromAgentCard(card);
    } catch (err) {
      throw new Error(this.redact(`the agent card of ${where} could not be read: ${errorMessage(err)}`));
    }
    const tools: ToolDescriptor[] = [];
    for (const skill of card.skills) {
      const name = sanitizeToolName(skill.id);
      if (tools.some((tool) => tool.name === name)) continue;
      tools.push({
        name,
        ...(name === skill.id ? {} : { originalName: skill.id }),
        description: skillDescription(skill, card.name),
        inputSchema: structuredClone(this.inputSchemas[skill.id] ?? anyObjectSchema()),
        kind: skillKind(skill),
        mode: 'AGENT_SESSION',
        source: { ...this.ref },
        location: where,
        eligibility: toolEligibility(),
        available: true,
      });
    }
    this.client = client;
    return tools;
  }

  protected async call(tool: ToolDescriptor, args: Record<string, unknown>, context: ToolInvocationContext): Promise<ToolInvocationResult> {
    const client = this.client;
    if (client === undefined) return toolFailure('TOOL_UNAVAILABLE', `${tool.name} is unavailable: the agent card was never read`);
    const remoteName = tool.originalName ?? tool.name;
    const contextId = randomUUID();
    const record: DelegationRecord = { tool: remoteName, streamedArtifacts: [] };
    const run: { taskId?: string; state?: number } = {};
    const deadline = new CallDeadline(context, this.limits.maxDeadlineMs);
    try {
      try {
        const request = {
          tenant: '',
          message: {
            messageId: randomUUID(),
            contextId,
            taskId: '',
            role: Role.ROLE_USER,
            parts: [
              { content: { $case: 'text' as const, value: delegationInstruction(remoteName, args) }, metadata: undefined, filename: '', mediaType: 'text/plain' },
              { content: { $case: 'data' as const, value: { tool: remoteName, arguments: args } }, metadata: undefined, filename: '', mediaType: 'application/json' },
            ],
            metadata: { toolCallId: context.toolCallId, tool: remoteName },
            extensions: [],
            referenceTaskIds: [],
          },
          configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: false },
          metadata: undefined,
        };
        for await (const event of client.sendMessageStream(request, { signal: deadline.signal })) {
          if (absorb(event, record, run)) break;
        }
      } catch (err) {
        const interrupted = deadline.interruption(`the delegation of ${tool.name} to agent ${this.ref.id}`);
        if (interrupted) return await this.cancelRemote(client, contextId, run.taskId, interrupted);
        if (err instanceof ResponseTooLargeError) return await this.cancelRemote(client, contextId, run.taskId, toolFailure('PAYLOAD_TOO_LARGE', `an answer of agent ${this.ref.id} to ${tool.name} exceeds ${err.limitBytes} bytes`));
        return this.requestFailure(tool.name, err);
      }
      const interrupted = deadline.interruption(`the delegation of ${tool.name} to agent ${this.ref.id}`);
      if (interrupted) return await this.cancelRemote(client, contextId, run.taskId, interrupted);
      return await this.conclude(client, tool.name, record, run, deadline);
    } finally {
      deadline.dispose();
    }
  }

  /** The result once the stream ended: a direct reply, or the task's terminal (or waiting) state. */
  private async conclude(client: Client, name: string, record: DelegationRecord, run: { taskId?: string; state?: number }, deadline: CallDeadline): Promise<ToolInvocationResult> {
    if (run.taskId === undefined) {
      return record.final ? delegationResult(record, name) : toolFailure('TOOL_BAD_RESPONSE', `agent ${this.ref.id} ended the stream for ${name} with neither a task nor a message`);
    }
    if (run.state !== undefined && WAITING_STATES.has(run.state)) {
      const asked = this.quote(partsText(record.final?.parts ?? []));
      return this.cancelRemote(client, '', run.taskId, toolFailure('TOOL_FAILED', `agent ${this.ref.id} asked for input instead of calling ${name}${asked === '' ? '' : `: ${asked}`}`));
    }
    if (run.state === undefined || !TERMINAL_STATES.has(run.state)) {
      return this.cancelRemote(client, '', run.taskId, toolFailure('TOOL_BAD_RESPONSE', `agent ${this.ref.id} ended the stream for ${name} before the task ended`));
    }
    try {
      record.task = await client.getTask({ tenant: '', id: run.taskId }, { signal: deadline.signal });
    } catch {
      // The streamed snapshot stands in: the task's own copy only adds history the stream may not have carried.
    }
    const said = this.quote(partsText(record.final?.parts ?? []));
    const because = said === '' ? '' : `: ${said}`;
    switch (run.state) {
      case TaskState.TASK_STATE_COMPLETED:
        return delegationResult(record, name);
      case TaskState.TASK_STATE_CANCELED:
        return toolFailure('TOOL_FAILED', `agent ${this.ref.id} canceled the task for ${name}${because}`);
      case TaskState.TASK_STATE_REJECTED:
        return toolFailure('TOOL_FAILED', `agent ${this.ref.id} rejected ${name}${because}`);
      default:
        return toolFailure('TOOL_FAILED', `agent ${this.ref.id} failed ${name}${because}`);
    }
  }

  /**
   * Cancels the delegation's remote task (found by its context when its id is not known yet), best
   * effort within `cancelTimeoutMs`, then answers `result`.
   */
  private async cancelRemote(client: Client, contextId: string, taskId: string | undefined, result: ToolInvocationResult): Promise<ToolInvocationResult> {
    const signal = AbortSignal.timeout(this.limits.cancelTimeoutMs);
    try {
      let id = taskId;
      if (id === undefined && contextId !== '') {
        const found = await client.listTasks({ tenant: '', contextId, status: TaskState.TASK_STATE_UNSPECIFIED, pageToken: '', statusTimestampAfter: undefined }, { signal });
        id = found.tasks[0]?.id;
      }
      if (id !== undefined) await client.cancelTask({ tenant: '', id, metadata: undefined }, { signal });
    } catch {
      // Best effort: the task may have ended on its own meanwhile, or the agent be gone; the caller's answer stands.
    }
    return result;
  }

  private requestFailure(name: string, err: unknown): ToolInvocationResult {
    const refusal = credentialsRefusal(err);
    if (refusal) return toolFailure('TOOL_UNAVAILABLE', `agent ${this.ref.id} refused the credentials for ${name} (HTTP ${refusal.status})`);
    const message = this.redact(errorMessage(err));
    // fetch's own failure (a TypeError, from another realm under some runners): the agent was not reached.
    if ((err as { name?: unknown }).name === 'TypeError') return toolFailure('TOOL_UNAVAILABLE', `agent ${this.ref.id} (${publicUrl(this.agentUrl)}) could not be reached for ${name}: ${message}`);
    return toolFailure('TOOL_FAILED', `agent ${this.ref.id} refused the delegation of ${name}: ${message}`);
  }

  private redact(text: string): string {
    return redactSecret(text, this.token);
  }

  /** The agent's own words for a failure message: redacted, on one line, cut to 500 characters. */
  private quote(text: string): string {
    const flat = this.redact(text).replace(/\s+/g, ' ').trim();
    return flat.length > QUOTE_CHARS ? `${flat.slice(0, QUOTE_CHARS)}…` : flat;
  }
}

/** Longest piece of the agent's words quoted in a failure message, in characters. */
const QUOTE_CHARS = 500;

/** Takes one stream event into the record; true when the delegation's stream has said all it will (a reply, a terminal or waiting state). */
function absorb(event: StreamResponse, record: DelegationRecord, run: { taskId?: string; state?: number }): boolean {
  const payload = event.payload;
  switch (payload?.$case) {
    case 'message':
      record.final = payload.value;
      return run.taskId === undefined;
    case 'task':
      record.task = payload.value;
      run.taskId = payload.value.id;
      return settle(run, payload.value.status?.state, payload.value.status?.message, record);
    case 'statusUpdate':
      run.taskId ??= payload.value.taskId;
      return settle(run, payload.value.status?.state, payload.value.status?.message, record);
    case 'artifactUpdate': {
      const artifact = payload.value.artifact;
      if (artifact === undefined) return false;
      const earlier = record.streamedArtifacts.find((known) => known.artifactId === artifact.artifactId);
      if (earlier && payload.value.append) earlier.parts.push(...artifact.parts);
      else record.streamedArtifacts.push(structuredClone(artifact));
      return false;
    }
    default:
      return false;
  }
}

function settle(run: { state?: number }, state: number | undefined, message: DelegationRecord['final'], record: DelegationRecord): boolean {
  if (state === undefined) return false;
  run.state = state;
  const ends = TERMINAL_STATES.has(state) || WAITING_STATES.has(state);
  if (ends) record.final = message;
  return ends;
}

function skillDescription(skill: AgentSkill, agentName: string): string {
  if (skill.description.trim() !== '') return skill.description;
  return skill.name.trim() !== '' ? `${skill.name} (agent ${agentName})` : `Skill ${skill.id} of agent ${agentName}.`;
}

function skillKind(skill: AgentSkill): ToolKind {
  return skill.tags.some((tag) => (READ_ONLY_SKILL_TAGS as readonly string[]).includes(tag.toLowerCase())) ? 'OBSERVATION' : 'ACTION';
}
