import type { SessionTurn } from '@mobileclaw/domain';

/**
 * The prompts of the memory summarizer. Both ask for one JSON object `{"memories": [{text, category,
 * priority}]}` (the word JSON must appear in the messages for an endpoint's JSON mode).
 */

/** What a session flush keeps: worth remembering across sessions, priorities 1–7, never secrets. */
export const SUMMARIZE_SYSTEM_PROMPT = `You keep the long-term memory of an assistant that operates Android phones for its user.
You are given the turns of one session, oldest first: the user's goals and statements ("user"), the assistant's actions ("assistant") and the results of those actions and tools ("tool").

Pick out only what is worth remembering in later sessions:
- facts about the user and their world: who people are (names, relationships), places, accounts, devices, settings such as Wi-Fi network names;
- the user's preferences and habits;
- contacts;
- tasks that are still open, and how a finished task ended when that will matter later;
- decisions and agreements.
Leave out small talk, the steps of the assistant's work, and anything that mattered only at the moment.
Never keep secrets, even when they appear in the turns: passwords, PINs, one-time codes, API keys or tokens, card or bank account numbers.

Write each memory as one short statement that makes sense on its own, in the language the user used (e.g. "The user's mother is Alice.").
Give each a category, one lower-case word such as fact, preference, contact, task, decision or event,
and a priority from 1 to 7: 6–7 for stable facts and preferences, 3–5 for useful context, 1–2 for minor details.

Answer with only a JSON object, nothing else:
{"memories": [{"text": "…", "category": "fact", "priority": 5}]}
Answer {"memories": []} when nothing is worth remembering.`;

/** What "organize long-term memory" keeps: strict, lasting things only, priority 9–10. */
export const ORGANIZE_SYSTEM_PROMPT = `You curate the long-term memory of an assistant that operates Android phones for its user.
You are given the assistant's daily memory notes of recent days, oldest first.

Keep only what will stay true and useful for a long time:
- the user's stable preferences and habits;
- important personal facts: names and relationships, job, projects and their background, places;
- lasting decisions and agreements;
- key facts the assistant must remember across sessions.
Do NOT keep day-to-day conversation, temporary or finished tasks, or one-off information.
Be strict: better nothing than noise. When notes contradict each other, keep only the most recent one. State each thing once.
Never keep secrets: passwords, PINs, one-time codes, API keys or tokens, card or bank account numbers.

Write each memory as one short statement that makes sense on its own, in the language of the notes.
Give each a category, one lower-case word such as preference, fact, contact or decision,
and a priority: 9 for lasting memories, 10 for what must never be forgotten.

Answer with only a JSON object, nothing else:
{"memories": [{"text": "…", "category": "preference", "priority": 9}]}
Answer {"memories": []} when nothing qualifies.`;

/** Longest turn text sent, in characters; longer ones are cut (a turn is a goal or a step, not a document). */
export const TURN_MAX_CHARS = 1000;
/** Longest session sent, in characters: the newest turns that fit (the oldest are left out). */
export const SESSION_MAX_CHARS = 48_000;
/** Longest daily file text sent, in characters. */
export const DAY_MAX_CHARS = 3000;

/** The user message of a flush: one line per turn, `[<at>] <role>: <text>`, the newest that fit in {@link SESSION_MAX_CHARS}. */
export function sessionMessage(turns: readonly SessionTurn[]): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i];
    const text = cut(turn.text.replace(/\s+/g, ' ').trim(), TURN_MAX_CHARS);
    const line = `[${turn.at}] ${turn.role}: ${text}`;
    if (size + line.length + 1 > SESSION_MAX_CHARS) break;
    lines.unshift(line);
    size += line.length + 1;
  }
  const left = turns.length - lines.length;
  const note = left > 0 ? ` (the ${left} oldest left out)` : '';
  return `Session turns, oldest first${note}:\n${lines.join('\n')}\n\nAnswer with the JSON object of the memories worth keeping.`;
}

/** The user message of "organize": each day's notes under `=== YYYY-MM-DD ===`, each cut to {@link DAY_MAX_CHARS}. */
export function daysMessage(days: readonly { day: string; text: string }[]): string {
  const blocks = days.map(({ day, text }) => `=== ${day} ===\n${cut(text.trim(), DAY_MAX_CHARS)}`);
  return `Daily memory notes, oldest first:\n\n${blocks.join('\n\n')}\n\nAnswer with the JSON object of the lasting memories.`;
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
