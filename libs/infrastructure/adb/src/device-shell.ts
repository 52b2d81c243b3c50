/** How long a device shell command may take, and what abandons it earlier. */
export interface AdbExecOptions {
  /** The command is abandoned (its stream destroyed) after this many ms; the call then rejects {@link AdbShellTimeoutError}. */
  timeoutMs: number;
  /** Aborting abandons the command the same way; the call then rejects with the signal's reason. */
  signal: AbortSignal;
}

/** What a device shell command left: its output and its exit status. */
export interface AdbShellResult {
  /** stdout (stderr merged), byte for byte. */
  output: Buffer;
  /** The command's exit status (`$?`): 0 for success. */
  exitStatus: number;
}

/**
 * The shell of one device over adb: the only I/O the {@link AdbExecutor} does, so that everything
 * above it runs against a scripted fake in tests.
 */
export interface AdbDeviceShell {
  /**
   * Runs `command` with the device's `/system/bin/sh -c` through adb's raw `exec:` service (what
   * `adb exec-out` uses: no pty, so binary output such as a PNG arrives byte for byte, with stderr
   * merged into stdout) and resolves with all of its output and its exit status once the command
   * has provably ended (a connection that merely closes is not an ended command).
   *
   * A command still running at `timeoutMs` or when `signal` aborts is abandoned: its stream is
   * destroyed (adbd then hangs up on the process), never awaited. Rejects {@link AdbShellTimeoutError}
   * at the deadline, the signal's reason on abort, and {@link AdbShellError} when adb refuses or
   * loses the device (e.g. `device offline`, `device 'X' not found`), or the connection closed
   * before the command ended while the device stays listed; {@link AdbDeviceLostError} when it
   * was cut off because the device left adb (unplugged, offline) or the adb server went away.
   */
  exec(command: string, options: AdbExecOptions): Promise<AdbShellResult>;
}

/** A device shell command did not finish within its deadline and was abandoned. */
export class AdbShellTimeoutError extends Error {
  constructor(
    readonly command: string,
    readonly timeoutMs: number,
  ) {
    super(`adb shell \`${command.length > 120 ? `${command.slice(0, 120)}…` : command}\` did not finish within ${Math.round(timeoutMs)} ms; abandoned`);
    this.name = 'AdbShellTimeoutError';
  }
}

/** adb could not run a command on the device (server unreachable, device offline, unauthorized or gone). */
export class AdbShellError extends Error {
  constructor(
    readonly command: string,
    readonly reason: string,
  ) {
    super(`adb could not run \`${command.length > 120 ? `${command.slice(0, 120)}…` : command}\`: ${reason}`);
    this.name = 'AdbShellError';
  }
}

/** A command was cut off because its device left adb (unplugged, offline, …) or the adb server went away. */
export class AdbDeviceLostError extends AdbShellError {
  constructor(command: string, reason: string) {
    super(command, reason);
    this.name = 'AdbDeviceLostError';
  }
}
