/**
 * Tool-call clauses of a goal, for tasks whose caller offers tools: `call <name>`, `use <name>` or
 * `run <name>`, optionally followed by `with <JSON object>`, at the start of the goal or of a clause
 * (after `,`, `;`, `，`, `and`, `then`, `and then` or `然后`). Examples: `call lookup_order`,
 * `call lookup_order with {"orderId": "A-17"} and then open Settings`, `open Settings, then run sync`.
 * The JSON object is read by its own grammar (strings, escapes and nesting), so `and`, commas and
 * braces inside it never end the clause. Any tool name counts: the caller decides whether it has it.
 */

/** A goal split at its tool-call clauses, in order. */
export type GoalSegment =
  | { kind: 'tool'; name: string; arguments: Record<string, unknown>; /** The clause as written, e.g. `call lookup_order`. */ clause: string }
  | { kind: 'text'; text: string };

/** A tool-call clause the goal gets wrong (bad JSON, `with` and no object): the reason, in words. */
export class ToolClauseError extends Error {}

const VERB = /(call|use|run)\s+([A-Za-z0-9_-]{1,64})(?=$|[\s,;，])/iy;
/** A separator before a clause: punctuation and/or a joining word. */
const SEPARATOR = /\s*(?:[,;，]\s*)?(?:(?:and\s+then|and|then)(?=\s)|然后)?\s*/iy;
/** Where a tool-call clause starts inside a text clause: after a separator. */
const CLAUSE_START = /(?:\s*[,;，]\s*(?:(?:and\s+then|and|then)\s+|然后\s*)?|\s+(?:and\s+then|and|then)\s+|\s*然后\s*)(?=(?:call|use|run)\s+[A-Za-z0-9_-]{1,64}(?:$|[\s,;，]))/gi;

/**
 * The goal's segments: tool-call clauses and the text between them (trimmed; empty text dropped).
 * A goal without tool-call clauses is one text segment.
 * @throws ToolClauseError for `with` not followed by a JSON object, JSON that does not parse (the
 *   parser's message and position), a JSON value that is not an object, or a clause followed by more
 *   words without a separator.
 */
export function splitToolCalls(goal: string): GoalSegment[] {
  const segments: GoalSegment[] = [];
  let at = 0;
  while (at < goal.length) {
    at = skipSpaces(goal, at);
    if (at >= goal.length) break;
    VERB.lastIndex = at;
    const verb = VERB.exec(goal);
    if (verb) {
      const name = verb[2] as string;
      const clause = `${(verb[1] as string).toLowerCase()} ${name}`;
      at = VERB.lastIndex;
      let args: Record<string, unknown> = {};
      const withWord = /\s+with(?=\s|\{|$)\s*/iy;
      withWord.lastIndex = at;
      if (withWord.exec(goal)) {
        at = withWord.lastIndex;
        if (goal[at] !== '{') throw new ToolClauseError(`"${clause} with" must be followed by a JSON object, e.g. ${clause} with {"orderId": "A-17"}`);
        const end = jsonObjectEnd(goal, at, clause);
        args = parseArguments(goal.slice(at, end), clause);
        at = end;
      }
      segments.push({ kind: 'tool', name, arguments: args, clause });
      const rest = skipSeparator(goal, at);
      if (goal.slice(at, rest).trim() === '' && rest < goal.length) {
        throw new ToolClauseError(`"${clause}" is followed by ${JSON.stringify(goal.slice(skipSpaces(goal, at)).slice(0, 40))} without "and" or "then" between them`);
      }
      at = rest;
      continue;
    }
    CLAUSE_START.lastIndex = at;
    const next = CLAUSE_START.exec(goal);
    const end = next ? next.index : goal.length;
    const text = goal.slice(at, end).trim();
    if (text !== '') segments.push({ kind: 'text', text });
    at = next ? CLAUSE_START.lastIndex : goal.length;
  }
  return segments;
}

function skipSpaces(goal: string, at: number): number {
  while (at < goal.length && /\s/.test(goal[at] as string)) at++;
  return at;
}

function skipSeparator(goal: string, at: number): number {
  SEPARATOR.lastIndex = at;
  SEPARATOR.exec(goal);
  return SEPARATOR.lastIndex;
}

/**
 * The index just after the JSON object that starts at `start` (a `{`): braces and brackets are
 * counted outside strings, strings end at an unescaped quote.
 * @throws ToolClauseError when the object never closes.
 */
function jsonObjectEnd(goal: string, start: number, clause: string): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < goal.length; i++) {
    const c = goal[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  throw new ToolClauseError(`the arguments of "${clause}" are not a JSON object: ${JSON.stringify(goal.slice(start, start + 60))} never closes`);
}

function parseArguments(json: string, clause: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (err) {
    throw new ToolClauseError(`the arguments of "${clause}" are not valid JSON (${(err as Error).message}): ${json.length > 80 ? `${json.slice(0, 79)}…` : json}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ToolClauseError(`the arguments of "${clause}" must be a JSON object`);
  return value as Record<string, unknown>;
}
