import { Injectable } from '@nestjs/common';
import { CURATED_CATEGORIES, MEMORY_TEXT_MAX_CHARS, MemorySummarizer, ORGANIZE_PRIORITY_MIN, normaliseMemoryText, type MemoryCandidate, type SessionTurn } from '@mobileclaw/domain';
import { parseMemoryMarkdown } from './memory-markdown';

/** Priority of a task (a user's goal and its outcome) kept by a flush. */
export const RULE_TASK_PRIORITY = 3;
/** Priority of a user's explicit "remember …" statement kept by a flush. */
export const RULE_FACT_PRIORITY = 6;

/** "remember (that) X", "please remember: X", "记住X", "请记住：X" — X is the fact. */
const REMEMBER = [/^(?:please\s+)?remember(?:\s+that)?\s*[:,]?\s+(.+)$/isu, /^请?记住\s*[:：,，]?\s*(.+)$/su];

/**
 * The memory summariser without a model, deterministic:
 * - `summarize`: each user turn that is an explicit "remember …" statement (English or Chinese) gives
 *   its fact as a priority-6 `fact`; each other user turn is a goal, kept with its outcome (the last
 *   turn before the next user turn) as one priority-3 `task`: `<goal> → <outcome>`;
 * - `organize`: keeps the daily sections whose priority is ≥ 9 or whose category is a curated one
 *   (`preference`, `permanent`, …), re-stated with priority 9 and their category.
 * Texts are put on one line (whitespace runs as one space), cut to 4,000 characters, and repeated
 * texts (after normalisation) kept once.
 */
@Injectable()
export class RuleBasedMemorySummarizer extends MemorySummarizer {
  readonly name = 'rule-based';

  override async summarize(turns: readonly SessionTurn[]): Promise<MemoryCandidate[]> {
    const candidates: MemoryCandidate[] = [];
    turns.forEach((turn, i) => {
      if (turn.role !== 'user') return;
      const statement = oneLine(turn.text);
      const fact = rememberedFact(statement);
      if (fact !== undefined) {
        candidates.push({ text: fact, category: 'fact', priority: RULE_FACT_PRIORITY });
        return;
      }
      const next = turns.findIndex((later, j) => j > i && later.role === 'user');
      const outcome = turns.slice(i + 1, next === -1 ? turns.length : next).at(-1);
      candidates.push({ text: outcome ? oneLine(`${statement} → ${outcome.text}`) : statement, category: 'task', priority: RULE_TASK_PRIORITY });
    });
    return distinct(candidates);
  }

  override async organize(days: readonly { day: string; text: string }[]): Promise<MemoryCandidate[]> {
    const candidates: MemoryCandidate[] = [];
    for (const { day, text } of days) {
      for (const section of parseMemoryMarkdown(text, 'daily', day)) {
        if (section.priority >= ORGANIZE_PRIORITY_MIN || CURATED_CATEGORIES.includes(section.category)) {
          candidates.push({ text: oneLine(section.text), category: section.category, priority: ORGANIZE_PRIORITY_MIN });
        }
      }
    }
    return distinct(candidates);
  }
}

function rememberedFact(statement: string): string | undefined {
  for (const pattern of REMEMBER) {
    const match = pattern.exec(statement);
    if (match && match[1].trim() !== '') return match[1].trim();
  }
  return undefined;
}

function oneLine(text: string): string {
  return text.replace(/\s+/gu, ' ').trim().slice(0, MEMORY_TEXT_MAX_CHARS);
}

function distinct(candidates: readonly MemoryCandidate[]): MemoryCandidate[] {
  const seen = new Set<string>();
  return candidates.filter((candidate) => {
    const key = normaliseMemoryText(candidate.text);
    if (key === '' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
