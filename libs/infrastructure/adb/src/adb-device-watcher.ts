import type { Client, Device } from '@devicefarmer/adbkit';
import { GatewayRefusedError, ReconnectBackoff, SYSTEM_RECONNECT_TIMERS, type ReconnectBackoffOptions, type ReconnectTimers, type ScheduledTimer } from '@mobileclaw/phone-link';
import { AdbBridge, deviceIdForSerial, type AdbBridgeOptions } from './adb-bridge';

/** What adb's device tracker reports for a device; `device` means ready. */
type Tracker = Awaited<ReturnType<Client['trackDevices']>>;

/** A phone's adb state as the watcher reports it: adb's own (`device`, `unauthorized`, `offline`, `recovery`, …) or `gone` (unplugged). */
export interface AdbDeviceState {
  serial: string;
  /** The device id its bridge announces ({@link deviceIdForSerial}). */
  deviceId: string;
  state: string;
}

/** The adb server's reachability, as the watcher sees it. */
export type AdbServerState = { state: 'tracking' } | { state: 'unreachable'; error: Error; retryInMs: number };

export interface AdbDeviceWatcherOptions {
  /** An adbkit client (see `createAdbClient`, which never starts an adb server of its own). */
  client: Pick<Client, 'trackDevices' | 'getDevice'>;
  /** The gateway's device port. */
  gateway: { host: string; port: number };
  /** The gateway's device token. */
  token: string;
  /** Bridge only the phone with this serial (others are ignored). Default: every phone. */
  serial?: string;
  /** Every change of a watched phone's state: `device` (its bridge starts), any other adb state (no bridge), `gone`. */
  onDevice?: (device: AdbDeviceState) => void;
  /** The adb server became reachable (`tracking`) or could not be reached or was lost (`unreachable`, retried after `retryInMs`). */
  onServer?: (server: AdbServerState) => void;
  /** A bridge's start failed for good: the gateway refused its hello (e.g. `UNAUTHORIZED`: a wrong device token). */
  onBridgeRefused?: (serial: string, error: GatewayRefusedError) => void;
  /** Backoff of the adb server reconnects. Default 1 s doubling to 30 s. */
  backoff?: ReconnectBackoffOptions;
  timers?: ReconnectTimers;
  /** Options passed to every bridge (reconnect backoff, diagnostic log). */
  bridge?: Pick<AdbBridgeOptions, 'backoff' | 'timers' | 'log'>;
  /** Diagnostic output, one line per call. Default: none. */
  log?: (line: string) => void;
}

/** adb's words for the states in which a phone cannot be driven, turned into what to do. */
const STATE_HINTS: Record<string, string> = {
  unauthorized: 'accept the "Allow USB debugging?" prompt on the phone (unlock it first), or run `adb kill-server` and plug it in again',
  offline: 'the phone does not answer adb; unplug and plug it in again, or run `adb reconnect offline`',
  authorizing: 'adb is checking this computer\'s key with the phone',
  connecting: 'adb is connecting to the phone',
  'no permissions': 'this user may not open the USB device; see https://developer.android.com/studio/run/device (udev rules)',
};

/** The `statusReason` of a phone adb lists in `state`, e.g. `adb: unauthorized — accept the "Allow USB debugging?" prompt …`. */
export function adbStateReason(state: string): string {
  const hint = STATE_HINTS[state];
  return hint === undefined ? `adb: ${state}` : `adb: ${state} — ${hint}`;
}

/** Whether adb's state means the phone can be driven (adbkit reports an emulator's `device` as `emulator` on some servers). */
function ready(state: string): boolean {
  return state === 'device' || state === 'emulator';
}

/**
 * Follows adb's device list (`host:track-devices` through adbkit) and runs one {@link AdbBridge} per
 * phone in state `device`, connected to the gateway's device port: a phone plugged in is bridged
 * as soon as adb reports it; a phone unplugged, or leaving state `device`, has its bridge stopped
 * at once (the gateway then fails its pending commands `DEVICE_DISCONNECTED`). A lost or
 * unreachable adb server stops every bridge and is retried with backoff.
 */
export class AdbDeviceWatcher {
  private readonly options: AdbDeviceWatcherOptions;
  private readonly backoff: ReconnectBackoff;
  private readonly timers: ReconnectTimers;
  private readonly log: (line: string) => void;
  private readonly states = new Map<string, string>();
  private readonly bridges = new Map<string, AdbBridge>();
  /** Bridges being stopped, by serial: a phone plugged in again waits for its old bridge to be gone. */
  private readonly stopping = new Map<string, Promise<void>>();
  private tracker: Tracker | undefined;
  private retryTimer: ScheduledTimer | undefined;
  private running = false;

