/* eslint-disable @typescript-eslint/no-require-imports -- the SDK's CommonJS builds, as in ../a2a-sdk.ts */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentCard, AgentSkill, Message, Part } from '@a2a-js/sdk' with { 'resolution-mode': 'import' };
import type { AgentExecutor, ExecutionEventBus, RequestContext } from '@a2a-js/sdk/server' with { 'resolution-mode': 'import' };

type Core = typeof import('@a2a-js/sdk', { with: { 'resolution-mode': 'import' } });
type ServerModule = typeof import('@a2a-js/sdk/server', { with: { 'resolution-mode': 'import' } });
const { AgentCard: AgentCardCodec, Role, TaskState, formatSSEEvent } = require('@a2a-js/sdk') as Core;
const { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, JsonRpcTransportHandler, UnauthenticatedUser, defaultServerCallContextBuilder } = require('@a2a-js/sdk/server') as ServerModule;

/**
 * The skills of {@link A2aToolAgent}, each one way a remote agent answers a delegated tool call:
 * - `lookup_weather`: calls its tool — an artifact `{city, forecast, contextId}` — and says so in the final message;
 * - `history_only`: says the answer in a `working` status (so it lands in the task's history), lists
 *   the call in its metadata `toolCalls`, and completes with an empty final status;
 * - `artifact_only`: leaves a text artifact and completes with no message at all;
 * - `prose_only`: completes with a final message of prose and no sign of a tool;
 * - `silent`: completes with nothing anywhere;
 * - `fails`: fails, saying why;
 * - `asks`: stops in INPUT_REQUIRED asking a question;
 * - `never_ends`: works until cancelled (then reports `canceled`);
 * - `gathered`: waits until {@link A2aToolAgent.gather} executions have started, then answers `{contextId, args}` as data;
 * - `direct_reply`: answers with a message, no task.
 */
export const TOOL_AGENT_SKILLS = ['lookup_weather', 'history_only', 'artifact_only', 'prose_only', 'silent', 'fails', 'asks', 'never_ends', 'gathered', 'direct_reply'] as const;

/** One delegation the agent received. */
export interface ReceivedDelegation {
  taskId: string;
  contextId: string;
  tool: string;
  args: Record<string, unknown>;
  instruction: string;
  metadata: Record<string, unknown> | undefined;
}

/** A local A2A agent (the SDK's request handler over one AgentExecutor) for tests; see {@link TOOL_AGENT_SKILLS}. */
export class A2aToolAgent {
  readonly received: ReceivedDelegation[] = [];
  /** Task ids the agent was asked to cancel. */
  readonly canceled: string[] = [];
  /** How many `gathered` executions must have started before each answers. */
  gather = 1;
  /** The skills the card lists (a test may change them, then refresh the source). */
  skills: AgentSkill[] = TOOL_AGENT_SKILLS.map((id) => skill(id));
  private readonly server: Server;
  private readonly running = new Map<string, () => void>();
  private gathering: { count: number; release: () => void; released: Promise<void> };
  private neverEndsStarted!: () => void;
  /** Resolves when a `never_ends` execution has started. */
  readonly neverEndsRunning = new Promise<void>((resolve) => (this.neverEndsStarted = resolve));
  readonly baseUrl: string = '';

  private constructor(private readonly token: string) {
    this.gathering = this.newGathering();
    const executor: AgentExecutor = { execute: (context, bus) => this.execute(context, bus), cancelTask: (taskId, bus) => this.cancel(taskId, bus) };
    const handler = new DefaultRequestHandler(this.card(), new InMemoryTaskStore(), executor);
    const rpc = new JsonRpcTransportHandler(handler);
    this.server = createServer((req, res) => void this.serve(req, res, rpc));
  }

  /** Starts an agent on a free local port; `/a2a` needs `Authorization: Bearer <token>`, the card is public. */
  static async start(token: string): Promise<A2aToolAgent> {
    const agent = new A2aToolAgent(token);
    await new Promise<void>((resolve) => agent.server.listen(0, '127.0.0.1', resolve));
    (agent as { baseUrl: string }).baseUrl = `http://127.0.0.1:${(agent.server.address() as AddressInfo).port}`;
    return agent;
  }

