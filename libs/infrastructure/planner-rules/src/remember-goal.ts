import { MEMORY_TEXT_MAX_CHARS, type PlanDecision, type PlannerHistoryEntry, type TaskToolSpec } from '@mobileclaw/domain';
import { quoteText } from './goal-intent';
import { foldSubject, parseMemoryStatement } from './memory-statement';

/** The gateway tool a "remember …" goal is carried out with. */
export const MEMORY_STORE_TOOL = 'memory_store';
/** The priority of what a person asks to remember: above what a flush keeps of a session by default, below what is always curated. */
export const REMEMBER_PRIORITY = 6;

/** A goal that asks to remember something: the memory's text and category. */
export interface RememberGoal {
  /** As the goal wrote it, without "remember (that)" and a trailing full stop, e.g. `mom is Alice`. */
  text: string;
  /** `contact` when it names who a relation is ("mom is Alice", "我的老板是王伟"), else `fact`. */
  category: 'contact' | 'fact';
}

/**
 * "remember that <X> is <Y>", "remember my <X> is <Y>", "remember <anything>", "remember: …",
 * "please remember …", "记住…", "请记住…", "记一下…"; "remember to …" is a reminder, not a fact, and
 * not read here.
 */
const REMEMBER_GOAL = /^(?:please\s+)?remember(?:\s*:\s*|\s+)(?!to\s)(?:that\s+)?(.+)$/iu;
const REMEMBER_GOAL_ZH = /^请?(?:记住|记一下)[:：,，\s]*(.+)$/u;

/** Relations a person is named by: a statement naming one is a contact. */
const RELATIONS: ReadonlySet<string> = new Set([
  'mom', 'mum', 'mother', 'mommy', 'mama', 'dad', 'father', 'daddy', 'papa', 'wife', 'husband', 'partner', 'boyfriend', 'girlfriend',
  'son', 'daughter', 'brother', 'sister', 'grandma', 'grandpa', 'grandmother', 'grandfather', 'aunt', 'uncle', 'cousin',
  'boss', 'manager', 'colleague', 'assistant', 'friend', 'best friend', 'doctor', 'dentist', 'landlord', 'neighbor', 'neighbour',
  '妈妈', '妈', '母亲', '老妈', '爸爸', '爸', '父亲', '老爸', '老婆', '妻子', '老公', '丈夫', '儿子', '女儿', '哥哥', '姐姐', '弟弟', '妹妹',
  '爷爷', '奶奶', '外公', '外婆', '姥姥', '姥爷', '叔叔', '阿姨', '舅舅', '老板', '领导', '经理', '同事', '朋友', '助理', '医生', '房东', '邻居',
]);

/** The memory a goal asks to keep, or undefined when the goal does not ask to remember anything. `goal` is normalised (see `normalizeGoal`). */
export function parseRememberGoal(goal: string): RememberGoal | undefined {
  const match = REMEMBER_GOAL.exec(goal) ?? REMEMBER_GOAL_ZH.exec(goal);
  if (!match) return undefined;
  const text = match[1].replace(/[.。!！]+$/u, '').trim();
  if (text === '') return undefined;
  const statement = parseMemoryStatement(text);
  return { text, category: statement && RELATIONS.has(foldSubject(statement.subject)) ? 'contact' : 'fact' };
}

/**
 * One step of a "remember …" goal, from the history alone: first a `tool_call` of the gateway's
 * {@link MEMORY_STORE_TOOL} with `{text, category, priority: 6}` (`fail` when the gateway offers no such
 * tool, or the text is over the memory's limit); once that step is in the history, `done` when its
 * result shows the stored record, else `fail` with the tool's error.
 */
export function decideRemember(goal: RememberGoal, history: readonly PlannerHistoryEntry[], gatewayTools: readonly TaskToolSpec[] | undefined): PlanDecision {
  const quoted = quoteText(goal.text);
  const call = history.find((entry) => entry.decision.type === 'tool_call' && entry.decision.name === MEMORY_STORE_TOOL);
  if (call) {
    const result = call.result;
    if (result?.status !== 'success') {
      const why = result === undefined ? 'no result' : `${result.status}${result.errorCode ? ` ${result.errorCode}` : ''}${result.message ? `: ${result.message}` : ''}`;
      return { type: 'fail', reason: `Could not remember ${quoted}: ${MEMORY_STORE_TOOL} answered ${why}.`, reasoning: 'The memory did not store it.' };
    }
    if (!storedSomething(result.output)) {
      return { type: 'fail', reason: `Could not remember ${quoted}: ${MEMORY_STORE_TOOL} answered without a stored record.`, reasoning: 'The memory gave no record of it.' };
    }
    return { type: 'done', summary: `Remembered ${quoted}.`, reasoning: `${MEMORY_STORE_TOOL} stored it.` };
  }
  if (!(gatewayTools ?? []).some((tool) => tool.name === MEMORY_STORE_TOOL)) {
    return {
      type: 'fail',
      reason: `Cannot remember ${quoted}: the gateway offers no ${MEMORY_STORE_TOOL} tool to this task (its memory is off, or the planner may not call it).`,
      reasoning: `The goal asks to remember something and there is no ${MEMORY_STORE_TOOL} tool.`,
    };
  }
  if (goal.text.length > MEMORY_TEXT_MAX_CHARS) {
    return { type: 'fail', reason: `Cannot remember ${quoted}: a memory is at most ${MEMORY_TEXT_MAX_CHARS} characters.`, reasoning: 'The text to remember is too long.' };
  }
  return {
    type: 'tool_call',
    name: MEMORY_STORE_TOOL,
    arguments: { text: goal.text, category: goal.category, priority: REMEMBER_PRIORITY },
    reasoning: `The goal asks to remember ${quoted}.`,
  };
}

/** True when a `memory_store` result lists at least one stored record (`{stored: [{id, …}]}`). */
function storedSomething(output: unknown): boolean {
  if (typeof output !== 'object' || output === null) return false;
  const stored = (output as { stored?: unknown }).stored;
  return Array.isArray(stored) && stored.some((record) => typeof record === 'object' && record !== null && typeof (record as { id?: unknown }).id === 'string');
}
