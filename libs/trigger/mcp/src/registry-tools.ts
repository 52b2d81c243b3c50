import { Inject, Injectable, Logger, Optional, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Subject, type Observable, type Subscription } from 'rxjs';
import { fromJsonSchema, type CallToolResult, type McpServer, type RegisteredTool, type ServerContext, type ToolAnnotations } from '@modelcontextprotocol/server';
import { ToolRegistry, type CallerToolEntry, type ToolCallResult } from '@mobileclaw/case-tools';
import { MobileClawError, toolSourceKey, type ToolContent } from '@mobileclaw/domain';
import { MCP_OPTIONS, type McpOptions } from './mcp.options';
import { ACCEPT_ALL } from './tool-arguments';
import { toolError, toolResult, type NextSteps } from './tool-results';

/** The caller id of the MCP face in the registry's tool policies. */
export const MCP_TOOL_CALLER = 'mcp';

/**
 * What a model can do about a registry tool's failure: the face's default next step for
 * `APPROVAL_REQUIRED` (call again with `approved: true`) does not apply, registry tools take no such argument.
 */
const REGISTRY_NEXT_STEPS: NextSteps = {
  APPROVAL_REQUIRED: 'A person must approve each call of this tool; this MCP face cannot ask for it. Tell the user; they may call it over REST with approved: true, or allow it for the mcp caller in the tool policy.',
};

/**
 * The registry's tools the MCP face serves: those the `mcp` caller's policy allows
 * (`ToolRegistry.listFor('mcp')`), except tools of `native` sources (the face has its own, richer phone
 * tools). Kept as a snapshot so that a server instance is built synchronously: read at start-up and
 * again on each of the registry's changes; {@link updated$} emits after a change of what the face serves.
 * Without a `ToolRegistry` provider it serves nothing and never emits.
 */
@Injectable()
export class McpRegistryTools implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('McpRegistryTools');
  private readonly updates = new Subject<void>();
  private readonly collisions = new Set<string>();
  private subscription?: Subscription;
  private snapshot: CallerToolEntry[] = [];
  private refreshing: Promise<void> = Promise.resolve();

  /** Emits once the snapshot changed: servers re-register their registry tools and tell their clients. */
  readonly updated$: Observable<void> = this.updates.asObservable();

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: McpOptions,
    @Optional() private readonly registry?: ToolRegistry,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.registry) return;
    this.subscription = this.registry.changes$.subscribe(() => void this.refresh());
    await this.refresh();
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
    this.updates.complete();
  }

  /** The tools served now, sorted by name. */
  get tools(): readonly CallerToolEntry[] {
    return this.snapshot;
  }

  /** Reads the registry's view for `mcp` again; resolves once the snapshot (and {@link updated$}) is up to date. */
  refresh(): Promise<void> {
    const registry = this.registry;
    if (!registry) return Promise.resolve();
    // One after the other, so that the last change read is the last snapshot kept.
    this.refreshing = this.refreshing.then(async () => {
      const tools = (await registry.listFor(MCP_TOOL_CALLER).catch(() => this.snapshot)).filter((tool) => tool.source.kind !== 'native');
      if (JSON.stringify(tools) === JSON.stringify(this.snapshot)) return;
      this.snapshot = tools;
      this.updates.next();
    });
    return this.refreshing;
  }

  /**
   * Registers `tool` on `server` unless the face already serves a tool of that name (or reserves it:
   * `reserved`), which wins: the registry tool is skipped and the collision logged once per name.
   * @returns the registered tool, or undefined when skipped.
   */
  register(server: McpServer, tool: CallerToolEntry, reserved: ReadonlySet<string>): RegisteredTool | undefined {
    if (reserved.has(tool.exposedName)) return this.skip(tool);
    try {
      return server.registerTool(tool.exposedName, this.config(tool), (args: unknown, ctx: ServerContext) => this.call(tool.exposedName, args, ctx));
    } catch {
      // McpServer refuses a second tool of one name before changing anything: the face's tool keeps it.
      return this.skip(tool);
    }
  }

  /** Calls the registry as the `mcp` caller, with the request's signal and the configured deadline. */
  private async call(name: string, args: unknown, ctx: ServerContext): Promise<CallToolResult> {
    const registry = this.registry as ToolRegistry;
    const argumentsObject = (args ?? {}) as Record<string, unknown>;
    try {
      const result = await registry.invoke(name, argumentsObject, { caller: MCP_TOOL_CALLER, signal: ctx.mcpReq.signal, deadlineMs: this.options.registryToolDeadlineMs });
      return registryToolResult(result);
    } catch (err) {
      return toolError(err);
    }
  }

  private config(tool: CallerToolEntry): { title: string; description: string; inputSchema: ReturnType<typeof fromJsonSchema<unknown>>; annotations: ToolAnnotations } {
    const ineligible = tool.eligibility.eligible ? '' : ` May fail: it lacks ${tool.eligibility.missing.join(', ')}.`;
    const unavailable = tool.available ? '' : ' Unavailable right now.';
    return {
      title: tool.exposedName,
      description: `${tool.description}${ineligible}${unavailable}`,
      // The registry checks the arguments against this very schema (ajv) and answers VALIDATION_FAILED as a tool result.
      inputSchema: fromJsonSchema<unknown>(structuredClone(tool.inputSchema) as Parameters<typeof fromJsonSchema>[0], ACCEPT_ALL),
      annotations: tool.kind === 'OBSERVATION' ? { readOnlyHint: true, destructiveHint: false } : { readOnlyHint: false, destructiveHint: true },
    };
  }

  private skip(tool: CallerToolEntry): undefined {
    if (!this.collisions.has(tool.exposedName)) {
      this.collisions.add(tool.exposedName);
      this.logger.warn(`registry tool ${tool.exposedName} (${toolSourceKey(tool.source)}) is not served on MCP: the MCP face has a tool of that name`);
    }
    return undefined;
  }
}

