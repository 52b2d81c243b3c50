/**
 * The general-purpose commands adb clients chain around the Android ones: mksh's `echo` (backslash
 * escapes on by default), `true`, `false`, `:`, `sh -c`, `sleep`, and toybox's `cat`, `rm`, `grep`
 * (`-i -v -E -F -c -q -e`, basic or extended regular expressions), `head`, `tail` (`-n N`, `-c N`) and
 * `whoami`.
 */
import { DeviceFiles } from './device-files';
import type { ShellCommandContext } from './shell-runtime';

const ECHO_ESCAPES: Readonly<Record<string, string>> = { a: '\x07', b: '\b', e: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };

export function echoCommand(ctx: ShellCommandContext): number {
  const args = [...ctx.args];
  let newline = true;
  let escapes = true;
  while (args[0] !== undefined && /^-[neE]+$/.test(args[0])) {
    const flags = args.shift() as string;
    if (flags.includes('n')) newline = false;
    if (flags.includes('E')) escapes = false;
    if (flags.includes('e')) escapes = true;
  }
  let text = args.join(' ');
  if (escapes) {
    const stop = text.indexOf('\\c');
    if (stop >= 0) {
      text = text.slice(0, stop);
      newline = false;
    }
    text = text.replace(/\\(0[0-7]{0,3}|.)/g, (whole, code: string) => (code.startsWith('0') ? String.fromCharCode(parseInt(code, 8) || 0) : (ECHO_ESCAPES[code] ?? whole)));
  }
  ctx.stdout.write(Buffer.from(newline ? `${text}\n` : text, 'utf8'));
  return 0;
}

export const trueCommand = (): number => 0;
export const falseCommand = (): number => 1;

export function whoamiCommand(ctx: ShellCommandContext): number {
  ctx.stdout.write('shell\n');
  return 0;
}

/** `sh -c SCRIPT`: runs SCRIPT in a nested shell. */
export async function shCommand(ctx: ShellCommandContext): Promise<number> {
  const [flag, script] = ctx.args;
  if (flag !== '-c' || script === undefined) {
    ctx.stderr.write('/system/bin/sh: only `sh -c SCRIPT` is simulated\n');
    return 2;
  }
  return ctx.runScript(script);
}

/** `sleep SECONDS` (fractions allowed). */
export async function sleepCommand(ctx: ShellCommandContext): Promise<number> {
  const seconds = Number(ctx.args[0]);
  if (ctx.args[0] === undefined || !Number.isFinite(seconds) || seconds < 0) {
    ctx.stderr.write(`sleep: invalid number '${ctx.args[0] ?? ''}'\n`);
    return 1;
  }
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return 0;
}

export function catCommand(ctx: ShellCommandContext): number {
  const paths = ctx.args.filter((a) => a === '-' || !a.startsWith('-'));
  if (paths.length === 0) {
    ctx.stdout.write(ctx.stdin);
    return 0;
  }
  let status = 0;
  for (const path of paths) {
    if (path === '-') {
      ctx.stdout.write(ctx.stdin);
      continue;
    }
    const file = ctx.device.files.read(path);
    if (file) ctx.stdout.write(file.data);
    else {
      ctx.stderr.write(`cat: ${path}: ${ctx.device.files.isDirectory(path) ? 'Is a directory' : 'No such file or directory'}\n`);
      status = 1;
    }
  }
  return status;
}

export function rmCommand(ctx: ShellCommandContext): number {
  const force = ctx.args.some((a) => /^-[a-zA-Z]*f/.test(a));
  let status = 0;
  for (const path of ctx.args.filter((a) => !a.startsWith('-'))) {
    if (ctx.device.files.remove(path) || force) continue;
    ctx.stderr.write(`rm: ${path}: No such file or directory\n`);
    status = 1;
  }
  return status;
}

