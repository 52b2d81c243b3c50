import type { Client } from '@devicefarmer/adbkit';
import { PhoneLink, type ReconnectBackoffOptions, type ReconnectTimers } from '@mobileclaw/phone-link';
import { AdbExecutor } from './adb-executor';
import { AdbkitDeviceShell } from './adbkit-device-shell';
import type { AdbDeviceShell } from './device-shell';

/** `client` of the bridge's hello. */
export const ADB_BRIDGE_CLIENT = { name: 'mobileclaw-adb', version: '0.1.0' } as const;

export interface AdbBridgeOptions {
  /** An adbkit client (`Adb.createClient({host, port})`, see `adbServerAddress`). */
  client: Pick<Client, 'getDevice'>;
  /** The device's adb serial, e.g. `emulator-5554` or `R58M123ABC`. */
  serial: string;
  /** The gateway's device port. */
  gateway: { host: string; port: number };
  /** The gateway's device token. */
  token: string;
  /** The device id announced in hello. Default: {@link deviceIdForSerial}(serial). */
  deviceId?: string;
  /** Reconnect to the gateway with backoff after a lost connection. Default true. */
  reconnect?: boolean;
  backoff?: ReconnectBackoffOptions;
  timers?: ReconnectTimers;
  /** Replaces the adbkit shell (tests). */
  shell?: AdbDeviceShell;
  /** Diagnostic output, one line per call. Default: none. */
  log?: (line: string) => void;
}

/**
 * A device id for an adb serial: the serial with every character outside `[A-Za-z0-9._:-]` turned
 * into `_`, cut to 128 characters (`192.168.1.20:5555` and `emulator-5554` stay as they are).
 */
export function deviceIdForSerial(serial: string): string {
  const id = serial.replace(/[^A-Za-z0-9._:-]/g, '_').slice(0, 128);
  if (id === '') throw new RangeError('an adb serial is never empty');
  return id;
}

/**
 * One phone reachable by adb, made a MobileClaw device: a {@link PhoneLink} to the gateway whose
 * executor is an {@link AdbExecutor} on the device's shell. A change of the screen's size or
 * rotation seen by a command is reported to the gateway as event `screen`. A command cut off
 * because the phone left adb (or the adb server went away) stops the bridge before it is answered.
 */
export class AdbBridge {
  readonly serial: string;
  readonly deviceId: string;
  readonly link: PhoneLink;
  readonly executor: AdbExecutor;

  constructor(options: AdbBridgeOptions) {
    this.serial = options.serial;
    this.deviceId = options.deviceId ?? deviceIdForSerial(options.serial);
    const shell = options.shell ?? new AdbkitDeviceShell(options.client.getDevice(options.serial));
    this.executor = new AdbExecutor({
      shell,
      onScreenChange: (screen) => this.link.sendEvent('screen', { ...screen }),
      // A command cut off by an unplug or a lost adb server must not be answered as if it ran:
      // closing the gateway connection first makes the gateway fail it DEVICE_DISCONNECTED.
      onDeviceLost: () => this.link.stop(),
      ...(options.log === undefined ? {} : { log: options.log }),
    });
    this.link = new PhoneLink({
      executor: this.executor,
      host: options.gateway.host,
      port: options.gateway.port,
      token: options.token,
      deviceId: this.deviceId,
      client: { ...ADB_BRIDGE_CLIENT },
      reconnect: options.reconnect ?? true,
      ...(options.backoff === undefined ? {} : { backoff: options.backoff }),
      ...(options.timers === undefined ? {} : { timers: options.timers }),
      ...(options.log === undefined ? {} : { log: options.log }),
    });
  }

  /** Connects to the gateway (reading the device facts for hello) and resolves once welcomed; see `PhoneLink.start`. */
  start(): Promise<void> {
    return this.link.start();
  }

  /** Closes the gateway connection for good; the gateway fails the device's pending commands `DEVICE_DISCONNECTED`. */
  stop(): Promise<void> {
    return this.link.stop();
  }
}
