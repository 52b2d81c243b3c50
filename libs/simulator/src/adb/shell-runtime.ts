/**
 * Runs scripts in the simulated phone's `/system/bin/sh`: parses them (sh-parser.ts), expands words,
 * wires pipes and redirections, and calls the device commands. Output is raw bytes: standard output
 * and standard error both go to the connection, as adbd's raw (non-`shell,v2`) shell does, unless a
 * redirection sends them elsewhere.
 */
import type { PhoneUi } from '../phone-ui';
import type { DeviceFiles } from './device-files';
import type { DeviceSettings } from './device-settings';
import { expandWord, parseScript, type AndOrList, type Pipeline, type SimpleCommand } from './sh-parser';

/** Where a command writes; strings are written as UTF-8. */
export interface OutputSink {
  write(data: string | Buffer): void;
}

/** What the shell and its commands act on. */
export interface ShellDevice {
  readonly serial: string;
  readonly ui: PhoneUi;
  /** System properties (`getprop`). */
  readonly properties: Readonly<Record<string, string>>;
  readonly files: DeviceFiles;
  readonly settings: DeviceSettings;
}

/** One command's invocation: `args` exclude the command name; returns its exit status (0–255). */
export interface ShellCommandContext {
  device: ShellDevice;
  /** The name it was called by (`input`, or `/system/bin/input` as typed). */
  name: string;
  args: string[];
  stdin: Buffer;
  stdout: OutputSink;
  stderr: OutputSink;
  /** Runs `script` in a nested shell with the same output (`sh -c`), returning its status. */
  runScript(script: string): Promise<number>;
}

export type ShellCommand = (ctx: ShellCommandContext) => number | Promise<number>;

/** What a device shell prefixes its own errors with. */
export const SHELL_PATH = '/system/bin/sh';

/** Exit status of a command that does not exist (and of a script the shell cannot run). */
export const STATUS_NOT_FOUND = 127;

/** Directories whose programs are found when named by path (`/system/bin/input`). */
const BIN_DIRECTORIES = ['/system/bin', '/system/xbin', '/vendor/bin', '/bin', '/product/bin', '/system_ext/bin'];

/** Environment of an adb shell session (the variables a script may read). */
const SHELL_ENVIRONMENT: Readonly<Record<string, string>> = {
  PATH: '/product/bin:/apex/com.android.runtime/bin:/apex/com.android.art/bin:/system_ext/bin:/system/bin:/system/xbin:/odm/bin:/vendor/bin:/vendor/xbin',
  HOME: '/',
  USER: 'shell',
  LOGNAME: 'shell',
  SHELL: '/bin/sh',
  TMPDIR: '/data/local/tmp',
  ANDROID_DATA: '/data',
  ANDROID_ROOT: '/system',
  EXTERNAL_STORAGE: '/sdcard',
};

/** Thrown by the `exit` builtin to end the script with `status`. */
class ShellExit {
  constructor(readonly status: number) {}
}

const DISCARD: OutputSink = { write: () => undefined };

/** Collects what is written (a pipe, or a file being written). */
class Capture implements OutputSink {
  private readonly chunks: Buffer[] = [];

