/**
 * Tool-call clauses of a goal, for tasks whose caller offers tools, at the start of the goal or of a
 * clause (after `,`, `;`, `，`, `and`, `then`, `and then` or `然后`):
 * - `call <name>`, `use <name>` or `run <name>` where `<name>` is one of the task's tools (any case),
 *   optionally followed by `with <JSON object>`;
 * - the same verbs with any name when `with <JSON object>` follows: explicit arguments name a tool call;
 * - `$<name>`, optionally followed by a JSON object: always a tool call, whatever the name.
 * A verb with a name the task does not offer and no arguments is ordinary words ("call Mom", "use
 * Wi-Fi settings", "run the backup"), read by the other rules. Examples: `call lookup_order`,
 * `call lookup_order with {"orderId": "A-17"} and then open Settings`, `open Settings, then $sync {}`.
 * The JSON object is read by its own grammar (strings, escapes and nesting), so `and`, commas and
 * braces inside it never end the clause. An explicit call of a name the caller did not offer still
 * goes to the caller, who rejects it.
 * For a task whose caller offers no tools but whose gateway does, only `$<name>` clauses are tool
 * calls (`dollarOnly`): ordinary words like "use Wi-Fi settings" stay words.
 */

/** A goal split at its tool-call clauses, in order. */
export type GoalSegment =
  | { kind: 'tool'; name: string; arguments: Record<string, unknown>; /** The clause as written, e.g. `call lookup_order`. */ clause: string }
  | { kind: 'text'; text: string };

/** A tool-call clause the goal gets wrong (bad JSON, `with` and no object): the reason, in words. */
export class ToolClauseError extends Error {}

const NAME = '[A-Za-z0-9_-]{1,64}';
const VERB = new RegExp(`(call|use|run)\\s+(${NAME})`, 'iy');
const DOLLAR = /\$([A-Za-z_][A-Za-z0-9_-]{0,63})/y;
/** A separator before a clause: punctuation and/or a joining word. */
const SEPARATOR = /\s*(?:[,;，]\s*)?(?:(?:and\s+then|and|then)\s+|然后\s*)?/iy;
/** A candidate tool-call clause's separator, tried at {@link clauseStarts} (sticky); a clause must follow it. */
const CLAUSE_START = /(?:\s*[,;，]\s*(?:(?:and\s+then|and|then)\s+|然后\s*)?|\s+(?:and\s+then|and|then)\s+|\s*然后\s*)/iy;
const WITH = /\s+with/iy;
/** What may follow a name or `with` for the words to be a clause: the end, a space or separator (or `{`). */
const AFTER_NAME = /[\s,;，]/;

/**
 * The patterns of this module, for the ReDoS check: all sticky (each tried at one position at a
 * time) and without look-around, which the checks after them in code replace.
 */
export const TOOL_CLAUSE_PATTERNS: readonly RegExp[] = [VERB, DOLLAR, SEPARATOR, CLAUSE_START, WITH];

/** A tool-call clause found at a position: where it ends and what it calls. */
interface ClauseMatch {
  segment: Extract<GoalSegment, { kind: 'tool' }>;
  end: number;
}

/**
 * The goal's segments: tool-call clauses and the text between them (trimmed; empty text dropped).
 * A goal without tool-call clauses is one text segment.
 * @param toolNames the names of the tools the task offers (the caller's, then the gateway's).
 * @param options `dollarOnly`: only `$<name>` clauses are tool calls (a task without caller tools).
 * @throws ToolClauseError for a tool-call clause with `with` not followed by a JSON object, JSON that
 *   does not parse (the parser's message and position), a JSON value that is not an object, or a clause
 *   followed by more words without a separator.
 */
