/**
 * The part of the device shell's (mksh, `/system/bin/sh`) grammar that adb clients depend on: words
 * with single quotes, double quotes and backslash escapes; `$name`, `${name}`, `$?` and the other
 * special parameters; `;`, `&`, `&&`, `||`, `|` and newlines; redirections (`>`, `>>`, `<`, `2>`,
 * `2>&1`); comments; `NAME=value` assignments. This is what makes a host's quoting right or wrong on
 * the phone: `input text a&b` runs `input text a` and then a command `b`, as on a real device.
 *
 * Not accepted (a {@link ShellSyntaxError} that says so): command substitution, subshells and
 * grouping, and the compound commands (`if`, `for`, `while`, `case`, functions). Globs are left
 * literal (the simulated phone has no directory tree to match them against).
 */

/** A piece of a word: literal text, or a parameter to expand; `quoted` parts are never split or dropped. */
export type WordPart = { kind: 'text'; value: string; quoted: boolean } | { kind: 'param'; name: string; quoted: boolean };

/** One shell word before expansion. */
export type Word = WordPart[];

/** `fd op target`: `>` `>>` `<` open a file; `>&` `<&` duplicate another descriptor (`2>&1`). */
export interface Redirect {
  fd: number;
  op: '>' | '>>' | '<' | '>&' | '<&';
  target: Word;
}

export interface SimpleCommand {
  assignments: { name: string; value: Word }[];
  words: Word[];
  redirects: Redirect[];
}

/** Commands joined by `|`, each one's standard output feeding the next one's input. */
export type Pipeline = SimpleCommand[];

/** Pipelines joined by `&&` / `||`. */
export interface AndOrList {
  first: Pipeline;
  rest: { op: '&&' | '||'; pipeline: Pipeline }[];
}

/** One line of a script: and-or lists separated by `;` or `&` (run one after the other here). */
export type CommandLine = AndOrList[];

/** A script the shell cannot parse; `message` is what mksh prints after `/system/bin/sh: `. */
export class ShellSyntaxError extends Error {
  readonly code = 'SHELL_SYNTAX_ERROR' as const;

  constructor(message: string) {
    super(message);
    this.name = 'ShellSyntaxError';
  }
}

/** A parsed script: its complete lines, and the error that stopped parsing (lines before it still run, as in mksh). */
export interface ParsedScript {
  lines: CommandLine[];
  error?: ShellSyntaxError;
}

type Token = { type: 'word'; word: Word; raw: string } | { type: 'op'; op: string; fd?: number } | { type: 'newline' } | { type: 'eof' };

const METACHARACTERS = new Set([' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')']);
const OPERATORS = ['&&', '||', '>>', '>&', '<&', ';;', ';', '&', '|', '<', '>', '(', ')'];
const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'for', 'while', 'until', 'do', 'done', 'case', 'esac', 'function', 'select', 'time', '{', '}', '[[', '!']);
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SPECIAL_PARAMETERS = new Set(['?', '$', '#', '!', '-', '@', '*']);

/** Splits a script into lines of commands. Never throws: a syntax error ends the script at that line. */
export function parseScript(script: string): ParsedScript {
  const parser = new Parser(script);
  const lines: CommandLine[] = [];
  try {
    for (let line = parser.line(); line !== null; line = parser.line()) if (line.length > 0) lines.push(line);
    return { lines };
  } catch (err) {
    if (err instanceof ShellSyntaxError) return { lines, error: err };
    throw err;
  }
}

class Parser {
  private pos = 0;
  private peeked: Token | null = null;

  constructor(private readonly src: string) {}

  /** The next line (possibly empty), or null at the end of the script. */
  line(): CommandLine | null {
    const lists: CommandLine = [];
    for (;;) {
      const token = this.peek();
      if (token.type === 'eof') return lists.length === 0 ? null : lists;
      if (token.type === 'newline') {
        this.next();
        return lists;
      }
      lists.push(this.andOr());
      const after = this.peek();
      if (after.type === 'op' && (after.op === ';' || after.op === '&')) {
        this.next();
        continue;
      }
      if (after.type !== 'newline' && after.type !== 'eof') throw unexpected(after);
    }
  }

  private andOr(): AndOrList {
    const list: AndOrList = { first: this.pipeline(), rest: [] };
    for (let token = this.peek(); token.type === 'op' && (token.op === '&&' || token.op === '||'); token = this.peek()) {
      this.next();
      this.skipNewlines();
      list.rest.push({ op: token.op, pipeline: this.pipeline() });
    }
    return list;
  }

