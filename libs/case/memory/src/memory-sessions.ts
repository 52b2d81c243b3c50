import { MEMORY_TEXT_MAX_CHARS, type MemoryScope, type SessionTurn } from '@mobileclaw/domain';

/** One scope's session layer. */
interface Session {
  turns: SessionTurn[];
  /** Turns added since the last flush attempt began (or since the session began). */
  sinceAttempt: number;
}

/**
 * The session layer: each scope's recent turns, in memory only, for at most `maxSessions` scopes
 * (the least recently used one is handed back to be flushed when a new scope would exceed it) and at
 * most `maxTurns` turns per scope (the oldest dropped beyond it, e.g. while flushes keep failing).
 */
export class SessionTurnStore {
  private readonly sessions = new Map<MemoryScope, Session>();

  constructor(
    private readonly maxSessions: number,
    private readonly maxTurns: number,
  ) {}

  /**
   * Adds a turn (its text cut to {@link MEMORY_TEXT_MAX_CHARS} characters) and marks the scope most
   * recently used.
   * @returns the session evicted to make room, if any.
   */
  add(scope: MemoryScope, turn: SessionTurn): { scope: MemoryScope; turns: SessionTurn[] } | undefined {
    const session = this.sessions.get(scope) ?? { turns: [], sinceAttempt: 0 };
    this.sessions.delete(scope);
    this.sessions.set(scope, session);
    session.turns.push({ ...turn, text: turn.text.length > MEMORY_TEXT_MAX_CHARS ? turn.text.slice(0, MEMORY_TEXT_MAX_CHARS) : turn.text });
    session.sinceAttempt++;
    if (session.turns.length > this.maxTurns) session.turns.splice(0, session.turns.length - this.maxTurns);
    if (this.sessions.size <= this.maxSessions) return undefined;
    const [oldest, evicted] = this.sessions.entries().next().value as [MemoryScope, Session];
    this.sessions.delete(oldest);
    return { scope: oldest, turns: evicted.turns };
  }

  /** The scope's turns, oldest first (a copy of the list; the turns themselves are shared). */
  turns(scope: MemoryScope): SessionTurn[] {
    return [...(this.sessions.get(scope)?.turns ?? [])];
  }

  /** Turns added since the last flush attempt of the scope began. */
  sinceAttempt(scope: MemoryScope): number {
    return this.sessions.get(scope)?.sinceAttempt ?? 0;
  }

  /** A flush attempt of the scope begins: counting starts again. */
  markAttempt(scope: MemoryScope): void {
    const session = this.sessions.get(scope);
    if (session) session.sinceAttempt = 0;
  }

  /** Removes these turns (as returned by {@link turns}) once flushed; turns added since stay. */
  remove(scope: MemoryScope, turns: readonly SessionTurn[]): void {
    const session = this.sessions.get(scope);
    if (!session) return;
    const flushed = new Set(turns);
    session.turns = session.turns.filter((turn) => !flushed.has(turn));
    if (session.turns.length === 0) this.sessions.delete(scope);
  }

  /** The scopes that have turns now. */
  scopes(): MemoryScope[] {
    return [...this.sessions.keys()];
  }

  /** How many scopes have a session. */
  get size(): number {
    return this.sessions.size;
  }
}
