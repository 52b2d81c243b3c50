import { Inject, Injectable, Logger, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { ControlLeases, MobileClawService, ScreenImageEncoder, TaskRepository, ToolCallLedger, ToolSource, type ToolSourceRef } from '@mobileclaw/domain';
import { GatewayToolSource, NativePhoneToolSource, ToolRegistry, type ToolIssueReport, type ToolPolicies, type ToolPolicy, type ToolPrecedence } from '@mobileclaw/case-tools';
import { MemoryToolSource } from '@mobileclaw/case-memory';
import { McpServerToolSource } from '@mobileclaw/mcp-tool-source';
import { A2aAgentToolSource, HttpToolCatalogSource } from '@mobileclaw/remote-tool-sources';
import { SkillsFolderSource, createSkillsFolderSource } from '@mobileclaw/skills-folder';
import { PostgresTaskRepository, PostgresToolCallLedger } from '@mobileclaw/store-postgres';
import { SqliteToolCallLedger, type SqliteTaskRepository } from '@mobileclaw/store-sqlite';
import { DEFAULT_TOOL_CALL_RETENTION_MS } from './gateway-config';
import { mcpExposedSources, type ToolsConfig } from './tools-config';

/** Where the gateway's tools come from. */
export interface GatewayToolsOptions {
  /** The data folder: `<dataDir>/skills` is the workspace skills root, searched first. */
  dataDir: string;
  /** More SKILL.md roots, searched next in this order (`MOBILECLAW_SKILLS_DIRS`); the tools config's `skills.dirs` follow. */
  skillsDirs: readonly string[];
  /** The remote sources, precedence and policies (`MOBILECLAW_TOOLS_CONFIG`); undefined = skills folders only. */
  tools?: ToolsConfig;
  /** How long a tool call's record is kept, in ms; default 7 days. */
  toolCallRetentionMs?: number;
  /** Register the registry globally (the gateway does), for the REST controllers. */
  isGlobal?: boolean;
}

/** The memory tools' source (`memory_search`, `memory_store`), as policies name it. */
const MEMORY_TOOL_SOURCE = 'native:memory';

/**
 * The default policy of each caller (caller ids as the REST, OpenClaw, MCP, planner and phone faces
 * use them); the tools config's `policies` replace them caller by caller:
 * - every other caller: every tool; the native phone actions without approval (as the REST command API
 *   runs them), every other `ACTION` tool only with a person's approval;
 * - `mcp`: only the sources configured with `exposeToMcp: true` (the `/mcp` face has its own phone tools);
 * - `planner`: every tool (the planner adapter leaves the phone's own native tools out: it has the phone
 *   actions), the memory tools without approval (they read and write the task's own scope only);
 * - `phone:*`: the skills and remote sources and the memory tools (the phone's own scope, without
 *   approval), never another native tool (a phone does not drive other phones).
 */
export function defaultToolPolicies(mcpSources: readonly string[]): Required<ToolPolicies> {
  return {
    defaultPolicy: { allow: '*', allowActionSourcesWithoutApproval: ['native:*'] },
    byCaller: {
      mcp: { allow: [], allowSources: [...mcpSources] },
      planner: { allow: '*', allowActionSourcesWithoutApproval: [MEMORY_TOOL_SOURCE] },
      'phone:*': { allow: [], allowSources: ['skills:*', 'mcp:*', 'catalog:*', 'agent:*', MEMORY_TOOL_SOURCE], allowActionSourcesWithoutApproval: [MEMORY_TOOL_SOURCE] },
    },
  };
}

/** The registry's policies: {@link defaultToolPolicies}, each caller the config names replaced by its entry. */
export function gatewayToolPolicies(tools: ToolsConfig | undefined, skills: ToolSourceRef): ToolPolicies {
  const defaults = defaultToolPolicies(tools === undefined ? [] : mcpExposedSources(tools, skills));
  const byCaller: Record<string, ToolPolicy> = { ...defaults.byCaller, ...(tools?.policies.byCaller ?? {}) };
  return { defaultPolicy: tools?.policies.defaultPolicy ?? defaults.defaultPolicy, byCaller };
}

/** A remote source and where it is, for people (a public URL or `stdio <command>`, no secret). */
interface Located<T> {
  source: T;
  location: string;
}

/**
 * The configured remote sources, built (nothing connects before {@link start}): MCP servers, HTTP tool
 * catalogs and A2A agents, each in configuration order.
 */
export class RemoteToolSources {
  private readonly mcpServers: McpServerToolSource[];
  private readonly catalogs: Located<HttpToolCatalogSource>[];
  private readonly agents: Located<A2aAgentToolSource>[];

  /** @throws Error when a source refuses its options (the tools config has checked them already). */
  constructor(tools: ToolsConfig | undefined) {
    this.mcpServers = (tools?.mcpServers ?? []).map(({ options }) => new McpServerToolSource({ server: options }));
    this.catalogs = (tools?.catalogs ?? []).map(({ options }) => ({ source: new HttpToolCatalogSource(options), location: publicLocation(options.catalogUrl) }));
    this.agents = (tools?.agents ?? []).map(({ options }) => ({ source: new A2aAgentToolSource(options), location: publicLocation(options.agentUrl) }));
  }

  /** Every source: MCP servers, then catalogs, then agents. */
  all(): ToolSource[] {
    return [...this.mcpServers, ...this.catalogs.map(({ source }) => source), ...this.agents.map(({ source }) => source)];
  }

  /**
   * What each source could not do, for `GET /api/tools`'s `issues`: `unreachable` (the last connection
   * or read failed; the sources redact their messages) and `invalid_entry` (a catalog entry skipped).
   */
  issueReports(): ToolIssueReport[] {
    const polled = ({ source, location }: Located<HttpToolCatalogSource | A2aAgentToolSource>): ToolIssueReport => ({
      source: source.ref,
      issues: async () => {
        const { error } = source.status();
        const entries = source instanceof HttpToolCatalogSource ? source.issues() : [];
        return [...(error === undefined ? [] : [{ kind: 'unreachable', location, message: error }]), ...entries.map((message) => ({ kind: 'invalid_entry', location, message }))];
      },
    });
    return [
      ...this.mcpServers.map((server) => ({
        source: server.ref,
        issues: async () => {
          const { lastError, location } = server.status();
          return lastError === undefined ? [] : [{ kind: 'unreachable', location, message: lastError }];
        },
      })),
      ...this.catalogs.map(polled),
      ...this.agents.map(polled),
    ];
  }

  /** Connects every MCP server and starts reading every catalog and agent card; returns at once (each retries on its own). */
  start(): void {
    for (const server of this.mcpServers) void server.start();
    for (const { source } of [...this.catalogs, ...this.agents]) void source.start();
  }

  /** Stops every source (a stdio server's process is ended). */
  async close(): Promise<void> {
    for (const { source } of [...this.catalogs, ...this.agents]) source.close();
    await Promise.all(this.mcpServers.map((server) => server.close()));
  }
}

/** `url` without query, fragment or credentials, which may carry secrets. */
function publicLocation(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/** How often the tool-call records are pruned, at most, in ms. */
const PRUNE_INTERVAL_MS = 3_600_000;

/** The DI token of the module's {@link GatewayToolsOptions}. */
const GATEWAY_TOOLS_OPTIONS = Symbol('GATEWAY_TOOLS_OPTIONS');

/**
 * Starts the sources once the app is up (skills watched, remote sources connecting without being waited
 * for, so a server that is down delays nothing), prunes the tool-call records older than the retention at
 * start-up and then periodically; stops all of it at shutdown.
 */
@Injectable()
class GatewayToolsLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('ToolRegistry');
  private pruneTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly skills: SkillsFolderSource,
    private readonly remote: RemoteToolSources,
    private readonly registry: ToolRegistry,
    @Inject(ToolCallLedger) private readonly ledger: SqliteToolCallLedger | PostgresToolCallLedger,
    @Inject(GATEWAY_TOOLS_OPTIONS) private readonly options: GatewayToolsOptions,
  ) {}

  /** Resolves once the skills folders are watched and scanned (a skill added after start-up is seen) and old records pruned. */
  async onApplicationBootstrap(): Promise<void> {
    this.remote.start();
    await this.skills.watch();
    const retentionMs = this.options.toolCallRetentionMs ?? DEFAULT_TOOL_CALL_RETENTION_MS;
    await this.prune(retentionMs);
    // Often enough that records live at most a little longer than the retention; never more than hourly.
    this.pruneTimer = setInterval(() => void this.prune(retentionMs), Math.min(retentionMs, PRUNE_INTERVAL_MS));
    this.pruneTimer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.pruneTimer);
    this.registry.close();
    await this.remote.close();
    await this.skills.close();
    await this.ledger.close();
  }

  private async prune(retentionMs: number): Promise<void> {
    try {
      const removed = await this.ledger.prune(new Date(Date.now() - retentionMs).toISOString());
      if (removed > 0) this.logger.log(`pruned ${removed} tool call record(s) older than ${retentionMs} ms`);
    } catch (err) {
      // A failed prune only delays it: the records stay valid, the next run tries again.
      this.logger.warn(`pruning the tool call records failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

/**
 * The gateway's tool registry: the native tools first (the phone's commands as `phone_<command>`,
 * `NativePhoneToolSource`, `list_devices`, `GatewayToolSource`, and `memory_search`/`memory_store`
 * when a `MemoryToolSource` is provided, `GatewayMemoryModule`; they need the `MobileClawService`
 * provider and use `ControlLeases` and `ScreenImageEncoder` when provided), the SKILL.md folders (`<dataDir>/skills`, then each of `skillsDirs`,
 * then the tools config's `skills.dirs`; watched) and the remote sources of the tools config (MCP
 * servers, HTTP tool catalogs, A2A agents), merged by {@link ToolRegistry} with the configured
 * precedence (sources of one tier in configuration order) and the policies of
 * {@link gatewayToolPolicies}. Calls with a `toolCallId` are recorded in the task database
 * (table `tool_calls`: `SqliteToolCallLedger`, or `PostgresToolCallLedger` on the PostgreSQL task
 * store's pool, shared by the instances), so that they run at most once across restarts, for
 * `toolCallRetentionMs`. Needs the `TaskRepository` provider (the SQLite store's module, global).
 */
@Module({})
export class GatewayToolsModule {
  static forRoot(options: GatewayToolsOptions): DynamicModule {
    const precedence: ToolPrecedence | undefined = options.tools?.precedence;
    return {
      module: GatewayToolsModule,
      global: options.isGlobal ?? false,
      providers: [
        { provide: GATEWAY_TOOLS_OPTIONS, useValue: options },
        {
          provide: SkillsFolderSource,
          useFactory: () => createSkillsFolderSource({ dataDir: options.dataDir, extraRoots: [...options.skillsDirs, ...(options.tools?.skillsDirs ?? [])] }),
        },
        { provide: RemoteToolSources, useFactory: () => new RemoteToolSources(options.tools) },
        // In the task store's database: on its PostgreSQL pool, or on a SQLite connection of its own opened once the store has migrated the file.
        {
          provide: ToolCallLedger,
          inject: [TaskRepository],
          useFactory: (repository: TaskRepository) =>
            repository instanceof PostgresTaskRepository ? new PostgresToolCallLedger(repository.database) : SqliteToolCallLedger.open((repository as SqliteTaskRepository).path),
        },
        {
          provide: ToolRegistry,
          inject: [
            SkillsFolderSource,
            RemoteToolSources,
            ToolCallLedger,
            MobileClawService,
            { token: ControlLeases, optional: true },
            { token: ScreenImageEncoder, optional: true },
            { token: MemoryToolSource, optional: true },
          ],
          useFactory: (
            skills: SkillsFolderSource,
            remote: RemoteToolSources,
            ledger: ToolCallLedger,
            phones: MobileClawService,
            leases: ControlLeases | undefined,
            images: ScreenImageEncoder | undefined,
            memory: MemoryToolSource | undefined,
          ) => {
            const sources: ToolSource[] = [
              // Native first: the phone's commands and the gateway's own tools, never shadowed.
              new NativePhoneToolSource(phones, { ...(leases ? { leases } : {}), ...(images ? { images } : {}) }),
              new GatewayToolSource(phones, leases),
              ...(memory ? [memory] : []),
              skills,
              ...remote.all(),
            ];
            return new ToolRegistry(sources, {
              ledger,
              ...(precedence === undefined ? {} : { precedence }),
              policies: gatewayToolPolicies(options.tools, skills.ref),
              issueReports: [{ source: skills.ref, issues: () => skills.issues() }, ...remote.issueReports()],
            });
          },
        },
        GatewayToolsLifecycle,
      ],
      exports: [ToolRegistry],
    };
  }
}