  async close(): Promise<void> {
    for (const release of this.running.values()) release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private card(): AgentCard {
    const card = {
      name: 'Weather agent',
      description: 'Answers weather questions with its tools.',
      provider: undefined,
      version: '1.0.0',
      capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
      securitySchemes: {},
      securityRequirements: [],
      defaultInputModes: ['text/plain', 'application/json'],
      defaultOutputModes: ['text/plain', 'application/json'],
      signatures: [],
    } as unknown as AgentCard;
    // Getters, so that the card the handler holds follows `baseUrl` (known once listening) and `skills`.
    Object.defineProperty(card, 'supportedInterfaces', { enumerable: true, get: () => [{ url: `${this.baseUrl}/a2a`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }] });
    Object.defineProperty(card, 'skills', { enumerable: true, get: () => this.skills });
    return card;
  }

  private async serve(req: IncomingMessage, res: ServerResponse, rpc: InstanceType<ServerModule['JsonRpcTransportHandler']>): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method === 'GET' && req.url === '/.well-known/agent-card.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(AgentCardCodec.toJSON(this.card())));
      return;
    }
    if (req.method !== 'POST' || req.url !== '/a2a') return void res.writeHead(404).end();
    if (req.headers.authorization !== `Bearer ${this.token}`) return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad token"}');
    const version = req.headers['a2a-version'];
    const context = defaultServerCallContextBuilder({ extensions: undefined, user: new UnauthenticatedUser(), headers: req.headers, requestedVersion: typeof version === 'string' ? version : undefined });
    const answer = await rpc.handle(Buffer.concat(chunks).toString('utf8'), context);
    if (typeof (answer as AsyncGenerator)[Symbol.asyncIterator] !== 'function') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for await (const event of answer as AsyncGenerator<unknown>) res.write(formatSSEEvent(event));
    res.end();
  }

  private async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = context;
    const asked = askedCall(context.userMessage);
    this.received.push({ taskId, contextId, ...asked, metadata: context.userMessage.metadata });
    const status = (state: number, message?: Message) => bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: { state, message, timestamp: new Date().toISOString() }, metadata: undefined }));
    const say = (parts: Part[], metadata?: Record<string, unknown>): Message => ({ messageId: randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts, metadata, extensions: [], referenceTaskIds: [] });
    const artifact = (parts: Part[]) =>
      bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, artifact: { artifactId: randomUUID(), name: 'tool-result', description: '', parts, metadata: undefined, extensions: [] }, append: false, lastChunk: true, metadata: undefined }));
    if (asked.tool === 'direct_reply') {
      bus.publish(AgentEvent.message({ ...say([text('Direct answer.'), data({ answer: 7 })]), taskId: '' }));
      bus.finished();
      return;
    }
    bus.publish(AgentEvent.task({ id: taskId, contextId, status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: undefined }, artifacts: [], history: [context.userMessage], metadata: undefined }));
    const city = String(asked.args['city'] ?? 'nowhere');
    switch (asked.tool) {
      case 'lookup_weather':
        artifact([data({ city, forecast: 'sunny', contextId })]);
        status(TaskState.TASK_STATE_COMPLETED, say([text(`Sunny in ${city}.`)]));
        break;
      case 'history_only':
        status(TaskState.TASK_STATE_WORKING, say([text(`Rain expected in ${city}.`)], { toolCalls: [{ name: 'history_only' }] }));
        status(TaskState.TASK_STATE_COMPLETED);
        break;
      case 'artifact_only':
        artifact([text('42 umbrellas in stock')]);
        status(TaskState.TASK_STATE_COMPLETED);
        break;
      case 'prose_only':
        status(TaskState.TASK_STATE_COMPLETED, say([text(`It is probably sunny in ${city}, as usual this time of year.`)]));
        break;
      case 'silent':
        status(TaskState.TASK_STATE_COMPLETED, say([text('  ')]));
        break;
      case 'fails':
        status(TaskState.TASK_STATE_FAILED, say([text('the weather service is down')]));
        break;
      case 'asks':
        status(TaskState.TASK_STATE_INPUT_REQUIRED, say([text('Which country is that city in?')]));
        break;
      case 'never_ends':
        status(TaskState.TASK_STATE_WORKING, say([text('Looking…')]));
        this.neverEndsStarted();
        await new Promise<void>((resolve) => this.running.set(taskId, resolve));
        break;
      case 'gathered': {
        const gathering = this.gathering;
        if (++gathering.count >= this.gather) {
          this.gathering = this.newGathering();
          gathering.release();
        }
        await gathering.released;
        status(TaskState.TASK_STATE_COMPLETED, say([data({ contextId, args: asked.args })]));
        break;
      }
      default:
        status(TaskState.TASK_STATE_REJECTED, say([text(`no tool ${asked.tool}`)]));
    }
    bus.finished();
  }

  private async cancel(taskId: string, bus: ExecutionEventBus): Promise<void> {
    this.canceled.push(taskId);
    const task = this.received.find((delegation) => delegation.taskId === taskId);
    bus.publish(AgentEvent.statusUpdate({ taskId, contextId: task?.contextId ?? '', status: { state: TaskState.TASK_STATE_CANCELED, message: undefined, timestamp: new Date().toISOString() }, metadata: undefined }));
    this.running.get(taskId)?.();
    this.running.delete(taskId);
  }

  private newGathering(): { count: number; release: () => void; released: Promise<void> } {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    return { count: 0, release, released };
  }
}

function skill(id: string): AgentSkill {
  return { id, name: id.replace(/_/g, ' '), description: `Test skill ${id}.`, tags: id === 'lookup_weather' ? ['weather', 'read-only'] : ['test'], examples: [], inputModes: [], outputModes: [], securityRequirements: [] };
}

function text(value: string): Part {
  return { content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: 'text/plain' };
}

function data(value: unknown): Part {
  return { content: { $case: 'data', value }, metadata: undefined, filename: '', mediaType: 'application/json' };
}

function askedCall(message: Message): { tool: string; args: Record<string, unknown>; instruction: string } {
  const instruction = message.parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
  const call = message.parts.find((part) => part.content?.$case === 'data')?.content?.value as { tool?: string; arguments?: Record<string, unknown> } | undefined;
  return { tool: call?.tool ?? '', args: call?.arguments ?? {}, instruction };
}
