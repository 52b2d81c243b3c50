import { randomBytes } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { ShellCommand, type DeviceClient } from '@devicefarmer/adbkit';
import { AdbDeviceLostError, AdbShellError, AdbShellTimeoutError, type AdbDeviceShell, type AdbExecOptions, type AdbShellResult } from './device-shell';

/**
 * adb's raw `exec:<command>` service (what `adb exec-out` sends). adbkit's `shell()` sends `shell:`,
 * which on devices before Android 7 runs under a pty that turns every `\n` into `\r\n` and so breaks
 * binary output; `exec:` (Android 5.0+) never does. Same handshake as adbkit's own ShellCommand.
 */
class ExecCommand extends ShellCommand {
  override execute(command: string): ReturnType<ShellCommand['execute']> {
    this._send(`exec:${command}`);
    return this.parser.readAscii(4).then((reply: string) => {
      switch (reply) {
        case 'OKAY':
          return this.parser.raw();
        case 'FAIL':
          return this.parser.readError();
        default:
          return this.parser.unexpected(reply, 'OKAY or FAIL');
      }
    });
  }
}

/** The adb server's address: host and TCP port. */
export interface AdbServerAddress {
  host: string;
  port: number;
}

/** The adb server every adb client uses unless told otherwise. */
export const DEFAULT_ADB_SERVER: Readonly<AdbServerAddress> = Object.freeze({ host: '127.0.0.1', port: 5037 });

/**
 * The adb server named by an `ADB_SERVER_SOCKET` value, as adb itself reads it: `tcp:<port>` or
 * `tcp:<host>:<port>` (an IPv6 host in brackets); undefined or empty means {@link DEFAULT_ADB_SERVER}.
 * adbkit does not read this variable itself, so the caller passes the result to `Adb.createClient`.
 *
 * @throws RangeError for any other form (e.g. `localfilesystem:…`, which adbkit cannot reach) or a port outside 1–65535.
 */
export function adbServerAddress(value: string | undefined): AdbServerAddress {
  if (value === undefined || value.trim() === '') return { ...DEFAULT_ADB_SERVER };
  const match = /^tcp:(?:(\[[0-9A-Fa-f:.]+\]|[^:[\]]+):)?(\d+)$/.exec(value.trim());
  const port = match ? Number(match[2]) : NaN;
  if (!match || !(port >= 1 && port <= 65535)) throw new RangeError(`ADB_SERVER_SOCKET must be tcp:<port> or tcp:<host>:<port>, got ${JSON.stringify(value)}`);
  const host = match[1] === undefined ? DEFAULT_ADB_SERVER.host : match[1].replace(/^\[(.*)\]$/, '$1');
  return { host, port };
}

/** The part of adbkit's `DeviceClient` this shell uses. */
export type AdbkitDevice = Pick<DeviceClient, 'serial' | 'transport' | 'getState'>;

/**
 * The line a command's shell prints last, `<marker>:<exit status>`: adb (and adbd when a phone
 * drops) ends a command's connection the same way whether the command finished or was cut off, so
 * only this line proves that it finished. The marker is random per command so that no output can
 * forge it.
 */
export function withExitMarker(command: string, marker: string): string {
  return `${command}; echo "${marker}:$?"`;
}

/** The output before the exit marker line, and the exit status it carries; undefined when the marker line is missing (the command was cut off). */
export function readExitMarker(stream: Buffer, marker: string): AdbShellResult | undefined {
  const at = stream.lastIndexOf(`${marker}:`);
  if (at < 0) return undefined;
  const status = /^(\d+)\r?\n?$/.exec(stream.toString('latin1', at + marker.length + 1));
  if (!status) return undefined;
  return { output: stream.subarray(0, at), exitStatus: Number(status[1]) };
}

/** {@link AdbDeviceShell} over adbkit: each command is one adb connection running `exec:`, ended by its exit marker ({@link withExitMarker}). */
export class AdbkitDeviceShell implements AdbDeviceShell {
  constructor(private readonly device: AdbkitDevice) {}

  exec(command: string, options: AdbExecOptions): Promise<AdbShellResult> {
    const { timeoutMs, signal } = options;
    if (signal.aborted) return Promise.reject(abortReason(signal));
    const marker = `mobileclaw-exit-${randomBytes(8).toString('hex')}`;
    return new Promise<AdbShellResult>((resolve, reject) => {
      let stream: Duplex | undefined;
      let settled = false;
      const settle = (err: unknown, output?: AdbShellResult): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        if (err === undefined && output !== undefined) {
          resolve(output);
          return;
        }
        // Abandon, never await: destroying the stream closes the adb connection, and adbd hangs up on the process.
        stream?.destroy();
        reject(err);
      };
      const timer = setTimeout(() => settle(new AdbShellTimeoutError(command, timeoutMs)), Math.max(1, Math.min(timeoutMs, 2 ** 31 - 1)));
      const onAbort = (): void => settle(abortReason(signal));
      signal.addEventListener('abort', onAbort, { once: true });
      Promise.resolve(this.device.transport())
        .then((transport) => {
          if (settled) {
            transport.end();
            return undefined;
          }
          return Promise.resolve(new ExecCommand(transport).execute(withExitMarker(command, marker)));
        })
        .then(
          (opened) => {
            if (!opened) return;
            stream = opened;
            if (settled) {
              opened.destroy();
              return;
            }
            const chunks: Buffer[] = [];
            opened.on('data', (chunk: Buffer) => chunks.push(chunk));
            opened.on('end', () => {
              const result = readExitMarker(Buffer.concat(chunks), marker);
              if (result) settle(undefined, result);
              else void this.cutOff(command).then((err) => settle(err));
            });
            opened.on('error', (err: Error) => settle(new AdbShellError(command, err.message)));
          },
          (err: unknown) => settle(new AdbShellError(command, `${this.device.serial}: ${adbFailure(err)}`)),
        );
    });
  }

  /**
   * Why a command's connection closed before its exit marker: the device's adb state now
   * (`host-serial:<serial>:get-state`) tells an unplugged phone or a lost adb server
   * ({@link AdbDeviceLostError}) from a connection lost on its own ({@link AdbShellError}).
   */
  private async cutOff(command: string): Promise<AdbShellError> {
    const serial = this.device.serial;
    try {
      const state = await this.device.getState();
      if (state !== 'device' && state !== 'emulator') return new AdbDeviceLostError(command, `${serial}: the command was cut off: the device is now ${state}`);
      return new AdbShellError(command, `${serial}: the adb connection closed before the command finished`);
    } catch (err) {
      return new AdbDeviceLostError(command, `${serial}: the command was cut off: ${adbFailure(err)}`);
    }
  }
}

/** adb's own words from an adbkit failure (its FailError reads `Failure: '<message>'`). */
function adbFailure(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return /^Failure: '(.*)'$/s.exec(message)?.[1] ?? message;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('aborted');
}
