import type { MemoryHit } from '@mobileclaw/domain';
import type { GoalIntent } from './goal-intent';
import { foldSubject, parseMemoryStatement } from './memory-statement';

/** A name the memory gives to something a goal may call otherwise: `mom` → `Alice`. */
export interface MemoryAlias {
  /** As the memory wrote it, e.g. `mom`, `妈妈`. */
  alias: string;
  /** e.g. `Alice`. */
  name: string;
}

/**
 * The aliases the memories state (`<alias> is <name>`, `my <alias> is <name>`, `<alias>是<name>`, see
 * {@link parseMemoryStatement}), by folded alias ({@link foldSubject}). Where several memories name one
 * alias, the highest scored wins, then the most recent (a newer "mom is Alice" over an older "mom is Eve").
 */
export function memoryAliases(memories: readonly MemoryHit[] | undefined): Map<string, MemoryAlias> {
  const aliases = new Map<string, MemoryAlias>();
  const ranked = [...(memories ?? [])].sort((a, b) => b.score - a.score || a.ageDays - b.ageDays);
  for (const memory of ranked) {
    const statement = parseMemoryStatement(memory.text);
    if (!statement) continue;
    const key = foldSubject(statement.subject);
    if (key === '' || aliases.has(key) || foldSubject(statement.value) === key) continue;
    aliases.set(key, { alias: statement.subject, name: statement.value });
  }
  return aliases;
}

/** Intents with their names resolved through memory, and the aliases that were used (each once). */
export interface ResolvedIntents {
  intents: GoalIntent[];
  used: MemoryAlias[];
}

/**
 * Replaces each name of a goal's intents that is an alias in memory — a message's recipient, a tap's
 * target or the thing it is within, the app or item to open — by the name the memory gives it, when the
 * goal's name is the alias whole (but for case, spacing and a leading "my"/"我的"/"我"). What the goal
 * quotes to type or send is never touched, nor a dialog verb's labels. Intents without an alias are
 * returned as they are.
 */
export function resolveAliases(intents: readonly GoalIntent[], aliases: ReadonlyMap<string, MemoryAlias>): ResolvedIntents {
  const used: MemoryAlias[] = [];
  if (aliases.size === 0) return { intents: [...intents], used };
  const resolve = (name: string): string => {
    const folded = foldSubject(name);
    const alias = aliases.get(folded) ?? (folded.startsWith('我') ? aliases.get(folded.slice(1)) : undefined);
    if (!alias) return name;
    if (!used.includes(alias)) used.push(alias);
    return alias.name;
  };
  const resolved = intents.map((intent): GoalIntent => {
    switch (intent.kind) {
      case 'send_message':
        return { ...intent, recipient: resolve(intent.recipient) };
      case 'open':
        return { ...intent, name: resolve(intent.name) };
      case 'tap':
        // A dialog verb's or a control's labels are the button's own words, never a person's or a thing's name.
        if (intent.names !== undefined) return intent.within === undefined ? intent : { ...intent, within: resolve(intent.within) };
        return { ...intent, target: resolve(intent.target), ...(intent.within === undefined ? {} : { within: resolve(intent.within) }) };
      default:
        return intent;
    }
  });
  return { intents: resolved, used };
}

/** What a step's reasoning says of the aliases it used: `mom is Alice (memory)`. */
export function aliasNote(used: readonly MemoryAlias[]): string {
  return used.map((alias) => `${alias.alias} is ${alias.name} (memory)`).join('; ');
}
