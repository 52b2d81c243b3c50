import { AdbShellTimeoutError, type AdbDeviceShell, type AdbExecOptions, type AdbShellResult } from '../device-shell';

/** What a scripted command answers: its output (exit status 0), its output with an exit status, a failure, or nothing until abandoned. */
export type ScriptedReply = string | Buffer | { output: string; exitStatus: number } | Error | { hang: true };

/** One command the shell was asked to run. */
export interface ShellCall {
  command: string;
  /** The deadline it was given, in ms. */
  timeoutMs: number;
  /** How a hung command ended: `timeout` (its deadline passed) or `aborted` (its signal fired); undefined while running or when it answered. */
  abandoned?: 'timeout' | 'aborted';
}

/**
 * An {@link AdbDeviceShell} that answers from a script, for tests without adb: one-shot replies are
 * used once, in the order given, by the first call of that exact command; standing replies answer
 * that command every time. A command with neither is rejected (and recorded), so a test sees any
 * command it did not expect. A `{hang: true}` reply keeps the call open and honours the port's
 * contract: it rejects {@link AdbShellTimeoutError} at `timeoutMs` and the signal's reason on abort.
 */
export class ScriptedAdbShell implements AdbDeviceShell {
  /** Every call, in order. */
  readonly calls: ShellCall[] = [];
  private readonly once: Array<{ command: string; reply: ScriptedReply }> = [];
  private readonly standing = new Map<string, ScriptedReply>();
  private waiters: Array<{ command: string; resolve: (call: ShellCall) => void }> = [];

  /** Answers the next call of `command` with `reply` (once). */
  reply(command: string, reply: ScriptedReply): this {
    this.once.push({ command, reply });
    return this;
  }

  /** Answers every call of `command` with `reply` (after any one-shot replies for it). */
  always(command: string, reply: ScriptedReply): this {
    this.standing.set(command, reply);
    return this;
  }

  /** Resolves with the next call of `command` (or the first one, if it was already made). */
  called(command: string): Promise<ShellCall> {
    const made = this.calls.find((c) => c.command === command);
    if (made) return Promise.resolve(made);
    return new Promise((resolve) => this.waiters.push({ command, resolve }));
  }

  /** The commands run so far, in order. */
  get commands(): string[] {
    return this.calls.map((c) => c.command);
  }

  exec(command: string, options: AdbExecOptions): Promise<AdbShellResult> {
    const call: ShellCall = { command, timeoutMs: options.timeoutMs };
    this.calls.push(call);
    for (const waiter of this.waiters.filter((w) => w.command === command)) waiter.resolve(call);
    this.waiters = this.waiters.filter((w) => w.command !== command);
    if (options.signal.aborted) {
      call.abandoned = 'aborted';
      return Promise.reject(options.signal.reason);
    }
    const index = this.once.findIndex((entry) => entry.command === command);
    const reply = index >= 0 ? this.once.splice(index, 1)[0]?.reply : this.standing.get(command);
    if (reply === undefined) return Promise.reject(new Error(`unexpected command: ${command}`));
    if (reply instanceof Error) return Promise.reject(reply);
    if (typeof reply === 'string') return Promise.resolve({ output: Buffer.from(reply, 'utf8'), exitStatus: 0 });
    if (Buffer.isBuffer(reply)) return Promise.resolve({ output: reply, exitStatus: 0 });
    if ('output' in reply) return Promise.resolve({ output: Buffer.from(reply.output, 'utf8'), exitStatus: reply.exitStatus });
    return new Promise<AdbShellResult>((_resolve, reject) => {
      const timer = setTimeout(() => {
        call.abandoned = 'timeout';
        options.signal.removeEventListener('abort', onAbort);
        reject(new AdbShellTimeoutError(command, options.timeoutMs));
      }, options.timeoutMs);
      const onAbort = (): void => {
        clearTimeout(timer);
        call.abandoned = 'aborted';
        reject(options.signal.reason);
      };
      options.signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