/** `grep [-ivEFcq] [-e] PATTERN [FILE…]`: exit 0 when a line matched, 1 when none did, 2 for a bad pattern or file. */
export function grepCommand(ctx: ShellCommandContext): number {
  const args = [...ctx.args];
  const flags = new Set<string>();
  const patterns: string[] = [];
  const operands: string[] = [];
  while (args.length > 0) {
    const arg = args.shift() as string;
    if (arg === '-e') patterns.push(args.shift() ?? '');
    else if (arg === '--') operands.push(...args.splice(0));
    else if (/^-[a-zA-Z]+$/.test(arg)) for (const f of arg.slice(1)) flags.add(f);
    else operands.push(arg);
  }
  if (patterns.length === 0) {
    const pattern = operands.shift();
    if (pattern === undefined) {
      ctx.stderr.write('usage: grep [-ivEFcq] [-e PATTERN]... PATTERN [FILE...]\n');
      return 2;
    }
    patterns.push(pattern);
  }
  let matchers: RegExp[];
  try {
    matchers = patterns.map((p) => new RegExp(flags.has('F') ? escapeRegExp(p) : flags.has('E') ? p : basicToExtended(p), flags.has('i') ? 'i' : ''));
  } catch (err) {
    ctx.stderr.write(`grep: bad regex '${patterns.join("' '")}': ${(err as Error).message}\n`);
    return 2;
  }
  let status = 2;
  const inputs: Buffer[] = [];
  if (operands.length === 0) inputs.push(ctx.stdin);
  for (const path of operands) {
    const file = ctx.device.files.read(DeviceFiles.canonical(path));
    if (file) inputs.push(file.data);
    else ctx.stderr.write(`grep: ${path}: No such file or directory\n`);
  }
  let count = 0;
  for (const input of inputs) {
    const text = input.toString('utf8');
    const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text === '' ? [] : text.split('\n');
    for (const line of lines) {
      if (matchers.some((m) => m.test(line)) === flags.has('v')) continue;
      count++;
      if (!flags.has('c') && !flags.has('q')) ctx.stdout.write(`${line}\n`);
    }
    status = 1;
  }
  if (flags.has('c')) ctx.stdout.write(`${count}\n`);
  return count > 0 ? 0 : status;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A POSIX basic regular expression as a JavaScript one: `\( \) \{ \} \| \+ \?` are the operators, bare ones are literal. */
function basicToExtended(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\' && i + 1 < pattern.length) {
      const next = pattern[++i] as string;
      out += '(){}|+?'.includes(next) ? next : `\\${next}`;
    } else {
      out += '(){}|+?'.includes(c) ? `\\${c}` : c;
    }
  }
  return out;
}

/** `head`/`tail` `[-n LINES | -LINES | -c BYTES] [FILE]` (default 10 lines). */
function slice(ctx: ShellCommandContext, from: 'start' | 'end'): number {
  const args = [...ctx.args];
  let lines = 10;
  let bytes: number | undefined;
  let path: string | undefined;
  while (args.length > 0) {
    const arg = args.shift() as string;
    if (arg === '-n') lines = Number(args.shift());
    else if (arg === '-c') bytes = Number(args.shift());
    else if (/^-\d+$/.test(arg)) lines = Number(arg.slice(1));
    else path = arg;
  }
  if (!Number.isInteger(lines) || lines < 0 || (bytes !== undefined && (!Number.isInteger(bytes) || bytes < 0))) {
    ctx.stderr.write(`${ctx.name}: invalid number\n`);
    return 1;
  }
  const file = path === undefined ? { data: ctx.stdin } : ctx.device.files.read(path);
  if (!file) {
    ctx.stderr.write(`${ctx.name}: ${path}: No such file or directory\n`);
    return 1;
  }
  if (bytes !== undefined) {
    ctx.stdout.write(from === 'start' ? file.data.subarray(0, bytes) : file.data.subarray(Math.max(0, file.data.length - bytes)));
    return 0;
  }
  const text = file.data.toString('utf8');
  const all = text.split(/(?<=\n)/);
  ctx.stdout.write((from === 'start' ? all.slice(0, lines) : lines === 0 ? [] : all.slice(-lines)).join(''));
  return 0;
}

export const headCommand = (ctx: ShellCommandContext): number => slice(ctx, 'start');
export const tailCommand = (ctx: ShellCommandContext): number => slice(ctx, 'end');
