import { AdbDeviceWatcher, adbServerAddress, adbStateReason, createAdbClient, type AdbServerState } from '@mobileclaw/adb-bridge';
import type { HostPort } from './host-port';

/** Exit codes of `mobileclaw adb`. */
export const ADB_BRIDGE_EXIT = {
  /** Stopped by SIGINT/SIGTERM (every bridge closed). */
  stopped: 0,
  /** No adb server answers at start. */
  adbUnreachable: 1,
  /** Invalid command line (commander's usage error). */
  usage: 2,
  /** The gateway refused a bridge's hello (e.g. `UNAUTHORIZED`: a wrong device token). */
  refused: 3,
} as const;

export interface AdbBridgeCommandOptions {
  adb: HostPort;
  gateway: HostPort;
  token: string;
  /** Bridge only this serial (waiting for it to be plugged in). */
  serial?: string;
  /** Aborting stops every bridge; the call then resolves {@link ADB_BRIDGE_EXIT.stopped}. */
  signal: AbortSignal;
  /** Where the progress lines go (one per call, without `\n`). */
  stderr: (line: string) => void;
}

/**
 * `mobileclaw adb`: bridges one serial, or every phone the adb server lists (following plugs and
 * unplugs), to a gateway's device port. Resolves with its exit code ({@link ADB_BRIDGE_EXIT}) once
 * it ends: at the signal, when the adb server cannot be reached at start, or when the gateway
 * refuses a bridge. An adb server lost later (for however long) and an unreachable gateway are
 * retried with backoff.
 */
export function runAdbBridge(options: AdbBridgeCommandOptions): Promise<number> {
  const { adb, gateway, serial, stderr } = options;
  const at = (address: HostPort): string => (address.host.includes(':') ? `[${address.host}]:${address.port}` : `${address.host}:${address.port}`);
  return new Promise((resolve) => {
    /** Whether the adb server ever answered: only a failure before that ends the command; later losses are retried for good. */
    let started = false;
    let tracking = false;
    let finished = false;
    const finish = (code: number): void => {
      if (finished) return;
      finished = true;
      void watcher.stop().then(() => resolve(code));
    };
    const watcher = new AdbDeviceWatcher({
      client: createAdbClient(adb),
      gateway,
      token: options.token,
      ...(serial === undefined ? {} : { serial }),
      onServer: (server: AdbServerState) => {
        if (server.state === 'tracking') {
          started = true;
          tracking = true;
          stderr(`mobileclaw adb: following the adb server at ${at(adb)}; bridging ${serial === undefined ? 'every phone in state "device"' : `phone ${serial} (waiting until adb lists it)`} to the gateway at ${at(gateway)}`);
        } else if (!started) {
          stderr(`mobileclaw adb: ${server.error.message}`);
          finish(ADB_BRIDGE_EXIT.adbUnreachable);
        } else if (tracking) {
          tracking = false;
          stderr(`mobileclaw adb: lost the adb server at ${at(adb)} (${server.error.message}); retrying in ${server.retryInMs} ms`);
        } else {
          stderr(`mobileclaw adb: still no adb server at ${at(adb)}; retrying in ${server.retryInMs} ms`);
        }
      },
      onDevice: ({ serial: s, deviceId, state }) => {
        if (state === 'gone') stderr(`${s}: unplugged; its bridge stopped`);
        else if (state !== 'device' && state !== 'emulator') stderr(`${s}: not bridged: ${adbStateReason(state)}`);
        else {
          stderr(`${s}: plugged in; connecting to the gateway as device ${deviceId}`);
          const link = watcher.bridge(s)?.link;
          link?.on('welcome', (welcome) => stderr(`${s}: online (session ${welcome.sessionId})`));
          link?.on('replaced', () => stderr(replacedNotice(s, deviceId, at(gateway))));
          link?.on('reconnecting', (delayMs) => stderr(`${s}: no connection to the gateway at ${at(gateway)}; retrying in ${delayMs} ms`));
        }
      },
      onBridgeRefused: (s, error) => {
        stderr(`${s}: ${error.message}${error.code === 'UNAUTHORIZED' ? ' — check --token (the gateway prints its device token at start, and keeps it in <data dir>/device-token)' : ''}`);
        finish(ADB_BRIDGE_EXIT.refused);
      },
    });
    options.signal.addEventListener('abort', () => finish(ADB_BRIDGE_EXIT.stopped), { once: true });
    if (options.signal.aborted) finish(ADB_BRIDGE_EXIT.stopped);
    else watcher.start();
  });
}

/**
 * What the CLI prints when the gateway hands a phone's device id to another connection (`error
 * DEVICE_REPLACED`): a second bridge (another `mobileclaw adb`, or a gateway with
 * `MOBILECLAW_ADB=auto` on the same adb server) drives the same phone, and the two take it from
 * each other in turn.
 */
export function replacedNotice(serial: string, deviceId: string, gateway: string): string {
  return (
    `${serial}: another connection claimed device id ${deviceId} at the gateway ${gateway} and took over; ` +
    'is a second `mobileclaw adb` (or a gateway with MOBILECLAW_ADB=auto) bridging this phone? A phone must be bridged by one bridge at a time: stop the other one'
  );
}

/** The adb server named by adb's own `ADB_SERVER_SOCKET`, else 127.0.0.1:5037. @throws RangeError for a form adbkit cannot reach. */
export function defaultAdbServer(env: Record<string, string | undefined>): HostPort {
  return adbServerAddress(env['ADB_SERVER_SOCKET']);
}