  write(data: string | Buffer): void {
    this.chunks.push(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
}

/**
 * A shell session on one device: `run(script, terminal)` executes a whole `shell:`/`exec:` command
 * line and resolves with the status of the last command. Never rejects for anything the script
 * does: syntax errors, unknown commands and failing commands print their message to `terminal`.
 */
export class DeviceShell {
  private readonly variables = new Map<string, string>(Object.entries(SHELL_ENVIRONMENT));
  private status = 0;

  constructor(
    private readonly device: ShellDevice,
    private readonly commands: ReadonlyMap<string, ShellCommand>,
  ) {}

  async run(script: string, terminal: OutputSink): Promise<number> {
    try {
      await this.script(script, terminal, terminal);
    } catch (err) {
      if (!(err instanceof ShellExit)) throw err;
      this.status = err.status;
    }
    return this.status;
  }

  private async script(script: string, stdout: OutputSink, stderr: OutputSink): Promise<void> {
    const parsed = parseScript(script);
    for (const line of parsed.lines) for (const list of line) await this.andOr(list, stdout, stderr);
    if (parsed.error) {
      stderr.write(`${SHELL_PATH}: ${parsed.error.message}\n`);
      this.status = 1;
    }
  }

  private async andOr(list: AndOrList, stdout: OutputSink, stderr: OutputSink): Promise<void> {
    await this.pipeline(list.first, stdout, stderr);
    for (const { op, pipeline } of list.rest) {
      if ((op === '&&') === (this.status === 0)) await this.pipeline(pipeline, stdout, stderr);
    }
  }

  private async pipeline(pipeline: Pipeline, stdout: OutputSink, stderr: OutputSink): Promise<void> {
    let input: Buffer = Buffer.alloc(0);
    for (const [i, command] of pipeline.entries()) {
      const last = i === pipeline.length - 1;
      const capture = last ? null : new Capture();
      this.status = await this.simple(command, input, capture ?? stdout, stderr);
      if (capture) input = capture.bytes();
    }
  }

  private lookup = (name: string): string => {
    if (name === '?') return String(this.status);
    if (name === '$') return '4242';
    if (name === '#') return '0';
    if (name === '0') return SHELL_PATH;
    return this.variables.get(name) ?? '';
  };

  private async simple(command: SimpleCommand, stdin: Buffer, stdout: OutputSink, stderr: OutputSink): Promise<number> {
    const fds: { input: Buffer; 1: OutputSink; 2: OutputSink } = { input: stdin, 1: stdout, 2: stderr };
    const files: { path: string; capture: Capture; append: boolean }[] = [];
    for (const redirect of command.redirects) {
      const target = expandWord(redirect.target, this.lookup).join(' ');
      const fd = redirect.fd;
      if (redirect.op === '>&' || redirect.op === '<&') {
        if (target === '-') {
          if (fd === 1 || fd === 2) fds[fd] = DISCARD;
        } else if ((target === '1' || target === '2') && (fd === 1 || fd === 2)) {
          fds[fd] = fds[Number(target) as 1 | 2];
        } else if (!/^\d+$/.test(target)) {
          stderr.write(`${SHELL_PATH}: ${target}: illegal file descriptor name\n`);
          return 1;
        }
        continue;
      }
      if (redirect.op === '<') {
        const file = target === '/dev/null' ? { data: Buffer.alloc(0) } : this.device.files.read(target);
        if (!file) {
          stderr.write(`${SHELL_PATH}: can't open ${target}: No such file or directory\n`);
          return 1;
        }
        if (fd === 0) fds.input = file.data;
        continue;
      }
      const sink = this.openForWrite(target, redirect.op === '>>', fds, files);
      if (!sink) {
        stderr.write(`${SHELL_PATH}: can't create ${target}: Permission denied\n`);
        return 1;
      }
      if (fd === 1 || fd === 2) fds[fd] = sink;
    }

    const fields = command.words.flatMap((word) => expandWord(word, this.lookup));
    const assignments = command.assignments.map(({ name, value }) => [name, expandWord(value, this.lookup).join(' ')] as const);
    let status: number;
    if (fields.length === 0) {
      for (const [name, value] of assignments) this.variables.set(name, value);
      status = 0;
    } else {
      status = await this.invoke(fields[0] as string, fields.slice(1), fds.input, fds[1], fds[2]);
    }
    for (const file of files) this.device.files.write(file.path, file.capture.bytes(), file.append);
    return status;
  }

  private openForWrite(target: string, append: boolean, fds: { 1: OutputSink; 2: OutputSink }, files: { path: string; capture: Capture; append: boolean }[]): OutputSink | null {
    if (target === '/dev/null') return DISCARD;
    if (target === '/dev/stdout') return fds[1];
    if (target === '/dev/stderr') return fds[2];
    if (target === '/dev/tty') return fds[1];
    if (!this.device.files.writable(target)) return null;
    const capture = new Capture();
    files.push({ path: target, capture, append });
    return capture;
  }

  private async invoke(name: string, args: string[], stdin: Buffer, stdout: OutputSink, stderr: OutputSink): Promise<number> {
    if (name === 'exit') {
      const status = args[0] === undefined ? this.status : Number(args[0]);
      throw new ShellExit(Number.isInteger(status) ? status & 0xff : 255);
    }
    const command = this.commands.get(programName(name));
    if (!command) {
      stderr.write(`${SHELL_PATH}: ${name}: inaccessible or not found\n`);
      return STATUS_NOT_FOUND;
    }
    const context: ShellCommandContext = {
      device: this.device,
      name,
      args,
      stdin,
      stdout,
      stderr,
      runScript: async (script) => {
        const nested = new DeviceShell(this.device, this.commands);
        await nested.script(script, stdout, stderr).catch((err: unknown) => {
          if (!(err instanceof ShellExit)) throw err;
          nested.status = err.status;
        });
        return nested.status;
      },
    };
    return (await command(context)) & 0xff;
  }
}

/** The command a name runs: itself, or the basename of a path into one of the bin directories. */
function programName(name: string): string {
  if (!name.includes('/')) return name;
  const slash = name.lastIndexOf('/');
  return BIN_DIRECTORIES.includes(name.slice(0, slash)) ? name.slice(slash + 1) : `\0${name}`;
}

/**
 * The two lines an Android `cmd` prints when its Java code throws (what `input`, `am`, `pm` and
 * `settings` show for bad arguments), e.g. `Exception occurred while executing 'tap':` and
 * `java.lang.NumberFormatException: For input string: "x"`.
 */
export function javaException(subcommand: string, exception: string, message: string): string {
  return `Exception occurred while executing '${subcommand}':\n${exception}: ${message}\n`;
}
