import { join } from 'node:path';
import { Inject, Injectable, Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { Clock, EmbeddingProvider, MemoryFiles, MemoryIndex, MemorySummarizer, TaskMemory, TaskRepository } from '@mobileclaw/domain';
import { SystemClock } from '@mobileclaw/case-tasks';
import { MEMORY_OPTIONS, MemoryService, MemoryTaskMemory, MemoryToolSource, RuleBasedMemorySummarizer, type MemoryOptions } from '@mobileclaw/case-memory';
import { OpenAiEmbeddingProvider } from '@mobileclaw/embeddings-openai';
import { MarkdownMemoryFiles } from '@mobileclaw/memory-files';
import { LlmMemorySummarizer, type LlmPlannerOptions } from '@mobileclaw/planner-llm';
import { PostgresMemoryFiles, PostgresMemoryIndex, PostgresTaskRepository } from '@mobileclaw/store-postgres';
import { SqliteMemoryIndex, type SqliteTaskRepository } from '@mobileclaw/store-sqlite';
import type { GatewayConfig } from './gateway-config';
import { importMemoryDirectory } from './memory-import';

/** What the gateway's memory runs with. */
export interface GatewayMemoryOptions {
  /** The data folder: the memory files are in `<dataDir>/memory` (unless the task store is PostgreSQL). */
  dataDir: string;
  /** The embeddings endpoint, flush threshold, decay half-life and minimum semantic score (`MOBILECLAW_EMBEDDINGS_*`, `MOBILECLAW_MEMORY_*`). */
  memory: GatewayConfig['memory'];
  /** The planner's model: when given, flushes and "organize" are summarised by it; else by rules. */
  llm?: LlmPlannerOptions;
  /** Register the providers globally (the gateway does): the task loop, the tool registry and the REST API find them. */
  isGlobal?: boolean;
}

/** The memory directory under a data folder. */
export function memoryDirectory(dataDir: string): string {
  return join(dataDir, 'memory');
}

/** A memory adapter of this module: each has `close()` (the ports leave it out, the adapters have it). */
interface ClosableMemoryAdapter {
  close(): void | Promise<void>;
}

/**
 * Flushes every session to the daily documents at shutdown (the session layer is in memory only),
 * then closes the memory's adapters, whichever they are, after the memory service has stopped
 * watching (its `onModuleDestroy` runs before any `onApplicationShutdown`) and finished what it had
 * started (a flush in the background, a file being re-indexed): the files (the file watcher, or the
 * PostgreSQL documents' operations), then the index (its SQLite connection, or its PostgreSQL
 * operations). The PostgreSQL pool itself is closed after them by the task store's module (its
 * shutdown hook runs after this one: the module is registered before). The process's shutdown
 * deadline bounds the wait.
 */
@Injectable()
class GatewayMemoryLifecycle implements OnApplicationShutdown {
  private readonly logger = new Logger('Memory');

  constructor(
    private readonly memory: MemoryService,
    @Inject(MemoryFiles) private readonly files: ClosableMemoryAdapter,
    @Inject(MemoryIndex) private readonly index: ClosableMemoryAdapter,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    // Sessions live in memory only: what they hold goes to the daily documents before the gateway stops.
    const flushed = await this.memory.flushAll();
    if (flushed.turns > 0) this.logger.log(`flushed ${flushed.turns} session turn(s) of ${flushed.scopes} scope(s) at shutdown`);
    await this.memory.idle();
    await this.files.close();
    await this.index.close();
  }
}

/**
 * The agent's memory in the gateway, where the task store is:
 * - tasks in SQLite (one instance): the `MemoryFiles` port over `<dataDir>/memory`
 *   ({@link MarkdownMemoryFiles}, watched from start-up: people may edit the files) and the
 *   `MemoryIndex` port in the task database ({@link SqliteMemoryIndex}, its own connection);
 * - tasks in PostgreSQL (`MOBILECLAW_DATABASE_URL`, several instances): both in that database, on the
 *   task store's pool ({@link PostgresMemoryFiles}: the same Markdown documents as rows;
 *   {@link PostgresMemoryIndex}), so that every instance remembers and finds the same memories. Memory
 *   files left in `<dataDir>/memory` from before are moved into the database at start-up
 *   (`importMemoryDirectory`).
 * Then the `EmbeddingProvider` port only when an endpoint is configured ({@link OpenAiEmbeddingProvider}),
 * the `MemorySummarizer` port (the planner's model when the planner is the LLM one, else rules), the
 * {@link MemoryService}, the task loop's `TaskMemory` ({@link MemoryTaskMemory}) and the planner's and
 * phones' memory tools ({@link MemoryToolSource}, source `native:memory`, added to the tool registry
 * by `GatewayToolsModule`). The session layer stays in each instance's process. Needs the
 * `TaskRepository` provider (the task store's module, global).
 */
@Module({})
export class GatewayMemoryModule {
  static forRoot(options: GatewayMemoryOptions): DynamicModule {
    const { embeddings } = options.memory;
    const memoryOptions: Partial<MemoryOptions> = {
      flushThreshold: options.memory.flushThreshold,
      halfLifeDays: options.memory.halfLifeDays,
      minSemanticScore: options.memory.minSemanticScore,
    };
    return {
      module: GatewayMemoryModule,
      global: options.isGlobal ?? false,
      providers: [
        {
          provide: MemoryIndex,
          inject: [TaskRepository],
          useFactory: (repository: TaskRepository) =>
            repository instanceof PostgresTaskRepository
              ? new PostgresMemoryIndex(repository.database)
              : // Its own connection to the task database, once the store has migrated it.
                SqliteMemoryIndex.open((repository as SqliteTaskRepository).path),
        },
        {
          provide: MemoryFiles,
          inject: [TaskRepository],
          // Watching before the memory service's start-up index, so that no edit falls between the two.
          useFactory: async (repository: TaskRepository) => {
            if (repository instanceof PostgresTaskRepository) {
              // Before the memory service's start-up index, so that it indexes what was imported.
              const documents = new PostgresMemoryFiles(repository.database);
              const imported = await importMemoryDirectory(memoryDirectory(options.dataDir), documents);
              if (imported) {
                new Logger('Memory').log(`moved ${imported.sections} memory section(s) of ${imported.files} file(s) into the PostgreSQL database; the folder is now ${imported.movedTo}`);
              }
              return documents;
            }
            const files = new MarkdownMemoryFiles({ dir: memoryDirectory(options.dataDir) });
            await files.start();
            return files;
          },
        },
        ...(embeddings ? [{ provide: EmbeddingProvider, useFactory: () => new OpenAiEmbeddingProvider({ baseUrl: embeddings.baseUrl, model: embeddings.model, ...(embeddings.apiKey === undefined ? {} : { apiKey: embeddings.apiKey }) }) }] : []),
        {
          provide: MemorySummarizer,
          inject: [MemoryFiles],
          useFactory: (files: MemoryFiles) => {
            const summarizer = options.llm ? new LlmMemorySummarizer(options.llm) : new RuleBasedMemorySummarizer();
            const semantic = embeddings ? `semantic search with ${embeddings.model} at ${new URL(embeddings.baseUrl).origin}` : 'lexical search only (no MOBILECLAW_EMBEDDINGS_BASE_URL)';
            const where = files instanceof PostgresMemoryFiles ? 'the PostgreSQL database (shared by every instance)' : memoryDirectory(options.dataDir);
            new Logger('Memory').log(`memory in ${where}: ${semantic}; summarised by ${summarizer.name}`);
            return summarizer;
          },
        },
        { provide: MEMORY_OPTIONS, useValue: memoryOptions },
        {
          provide: MemoryService,
          inject: [MemoryIndex, MemoryFiles, MemorySummarizer, { token: Clock, optional: true }, { token: EmbeddingProvider, optional: true }, MEMORY_OPTIONS],
          useFactory: (index: MemoryIndex, files: MemoryFiles, summarizer: MemorySummarizer, clock: Clock | undefined, provider: EmbeddingProvider | undefined, settings: Partial<MemoryOptions>) =>
            new MemoryService(index, files, summarizer, clock ?? new SystemClock(), provider, settings),
        },
        { provide: TaskMemory, inject: [MemoryService], useFactory: (memory: MemoryService) => new MemoryTaskMemory(memory) },
        { provide: MemoryToolSource, inject: [MemoryService], useFactory: (memory: MemoryService) => new MemoryToolSource(memory) },
        GatewayMemoryLifecycle,
      ],
      exports: [MemoryService, TaskMemory, MemoryToolSource],
    };
  }
}