  constructor(options: AdbDeviceWatcherOptions) {
    this.options = options;
    this.backoff = new ReconnectBackoff({ initialMs: 1000, maxMs: 30_000, ...options.backoff });
    this.timers = options.timers ?? SYSTEM_RECONNECT_TIMERS;
    this.log = options.log ?? (() => undefined);
  }

  /** The phones adb lists (the watched ones), by serial, with their state. */
  get devices(): AdbDeviceState[] {
    return [...this.states].map(([serial, state]) => ({ serial, deviceId: deviceIdForSerial(serial), state }));
  }

  /** The running bridge of a serial, if any. */
  bridge(serial: string): AdbBridge | undefined {
    return this.bridges.get(serial);
  }

  /** Starts following the adb server; returns at once (reachability is reported through `onServer`). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.track();
  }

  /** Stops following adb and stops every bridge; resolves once their gateway connections are closed. */
  async stop(): Promise<void> {
    this.running = false;
    this.retryTimer?.cancel();
    this.retryTimer = undefined;
    this.tracker?.end();
    this.tracker = undefined;
    for (const serial of [...this.states.keys()]) this.update(serial, 'gone', false);
    await Promise.all(this.stopping.values());
  }

  private track(): void {
    Promise.resolve(this.options.client.trackDevices()).then(
      (tracker) => {
        if (!this.running) {
          tracker.end();
          return;
        }
        this.tracker = tracker;
        this.backoff.reset();
        this.log('following the adb device list');
        this.options.onServer?.({ state: 'tracking' });
        // The tracker reads adb's first list as soon as it exists, possibly before these listeners:
        // its events are changes from the list it holds, so that list is taken in first.
        for (const device of (tracker as unknown as { deviceList: Device[] }).deviceList ?? []) this.update(device.id, device.type);
        tracker.on('add', (device: Device) => this.update(device.id, device.type));
        tracker.on('change', (device: Device) => this.update(device.id, device.type));
        tracker.on('remove', (device: Device) => this.update(device.id, 'gone'));
        tracker.on('error', (err: Error) => this.lost(tracker, err));
        tracker.on('end', () => this.lost(tracker, new Error('the adb server closed the device list')));
      },
      (err: unknown) => this.retry(err instanceof Error ? err : new Error(String(err))),
    );
  }

  /** The adb server went away: its phones are gone with it. */
  private lost(tracker: Tracker, error: Error): void {
    if (this.tracker !== tracker) return;
    this.tracker = undefined;
    for (const serial of [...this.states.keys()]) this.update(serial, 'gone');
    if (this.running) this.retry(error);
  }

  private retry(error: Error): void {
    if (!this.running) return;
    const retryInMs = this.backoff.nextDelayMs();
    this.log(`adb server unreachable (${error.message}); retrying in ${retryInMs} ms`);
    this.options.onServer?.({ state: 'unreachable', error, retryInMs });
    this.retryTimer = this.timers.schedule(() => {
      this.retryTimer = undefined;
      if (this.running) this.track();
    }, retryInMs);
  }

  private update(serial: string, state: string, report = true): void {
    if (this.options.serial !== undefined && serial !== this.options.serial) return;
    const previous = this.states.get(serial);
    if (previous === state) return;
    if (state === 'gone') this.states.delete(serial);
    else this.states.set(serial, state);
    this.log(`${serial}: ${previous ?? 'not listed'} → ${state}`);
    if (!ready(state)) this.stopBridge(serial);
    else if (!this.bridges.has(serial)) this.startBridge(serial);
    if (report) this.options.onDevice?.({ serial, deviceId: deviceIdForSerial(serial), state });
  }

  private startBridge(serial: string): void {
    const { client, gateway, token } = this.options;
    const bridge = new AdbBridge({ client, serial, gateway, token, ...this.options.bridge });
    this.bridges.set(serial, bridge);
    const previous = this.stopping.get(serial) ?? Promise.resolve();
    void previous
      .then(() => (this.bridges.get(serial) === bridge ? bridge.start() : undefined))
      .catch((err: unknown) => {
        if (this.bridges.get(serial) !== bridge) return;
        this.bridges.delete(serial);
        if (err instanceof GatewayRefusedError) this.options.onBridgeRefused?.(serial, err);
        else this.log(`${serial}: bridge failed to start: ${err instanceof Error ? err.message : String(err)}`);
      });
  }

  private stopBridge(serial: string): void {
    const bridge = this.bridges.get(serial);
    if (!bridge) return;
    this.bridges.delete(serial);
    const stopped = bridge.stop().finally(() => {
      if (this.stopping.get(serial) === stopped) this.stopping.delete(serial);
    });
    this.stopping.set(serial, stopped);
  }
}
