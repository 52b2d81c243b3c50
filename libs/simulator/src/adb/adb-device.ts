/**
 * One simulated phone as the ADB server sees it: a serial, a connection state, system properties,
 * files, settings, and the {@link PhoneUi} its shell commands act on. Also the test hooks for that
 * phone: its state can change at run time, chosen commands can hang, and every service request it
 * receives is recorded.
 */
import { EventEmitter } from 'node:events';
import { DEVICE_ID_PATTERN } from '@mobileclaw/protocol';
import { PhoneUi } from '../phone-ui';
import { DEVICE_COMMANDS } from './device-commands';
import { DeviceFiles } from './device-files';
import { DeviceSettings } from './device-settings';
import { DeviceShell, type OutputSink, type ShellDevice } from './shell-runtime';

/** The states `adb devices` shows that the simulator can be put in. */
export type AdbDeviceState = 'device' | 'unauthorized' | 'offline';

export const ADB_DEVICE_STATES: readonly AdbDeviceState[] = ['device', 'unauthorized', 'offline'];

export interface AdbDeviceOptions {
  /** The adb serial, `[A-Za-z0-9._:-]{1,128}` (a wire protocol v1 device id, so a bridge can reuse it). */
  serial: string;
  /** The phone's UI. Default: a new 1080x2400, 420 dpi {@link PhoneUi}. */
  ui?: PhoneUi;
  /** Default `device`. */
  state?: AdbDeviceState;
  /** System properties added to, or replacing, the defaults ({@link defaultProperties}). */
  properties?: Record<string, string>;
}

/** A local service request the phone received: `shell` and `exec` carry the command line, `sync` the request (`RECV /sdcard/x`). */
export interface AdbServiceRecord {
  service: 'shell' | 'exec' | 'sync';
  command: string;
}

/** The properties of a simulated phone with serial `serial`: Android 14 (SDK 34) on an x86_64 image. */
export function defaultProperties(serial: string, densityDpi: number): Record<string, string> {
  return {
    'dev.bootcomplete': '1',
    'init.svc.bootanim': 'stopped',
    'persist.sys.locale': 'en-US',
    'ro.boot.serialno': serial,
    'ro.build.characteristics': 'default',
    'ro.build.fingerprint': 'mobileclaw/sim_phone/sim_phone:14/UP1A.231005.007/1:user/release-keys',
    'ro.build.id': 'UP1A.231005.007',
    'ro.build.type': 'user',
    'ro.build.version.release': '14',
    'ro.build.version.sdk': '34',
    'ro.product.brand': 'mobileclaw',
    'ro.product.cpu.abi': 'x86_64',
    'ro.product.device': 'sim_phone',
    'ro.product.locale': 'en-US',
    'ro.product.manufacturer': 'MobileClaw',
    'ro.product.model': 'MobileClaw Simulated Phone',
    'ro.product.name': 'sim_phone',
    'ro.serialno': serial,
    'ro.sf.lcd_density': String(densityDpi),
    'sys.boot_completed': '1',
  };
}

/**
 * Events: `state` (new state, previous state) when {@link setState} changes it; `service`
 * ({@link AdbServiceRecord}) for every local service request, before it runs.
 */
export class AdbDevice extends EventEmitter implements ShellDevice {
  readonly serial: string;
  readonly ui: PhoneUi;
  readonly properties: Record<string, string>;
  readonly files = new DeviceFiles();
  readonly settings: DeviceSettings;
  private stateValue: AdbDeviceState;
  private readonly records: AdbServiceRecord[] = [];
  private readonly hangRules = new Set<(command: string) => boolean>();

  /** @throws RangeError for a serial outside `[A-Za-z0-9._:-]{1,128}` or an unknown state. */
  constructor(options: AdbDeviceOptions) {
    super();
    if (!DEVICE_ID_PATTERN.test(options.serial)) throw new RangeError(`adb serial must match [A-Za-z0-9._:-]{1,128}, got ${JSON.stringify(options.serial)}`);
    this.serial = options.serial;
    this.ui = options.ui ?? new PhoneUi();
    this.stateValue = checkState(options.state ?? 'device');
    this.properties = { ...defaultProperties(this.serial, this.ui.screen.densityDpi), ...options.properties };
    this.settings = new DeviceSettings(this.ui, androidId(this.serial));
  }

  get state(): AdbDeviceState {
    return this.stateValue;
  }

  /** Changes the connection state (`adb devices` and track-devices clients see it). @throws RangeError for an unknown state. */
  setState(state: AdbDeviceState): void {
    const previous = this.stateValue;
    this.stateValue = checkState(state);
    if (previous !== state) this.emit('state', state, previous);
  }

  /** Every local service request received so far, oldest first. */
  get received(): readonly AdbServiceRecord[] {
    return this.records;
  }

  /**
   * Makes `shell:`/`exec:` commands matching `match` hang: the service is opened (OKAY) and then
   * nothing more is sent until the client gives up or the server closes, as with a command stuck
   * on a phone. Returns the function that removes this rule (connections already hanging stay so).
   */
  hang(match: RegExp | ((command: string) => boolean)): () => void {
    const rule = typeof match === 'function' ? match : (command: string) => match.test(command);
    this.hangRules.add(rule);
    return () => void this.hangRules.delete(rule);
  }

  /** Whether `command` is set to hang ({@link hang}). */
  shouldHang(command: string): boolean {
    return [...this.hangRules].some((rule) => rule(command));
  }

  /** Records a service request and tells `service` listeners. */
  record(record: AdbServiceRecord): void {
    this.records.push(record);
    this.emit('service', record);
  }

  /** Runs a shell command line on this phone, writing its output to `terminal`; resolves with its exit status. */
  runShell(command: string, terminal: OutputSink): Promise<number> {
    return new DeviceShell(this, DEVICE_COMMANDS).run(command, terminal);
  }
}

function checkState(state: AdbDeviceState): AdbDeviceState {
  if (!ADB_DEVICE_STATES.includes(state)) throw new RangeError(`adb device state must be one of ${ADB_DEVICE_STATES.join(', ')}, got ${JSON.stringify(state)}`);
  return state;
}

/** A stable 16-hex-digit `android_id` derived from the serial. */
function androidId(serial: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(serial, 'utf8')) hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return hash.toString(16).padStart(16, '0');
}