  private pipeline(): Pipeline {
    const commands = [this.command()];
    while (this.peek().type === 'op' && (this.peek() as { op: string }).op === '|') {
      this.next();
      this.skipNewlines();
      commands.push(this.command());
    }
    return commands;
  }

  private command(): SimpleCommand {
    const command: SimpleCommand = { assignments: [], words: [], redirects: [] };
    for (;;) {
      const token = this.peek();
      if (token.type === 'word') {
        this.next();
        if (command.words.length === 0) {
          const assignment = asAssignment(token);
          if (assignment) {
            command.assignments.push(assignment);
            continue;
          }
          if (RESERVED.has(token.raw)) throw new ShellSyntaxError(`'${token.raw}': compound commands are not supported by the simulated shell`);
        }
        command.words.push(token.word);
      } else if (token.type === 'op' && ['>', '>>', '<', '>&', '<&'].includes(token.op)) {
        this.next();
        const target = this.next();
        if (target.type !== 'word') throw unexpected(target);
        const op = token.op as Redirect['op'];
        command.redirects.push({ fd: token.fd ?? (op === '<' || op === '<&' ? 0 : 1), op, target: target.word });
      } else {
        break;
      }
    }
    if (command.words.length === 0 && command.assignments.length === 0 && command.redirects.length === 0) throw unexpected(this.peek());
    return command;
  }

  private skipNewlines(): void {
    while (this.peek().type === 'newline') this.next();
  }

  private peek(): Token {
    this.peeked ??= this.lex();
    return this.peeked;
  }

  private next(): Token {
    const token = this.peek();
    this.peeked = null;
    return token;
  }

  private lex(): Token {
    const src = this.src;
    while (this.pos < src.length) {
      const c = src[this.pos] as string;
      if (c === ' ' || c === '\t') this.pos++;
      else if (c === '\\' && src[this.pos + 1] === '\n') this.pos += 2;
      else if (c === '#') while (this.pos < src.length && src[this.pos] !== '\n') this.pos++;
      else break;
    }
    if (this.pos >= src.length) return { type: 'eof' };
    if (src[this.pos] === '\n') {
      this.pos++;
      return { type: 'newline' };
    }
    // An IO number: digits written right before `<` or `>` (`2>/dev/null`).
    const io = /^(\d+)(?=[<>])/.exec(src.slice(this.pos, this.pos + 12));
    if (io) {
      this.pos += (io[1] as string).length;
      const op = this.operator() as string;
      return { type: 'op', op, fd: Number(io[1]) };
    }
    const op = this.operator();
    if (op !== null) {
      if (op === '(' || op === ')') throw new ShellSyntaxError(`syntax error: '${op}' unexpected`);
      if (op === ';;') throw new ShellSyntaxError(`syntax error: ';;' unexpected`);
      return { type: 'op', op };
    }
    return this.word();
  }

  private operator(): string | null {
    for (const op of OPERATORS) {
      if (this.src.startsWith(op, this.pos)) {
        this.pos += op.length;
        return op;
      }
    }
    return null;
  }

  private word(): Token {
    const src = this.src;
    const start = this.pos;
    const parts: Word = [];
    const text = (value: string, quoted: boolean): void => {
      const last = parts[parts.length - 1];
      if (last && last.kind === 'text' && last.quoted === quoted) last.value += value;
      else parts.push({ kind: 'text', value, quoted });
    };
    while (this.pos < src.length) {
      const c = src[this.pos] as string;
      if (METACHARACTERS.has(c)) break;
      if (c === '\\') {
        const escaped = src[this.pos + 1];
        if (escaped === undefined) {
          text('\\', false);
          this.pos++;
        } else if (escaped === '\n') {
          this.pos += 2;
        } else {
          text(escaped, true);
          this.pos += 2;
        }
      } else if (c === "'") {
        const end = src.indexOf("'", this.pos + 1);
        if (end < 0) throw new ShellSyntaxError('no closing quote');
        text(src.slice(this.pos + 1, end), true);
        this.pos = end + 1;
      } else if (c === '"') {
        this.doubleQuoted(parts, text);
      } else if (c === '$') {
        this.parameter(parts, text, false);
      } else if (c === '`') {
        throw new ShellSyntaxError('command substitution (`…`) is not supported by the simulated shell');
      } else {
        text(c, false);
        this.pos++;
      }
    }
    return { type: 'word', word: parts, raw: src.slice(start, this.pos) };
  }