export function splitToolCalls(goal: string, toolNames: readonly string[], options: { dollarOnly?: boolean } = {}): GoalSegment[] {
  const offered = new Map(toolNames.map((name) => [name.toLowerCase(), name]));
  const dollarOnly = options.dollarOnly === true;
  const segments: GoalSegment[] = [];
  let at = 0;
  while (at < goal.length) {
    at = skipSpaces(goal, at);
    if (at >= goal.length) break;
    const found = toolClauseAt(goal, at, offered, dollarOnly);
    if (found) {
      segments.push(found.segment);
      const rest = skipSeparator(goal, found.end);
      if (goal.slice(found.end, rest).trim() === '' && rest < goal.length) {
        throw new ToolClauseError(`"${found.segment.clause}" is followed by ${JSON.stringify(goal.slice(skipSpaces(goal, found.end)).slice(0, 40))} without "and" or "then" between them`);
      }
      at = rest;
      continue;
    }
    let end = goal.length;
    let next = goal.length;
    for (const start of clauseStarts(goal, at)) {
      CLAUSE_START.lastIndex = start;
      // Not a tool call (e.g. "and call Mom"): look further along.
      if (!CLAUSE_START.exec(goal) || !toolClauseAt(goal, CLAUSE_START.lastIndex, offered, dollarOnly)) continue;
      end = start;
      next = CLAUSE_START.lastIndex;
      break;
    }
    const text = goal.slice(at, end).trim();
    if (text !== '') segments.push({ kind: 'text', text });
    at = next;
  }
  return segments;
}

/**
 * The tool-call clause starting at `at`, or undefined when the words there are not one (see the
 * module's rules).
 * @throws ToolClauseError for a tool-call clause whose arguments are malformed.
 */
function toolClauseAt(goal: string, at: number, offered: ReadonlyMap<string, string>, dollarOnly: boolean): ClauseMatch | undefined {
  DOLLAR.lastIndex = at;
  const dollar = DOLLAR.exec(goal);
  if (dollar && endsName(goal, DOLLAR.lastIndex, true)) {
    const name = dollar[1] as string;
    const clause = `$${name}`;
    let end = DOLLAR.lastIndex;
    const open = skipSpaces(goal, end);
    let args: Record<string, unknown> = {};
    if (goal[open] === '{') {
      end = jsonObjectEnd(goal, open, clause);
      args = parseArguments(goal.slice(open, end), clause);
    }
    return { segment: { kind: 'tool', name, arguments: args, clause }, end };
  }
  if (dollarOnly) return undefined;
  VERB.lastIndex = at;
  const verb = VERB.exec(goal);
  if (!verb || !endsName(goal, VERB.lastIndex, false)) return undefined;
  const written = verb[2] as string;
  let end = VERB.lastIndex;
  const withAt = withEnd(goal, end);
  const withArguments = withAt !== undefined && goal[withAt] === '{';
  const known = offered.get(written.toLowerCase());
  if (!known && !withArguments) return undefined;
  const name = known ?? written;
  const clause = `${(verb[1] as string).toLowerCase()} ${name}`;
  let args: Record<string, unknown> = {};
  if (withAt !== undefined) {
    end = withAt;
    if (goal[end] !== '{') throw new ToolClauseError(`"${clause} with" must be followed by a JSON object, e.g. ${clause} with {"orderId": "A-17"}`);
    const close = jsonObjectEnd(goal, end, clause);
    args = parseArguments(goal.slice(end, close), clause);
    end = close;
  }
  return { segment: { kind: 'tool', name, arguments: args, clause }, end };
}

/** Whether a name ending at `end` ends there: the goal ends, or a space or separator (or, after `$name`, `{`) follows. */
function endsName(goal: string, end: number, braceFollows: boolean): boolean {
  return end >= goal.length || AFTER_NAME.test(goal[end] as string) || (braceFollows && goal[end] === '{');
}

/** After ` with` (followed by a space, `{` or the end) at `from`: the index past it and the spaces after it; undefined when there is none. */
function withEnd(goal: string, from: number): number | undefined {
  WITH.lastIndex = from;
  if (!WITH.exec(goal)) return undefined;
  const after = WITH.lastIndex;
  if (after < goal.length && !/\s/.test(goal[after] as string) && goal[after] !== '{') return undefined;
  return skipSpaces(goal, after);
}

/**
 * Where a separator before a clause may start, from `from` on: at `,` `;` `，` or `然`, and at the first
 * space of each run of spaces (never inside one). Trying the sticky {@link CLAUSE_START} only there
 * reads each run once, so finding the clauses stays linear in the goal's length.
 */
function* clauseStarts(goal: string, from: number): Generator<number> {
  for (let i = from; i < goal.length; i++) {
    const c = goal[i] as string;
    if (c === ',' || c === ';' || c === '，' || c === '然' || (/\s/.test(c) && (i === 0 || !/\s/.test(goal[i - 1] as string)))) yield i;
  }
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
