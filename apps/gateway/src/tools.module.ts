import { Inject, Injectable, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { TaskRepository, ToolCallLedger } from '@mobileclaw/domain';
import { ToolRegistry } from '@mobileclaw/case-tools';
import { SkillsFolderSource, createSkillsFolderSource } from '@mobileclaw/skills-folder';
import { SqliteToolCallLedger, type SqliteTaskRepository } from '@mobileclaw/store-sqlite';

/** Where the gateway's tools come from. */
export interface GatewayToolsOptions {
  /** The data folder: `<dataDir>/skills` is the workspace skills root, searched first. */
  dataDir: string;
  /** More SKILL.md roots, searched next in this order (`MOBILECLAW_SKILLS_DIRS`). */
  skillsDirs: readonly string[];
  /** Register the registry globally (the gateway does), for the REST controllers. */
  isGlobal?: boolean;
}

/** Starts watching the skills folders once the app is up; stops the registry, the watcher and the ledger at shutdown. */
@Injectable()
class GatewayToolsLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly skills: SkillsFolderSource,
    private readonly registry: ToolRegistry,
    @Inject(ToolCallLedger) private readonly ledger: SqliteToolCallLedger,
  ) {}

  /** Resolves once the watchers are ready and the folders scanned: a skill added after start-up is seen. */
  async onApplicationBootstrap(): Promise<void> {
    await this.skills.watch();
  }

  async onApplicationShutdown(): Promise<void> {
    this.registry.close();
    await this.skills.close();
    await this.ledger.close();
  }
}

/**
 * The gateway's tool registry: today one source, the SKILL.md folders (`<dataDir>/skills`, then each
 * of `skillsDirs`; watched), merged by {@link ToolRegistry} with the default precedence, and calls
 * with a `toolCallId` recorded in the task database (`SqliteToolCallLedger`, table `tool_calls`), so
 * that they run at most once across restarts. Needs the `TaskRepository` provider (the SQLite store's
 * module, global). Remote sources (MCP servers, HTTP catalogs, agents) and native phone tools are not
 * wired yet.
 */
@Module({})
export class GatewayToolsModule {
  static forRoot(options: GatewayToolsOptions): DynamicModule {
    return {
      module: GatewayToolsModule,
      global: options.isGlobal ?? false,
      providers: [
        { provide: SkillsFolderSource, useFactory: () => createSkillsFolderSource({ dataDir: options.dataDir, extraRoots: options.skillsDirs }) },
        // Its own connection to the task database, opened once the store has migrated it.
        { provide: ToolCallLedger, inject: [TaskRepository], useFactory: (repository: SqliteTaskRepository) => SqliteToolCallLedger.open(repository.path) },
        {
          provide: ToolRegistry,
          inject: [SkillsFolderSource, ToolCallLedger],
          useFactory: (skills: SkillsFolderSource, ledger: ToolCallLedger) =>
            new ToolRegistry([skills], { ledger, issueReports: [{ source: skills.ref, issues: () => skills.issues() }] }),
        },
        GatewayToolsLifecycle,
      ],
      exports: [ToolRegistry],
    };
  }
}