/**
 * The registry tools of one server instance, kept in step with {@link McpRegistryTools}: registered at
 * once and, for a server that outlives a request (a 2025 session), re-registered on every change —
 * removed, added, updated — so that the SDK sends `notifications/tools/list_changed` to its client.
 * @returns what stops following the changes.
 */
export function serveRegistryTools(server: McpServer, tools: McpRegistryTools, reserved: ReadonlySet<string>, follow: boolean): () => void {
  const registered = new Map<string, { tool: RegisteredTool; json: string }>();
  const sync = (): void => {
    const wanted = new Map(tools.tools.map((tool) => [tool.exposedName, tool]));
    for (const [name, entry] of registered) {
      const tool = wanted.get(name);
      if (tool && JSON.stringify(tool) === entry.json) continue;
      entry.tool.remove();
      registered.delete(name);
    }
    for (const [name, tool] of wanted) {
      if (registered.has(name)) continue;
      const added = tools.register(server, tool, reserved);
      if (added) registered.set(name, { tool: added, json: JSON.stringify(tool) });
    }
  };
  sync();
  if (!follow) return () => undefined;
  const subscription = tools.updated$.subscribe(sync);
  return () => subscription.unsubscribe();
}

/**
 * A registry call's result as an MCP tool result: a success's text (with a note when a delegated
 * answer shows no tool call, `verified: false`) and its content as structured content (an object as
 * is, anything else as `{result}`); a failure as the face's other failures (`isError`,
 * `structuredContent.error` with the catalog code).
 */
export function registryToolResult(result: ToolCallResult): CallToolResult {
  if (!result.ok) return toolError(new MobileClawError(result.error.code, result.error.message), REGISTRY_NEXT_STEPS);
  const unverified = result.verified === false ? '\n(Unverified: the answer shows no sign that the tool itself was called.)' : '';
  return toolResult(`${result.text}${unverified}`, isObject(result.content) ? result.content : { result: result.content });
}

function isObject(content: ToolContent): content is { [key: string]: ToolContent } {
  return typeof content === 'object' && content !== null && !Array.isArray(content);
}