  private doubleQuoted(parts: Word, text: (value: string, quoted: boolean) => void): void {
    const src = this.src;
    this.pos++;
    // An empty "" still makes a (quoted, empty) word.
    text('', true);
    for (;;) {
      if (this.pos >= src.length) throw new ShellSyntaxError('no closing quote');
      const c = src[this.pos] as string;
      if (c === '"') {
        this.pos++;
        return;
      }
      if (c === '\\') {
        const escaped = src[this.pos + 1];
        if (escaped === '\n') this.pos += 2;
        else if (escaped !== undefined && '$`"\\'.includes(escaped)) {
          text(escaped, true);
          this.pos += 2;
        } else {
          text('\\', true);
          this.pos++;
        }
      } else if (c === '$') {
        this.parameter(parts, text, true);
      } else if (c === '`') {
        throw new ShellSyntaxError('command substitution (`…`) is not supported by the simulated shell');
      } else {
        text(c, true);
        this.pos++;
      }
    }
  }

  /** At a `$`: a parameter (`$?`, `$1`, `$name`, `${name}`), or a literal `$` when nothing follows that names one. */
  private parameter(parts: Word, text: (value: string, quoted: boolean) => void, quoted: boolean): void {
    const src = this.src;
    const next = src[this.pos + 1];
    if (next === '(') throw new ShellSyntaxError('command substitution ($(…)) is not supported by the simulated shell');
    if (next === '{') {
      const end = src.indexOf('}', this.pos + 2);
      const name = end < 0 ? '' : src.slice(this.pos + 2, end);
      if (end < 0 || !(NAME.test(name) || /^\d+$/.test(name) || SPECIAL_PARAMETERS.has(name))) throw new ShellSyntaxError(`${src.slice(this.pos, end < 0 ? undefined : end + 1)}: bad substitution`);
      parts.push({ kind: 'param', name, quoted });
      this.pos = end + 1;
      return;
    }
    if (next !== undefined && (SPECIAL_PARAMETERS.has(next) || /\d/.test(next))) {
      parts.push({ kind: 'param', name: next, quoted });
      this.pos += 2;
      return;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(this.pos + 1))?.[0];
    if (name) {
      parts.push({ kind: 'param', name, quoted });
      this.pos += 1 + name.length;
      return;
    }
    text('$', quoted);
    this.pos++;
  }
}

function asAssignment(token: { word: Word; raw: string }): { name: string; value: Word } | null {
  const first = token.word[0];
  if (!first || first.kind !== 'text' || first.quoted) return null;
  const eq = first.value.indexOf('=');
  if (eq <= 0 || !NAME.test(first.value.slice(0, eq))) return null;
  const rest = first.value.slice(eq + 1);
  const value: Word = rest === '' ? [] : [{ kind: 'text', value: rest, quoted: false }];
  return { name: first.value.slice(0, eq), value: [...value, ...token.word.slice(1)] };
}

function unexpected(token: Token): ShellSyntaxError {
  if (token.type === 'eof') return new ShellSyntaxError('syntax error: unexpected EOF');
  if (token.type === 'newline') return new ShellSyntaxError("syntax error: newline unexpected");
  return new ShellSyntaxError(`syntax error: '${token.type === 'op' ? token.op : token.raw}' unexpected`);
}

/**
 * The fields a word expands to: parameters replaced by `lookup` (unset = empty), unquoted
 * expansions split at blanks and newlines (IFS), and an unquoted word that expands to nothing
 * dropped; a word with any quoted part always yields at least one field.
 */
export function expandWord(word: Word, lookup: (name: string) => string): string[] {
  const fields: string[] = [];
  let current = '';
  let open = false;
  for (const part of word) {
    if (part.kind === 'text') {
      current += part.value;
      open ||= part.quoted || part.value !== '';
      continue;
    }
    const value = lookup(part.name);
    if (part.quoted) {
      current += value;
      open = true;
      continue;
    }
    const pieces = value.split(/[ \t\n]+/);
    pieces.forEach((piece, i) => {
      if (i > 0 && open) {
        fields.push(current);
        current = '';
        open = false;
      }
      if (piece !== '') {
        current += piece;
        open = true;
      }
    });
  }
  if (open) fields.push(current);
  return fields;
}
