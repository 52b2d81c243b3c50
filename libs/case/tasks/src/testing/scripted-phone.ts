import { Subject } from 'rxjs';
import {
  MobileClawError,
  MobileClawService,
  type Command,
  type CommandResult,
  type DeviceEvent,
  type DeviceInfo,
  type ExecuteOptions,
  type UiNode,
} from '@mobileclaw/domain';

/**
 * A tiny phone behind the {@link MobileClawService} port for case-layer tests: one screen with a
 * Wi-Fi switch and a text field, and, while it animates, a growing progress bar. Real phones are
 * covered by the gateway's end-to-end tests.
 */
export class ScriptedPhone extends MobileClawService {
  readonly events$ = new Subject<DeviceEvent>();
  readonly calls: { deviceId: string; command: Command; frameId?: string }[] = [];
  wifi = false;
  field = '';
  /** When true, the text field is a password field. */
  passwordField = false;
  frame = 0;
  /** When set, the next action (not observation) waits until its signal aborts. */
  hangNextAction = false;
  /** When set, the next action waits for this promise before it takes effect (an action in flight). */
  gateNextAction?: Promise<void>;
  /** Resolves when a hanging (or gated) action has started. */
  actionStarted?: () => void;
  /** Error to throw for the next action. */
  failNextAction?: MobileClawError;
  sawAbort = false;
  /** When true, actions succeed but change nothing (a tap that missed). */
  inert = false;
  /**
   * How many of the next `ui_tree` replies still show an animation: each such reply has a progress bar
   * one frame longer than the last, so no two are equal; after them the screen stays as it is.
   */
  animationFrames = 0;
  /** Frames of animation each performed action starts (it sets {@link animationFrames}). */
  animationFramesPerAction = 0;
  /**
   * `ui_tree` replies after each performed action that still show the screen before it, as from an
   * app slow to react; the action's effect shows from the next reply on.
   */
  reactionReads = 0;
  private shownFrames = 0;
  private pendingEffect?: { reads: number; apply: () => void };
  /** The screen both observations report; change it to rotate the phone. */
  screen = { width: 100, height: 200, rotation: 0 };

  constructor(readonly deviceIds: string[] = ['phone-1']) {
    super();
  }

  override async execute<T>(deviceId: string, command: Command, options: ExecuteOptions = {}): Promise<CommandResult<T>> {
    if (!this.deviceIds.includes(deviceId)) throw new MobileClawError('DEVICE_NOT_FOUND', `no device ${deviceId}`, { deviceId });
    if (options.signal?.aborted) throw new MobileClawError('ABORTED', 'aborted');
    this.calls.push({ deviceId, command, frameId: options.frameId });
    const base = { requestId: `r${this.calls.length}`, deviceId, command: command.command, status: 'success' as const, durationMs: 5, queuedMs: 1 };
    if (command.command === 'screenshot') {
      this.frame++;
      const { width, height } = this.screen;
      return { ...base, data: { mime: 'image/png', width, height, base64: Buffer.from(`png-${this.frame}`).toString('base64'), frameId: `f${this.frame}`, screen: { ...this.screen }, captureMs: 2 } as T };
    }
    if (command.command === 'ui_tree') {
      if (this.pendingEffect && this.pendingEffect.reads-- === 0) {
        this.pendingEffect.apply();
        this.pendingEffect = undefined;
      }
      return { ...base, data: { frameId: `f${this.frame}`, screen: { ...this.screen }, nodes: this.nodes(), captureMs: 1 } as T };
    }
    if (this.failNextAction) {
      const err = this.failNextAction;
      this.failNextAction = undefined;
      throw err;
    }
    if (this.hangNextAction) {
      this.hangNextAction = false;
      await new Promise<void>((_, reject) => {
        options.signal?.addEventListener('abort', () => {
          this.sawAbort = true;
          reject(new MobileClawError('ABORTED', 'aborted'));
        });
        this.actionStarted?.();
      });
    }
    if (this.gateNextAction) {
      const gate = this.gateNextAction;
      this.gateNextAction = undefined;
      this.actionStarted?.();
      await gate;
    }
    if (this.inert) return { ...base, data: {} as T };
    const apply = (): void => {
      this.animationFrames = this.animationFramesPerAction;
      if (command.command === 'click' && command.y < 50) this.wifi = !this.wifi;
      if (command.command === 'input') this.field = command.text;
    };
    if (this.reactionReads > 0) this.pendingEffect = { reads: this.reactionReads, apply };
    else apply();
    return { ...base, data: {} as T };
  }

  override async listDevices(): Promise<DeviceInfo[]> {
    return Promise.all(this.deviceIds.map((id) => this.getDevice(id)));
  }

  override async getDevice(deviceId: string): Promise<DeviceInfo> {
    if (!this.deviceIds.includes(deviceId)) throw new MobileClawError('DEVICE_NOT_FOUND', `no device ${deviceId}`, { deviceId });
    const at = new Date(0).toISOString();
    return { deviceId, status: 'online', capabilities: [], sessionId: 's1', connectedAt: at, lastSeenAt: at, queueLength: 0 };
  }

  private nodes(): UiNode[] {
    const progress: UiNode[] = [];
    if (this.animationFrames > 0) {
      this.animationFrames--;
      this.shownFrames++;
      progress.push({ id: 'n3', class: 'android.widget.ProgressBar', package: 'com.android.settings', bounds: [0, 150, this.shownFrames, 160] });
    }
    return [
      {
        id: 'n0',
        class: 'android.widget.FrameLayout',
        package: 'com.android.settings',
        bounds: [0, 0, 100, 200],
        children: [
          { id: 'n1', class: 'android.widget.Switch', text: 'Wi-Fi', package: 'com.android.settings', bounds: [0, 0, 100, 50], clickable: true, checkable: true, checked: this.wifi },
          {
            id: 'n2',
            class: 'android.widget.EditText',
            text: this.field,
            package: 'com.android.settings',
            bounds: [0, 60, 100, 100],
            clickable: true,
            editable: true,
            ...(this.passwordField ? { password: true } : {}),
          },
          ...progress,
        ],
      },
    ];
  }
}
