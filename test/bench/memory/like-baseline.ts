import Database from 'better-sqlite3';
import { memoryWords, type MemoryScope } from '@mobileclaw/domain';
import type { BenchMemory } from './memory-set';

/** How the seed searched: daily memories of the last days and all curated ones, a few of each. */
export interface LikeBaselineOptions {
  /** Default 7. */
  dailyWindowDays: number;
  /** Default 3. */
  dailyResults: number;
  /** Default 3. */
  curatedResults: number;
}

const DEFAULTS: LikeBaselineOptions = { dailyWindowDays: 7, dailyResults: 3, curatedResults: 3 };
const DAY_MS = 86_400_000;

/**
 * The seed's keyword search, as it was: `text LIKE '%word%'` over a plain table (SQLite's LIKE:
 * case-insensitive for ASCII only, no index used, no ranking of its own). Each word of the question
 * (`memoryWords`, stop words and all) is one LIKE pattern; a memory matches when it contains at least
 * one. Per layer — daily memories of the last `dailyWindowDays` days, curated ones of any age — the
 * memories matching the most words are taken, newest first among equals, `dailyResults` and
 * `curatedResults` of them; the two lists are merged the same way (more matched words first, then newer).
 */
export class LikeBaseline {
  private readonly db: Database.Database;
  private readonly options: LikeBaselineOptions;
  private readonly statements = new Map<number, Database.Statement<unknown[], { id: string; matched: number; created_at: string }>>();

  /**
   * An in-memory table of `memories`.
   * @param now ISO-8601: the daily window ends here.
   */
  constructor(memories: readonly BenchMemory[], private readonly now: string, options: Partial<LikeBaselineOptions> = {}) {
    this.options = { ...DEFAULTS, ...options };
    this.db = new Database(':memory:');
    this.db.exec('CREATE TABLE memory (id TEXT PRIMARY KEY, scope TEXT NOT NULL, layer TEXT NOT NULL, text TEXT NOT NULL, created_at TEXT NOT NULL)');
    const insert = this.db.prepare('INSERT INTO memory (id, scope, layer, text, created_at) VALUES (?, ?, ?, ?, ?)');
    this.db.transaction(() => {
      for (const m of memories) insert.run(m.id, m.scope, m.layer, m.text, m.createdAt);
    })();
  }

  /** The ids found for `query` in `scope`, best first (at most `dailyResults + curatedResults`); none when the query has no words. */
  search(scope: MemoryScope, query: string): string[] {
    const patterns = [...new Set(memoryWords(query))].map((word) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    if (patterns.length === 0) return [];
    const since = new Date(Date.parse(this.now) - this.options.dailyWindowDays * DAY_MS).toISOString();
    const statement = this.statementFor(patterns.length);
    const daily = statement.all(...patterns, scope, 'daily', since, ...patterns, this.options.dailyResults);
    const curated = statement.all(...patterns, scope, 'curated', '', ...patterns, this.options.curatedResults);
    return [...daily, ...curated].sort((a, b) => b.matched - a.matched || (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0)).map((row) => row.id);
  }

  close(): void {
    this.db.close();
  }

  private statementFor(words: number) {
    let statement = this.statements.get(words);
    if (!statement) {
      const like = Array.from({ length: words }, () => "text LIKE ? ESCAPE '\\'");
      statement = this.db.prepare(
        `SELECT id, created_at, (${like.map((l) => `(${l})`).join(' + ')}) AS matched FROM memory WHERE scope = ? AND layer = ? AND created_at >= ? AND (${like.join(' OR ')}) ORDER BY matched DESC, created_at DESC LIMIT ?`,
      );
      this.statements.set(words, statement);
    }
    return statement;
  }
}
