import { Subject } from 'rxjs';
import {
  MobileClawError,
  MobileClawService,
  type Command,
  type CommandResult,
  type DeviceEvent,
  type DeviceInfo,
  type DeviceStatus,
  type ExecuteOptions,
  type ScreenInfo,
  type UiNode,
} from '@mobileclaw/domain';

/** One phone the {@link ScriptedScreenPhone} knows. */
export interface ScriptedDevice {
  deviceId: string;
  /** Default `online`. */
  status?: DeviceStatus;
  /** Screen size in the device info (what `getDevice` reports). */
  screen?: ScreenInfo;
  capabilities?: string[];
}

/** One `execute` call as the phone received it. */
export interface ScriptedCall {
  deviceId: string;
  command: Command;
  options: ExecuteOptions;
}

/**
 * Phones behind the {@link MobileClawService} port whose screen a test sets directly: `nodes` (the
 * `ui_tree`), `screen` (device px and rotation), and what the replies report. Every phone shows the
 * same screen. Actions change nothing unless `onAction` does; every call is recorded in `calls`, so a
 * test sees exactly what would have reached a phone.
 */
export class ScriptedScreenPhone extends MobileClawService {
  readonly events$ = new Subject<DeviceEvent>();
  readonly calls: ScriptedCall[] = [];
  nodes: UiNode[] = [];
  screen: ScreenInfo = { width: 1080, height: 2400, rotation: 0 };
  /** The phone's own frame id, reported by `screenshot` and `ui_tree`. */
  deviceFrameId: string | undefined = 'pf-1';
  /** Whether `ui_tree` replies carry `screen`. */
  treeReportsScreen = true;
  /** Whether `screenshot` replies carry `screen` (their `width`/`height` are the screen's either way). */
  screenshotReportsScreen = true;
  /** `ui_tree` replies with this data instead (a broken phone). */
  treeData?: unknown;
  /** Runs after each action command (not `screenshot`/`ui_tree`) was recorded: lets a test change the screen. */
  onAction?: (command: Command, deviceId: string) => void;

  constructor(readonly devices: ScriptedDevice[] = [{ deviceId: 'phone-1' }]) {
    super();
  }

  /** The commands sent, by name, in order (e.g. `['screenshot', 'ui_tree', 'click']`). */
  commandNames(): string[] {
    return this.calls.map((c) => c.command.command);
  }

  /** The action commands sent (everything but `screenshot` and `ui_tree`). */
  actions(): ScriptedCall[] {
    return this.calls.filter((c) => c.command.command !== 'screenshot' && c.command.command !== 'ui_tree');
  }

  override async execute<T>(deviceId: string, command: Command, options: ExecuteOptions = {}): Promise<CommandResult<T>> {
    this.known(deviceId);
    this.calls.push({ deviceId, command, options });
    const base = { requestId: `r${this.calls.length}`, deviceId, command: command.command, status: 'success' as const, durationMs: 7, queuedMs: 0 };
    const frame = this.deviceFrameId === undefined ? {} : { frameId: this.deviceFrameId };
    if (command.command === 'screenshot') {
      const data = {
        mime: 'image/png',
        width: this.screen.width,
        height: this.screen.height,
        base64: Buffer.from('png').toString('base64'),
        ...frame,
        ...(this.screenshotReportsScreen ? { screen: { ...this.screen } } : {}),
      };
      return { ...base, data: data as T };
    }
    if (command.command === 'ui_tree') {
      const data = this.treeData ?? { ...frame, ...(this.treeReportsScreen ? { screen: { ...this.screen } } : {}), nodes: structuredClone(this.nodes) };
      return { ...base, data: data as T };
    }
    this.onAction?.(command, deviceId);
    return { ...base, data: {} as T };
  }

  override async listDevices(): Promise<DeviceInfo[]> {
    return this.devices.map((d) => this.info(d));
  }

  override async getDevice(deviceId: string): Promise<DeviceInfo> {
    return this.info(this.known(deviceId));
  }

  private known(deviceId: string): ScriptedDevice {
    const device = this.devices.find((d) => d.deviceId === deviceId);
    if (!device) throw new MobileClawError('DEVICE_NOT_FOUND', `no device ${deviceId}`, { deviceId });
    return device;
  }

  private info(d: ScriptedDevice): DeviceInfo {
    const at = new Date(0).toISOString();
    const info: DeviceInfo = { deviceId: d.deviceId, status: d.status ?? 'online', capabilities: d.capabilities ?? [], sessionId: 's1', connectedAt: at, lastSeenAt: at, queueLength: 0 };
    if (d.screen) info.screen = d.screen;
    return info;
  }
}
