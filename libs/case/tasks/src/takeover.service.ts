import { Injectable, Optional } from '@nestjs/common';
import {
  ControlLeases,
  MobileClawError,
  MobileClawService,
  type AgentAction,
  type CommandResult,
  type ControlHolder,
  type ControlLease,
  type ExecuteOptions,
  type FieldError,
  type ScreenInfo,
} from '@mobileclaw/domain';
import { holderName } from './holder-name';
import { TaskService } from './task.service';

/** What {@link TakeoverService.act} did: the phone's reply and, when a task was paused by the takeover, the `human` step recorded for it. */
export interface TakeoverActionOutcome {
  result: CommandResult;
  /** The task whose timeline holds the action, and the step's index. */
  taskId?: string;
  stepIndex?: number;
}

/**
 * Human takeover of a phone: take it (a control lease, see {@link ControlLeases}), act on it as its
 * holder, hand it back. Taking a phone pauses the task running on it and handing it back resumes the
 * task ({@link TaskService}); the holder's actions are recorded in that task's timeline as `human`
 * steps. Every other controller is refused with `DEVICE_CONTROLLED` meanwhile.
 */
@Injectable()
export class TakeoverService {
  constructor(
    private readonly devices: MobileClawService,
    private readonly tasks: TaskService,
    @Optional() private readonly leases?: ControlLeases,
  ) {}

  /**
   * Takes the phone for `holder`, or renews their lease (a page renews it while open).
   * @returns the lease (its `expiresAt` moved on).
   * @throws MobileClawError `DEVICE_NOT_FOUND`, `DEVICE_DISCONNECTED` (the phone is offline),
   *   `DEVICE_CONTROLLED` (someone else holds it: `controller` says who and since when),
   *   `VALIDATION_FAILED` (bad `holderId`, or a `holder` name {@link holderName} refuses: it is kept
   *   NFC-normalised and trimmed), `NOT_SUPPORTED` (the host provides no leases).
   */
  async take(deviceId: string, holder: ControlHolder): Promise<ControlLease> {
    const leases = this.leasesOrFail();
    holder = { ...holder, holder: holderName(holder.holder) };
    const device = await this.devices.getDevice(deviceId);
    if (device.status === 'offline') throw new MobileClawError('DEVICE_DISCONNECTED', `device ${deviceId} is offline`, { deviceId });
    return leases.take(deviceId, holder);
  }

  /**
   * Hands the phone back; the paused task resumes.
   * @throws MobileClawError `CONTROL_NOT_HELD`, `DEVICE_CONTROLLED` (someone else holds it), `NOT_SUPPORTED`.
   */
  handBack(deviceId: string, holderId: string): ControlLease {
    return this.leasesOrFail().release(deviceId, holderId);
  }

  /** How long a lease lasts from its last renewal, in ms. @throws MobileClawError `NOT_SUPPORTED`. */
  get leaseMs(): number {
    return this.leasesOrFail().leaseMs;
  }

  /** The lease in force on the phone, if any. */
  current(deviceId: string): ControlLease | undefined {
    return this.leases?.current(deviceId);
  }

  /**
   * Sends one action of the phone's holder (and renews their lease). Points (`click`, `long_press`,
   * `swipe`) must lie on the phone's screen: `0 ≤ x < width`, `0 ≤ y < height` in device px.
   * @throws MobileClawError `CONTROL_NOT_HELD`, `DEVICE_CONTROLLED`, `VALIDATION_FAILED` (a point off
   *   the screen, listed per field), `NOT_SUPPORTED`, and the command error codes.
   */
  async act(deviceId: string, holderId: string, action: AgentAction, options: ExecuteOptions = {}): Promise<TakeoverActionOutcome> {
    const leases = this.leasesOrFail();
    const lease = leases.heldBy(deviceId, holderId);
    leases.take(deviceId, lease);
    const screen = (await this.devices.getDevice(deviceId)).screen;
    if (screen) checkOnScreen(action, screen);
    const { result, record } = await this.tasks.actAsHolder(deviceId, lease.holder, action, options);
    return record ? { result, taskId: record.taskId, stepIndex: record.step.index } : { result };
  }

  private leasesOrFail(): ControlLeases {
    if (!this.leases) throw new MobileClawError('NOT_SUPPORTED', 'this gateway offers no takeover (no control leases configured)');
    return this.leases;
  }
}

/** @throws MobileClawError `VALIDATION_FAILED` listing each coordinate of `action` off `screen`. */
export function checkOnScreen(action: AgentAction, screen: Pick<ScreenInfo, 'width' | 'height'>): void {
  const points: [string, number, number][] =
    action.command === 'click' || action.command === 'long_press'
      ? [['', action.x, action.y]]
      : action.command === 'swipe'
        ? [['1', action.x1, action.y1], ['2', action.x2, action.y2]]
        : [];
  const fieldErrors: FieldError[] = [];
  for (const [suffix, x, y] of points) {
    if (!(x >= 0 && x < screen.width)) fieldErrors.push({ field: `x${suffix}`, message: `x${suffix} must be within the screen: 0 ≤ x${suffix} < ${screen.width} px (it is ${x})` });
    if (!(y >= 0 && y < screen.height)) fieldErrors.push({ field: `y${suffix}`, message: `y${suffix} must be within the screen: 0 ≤ y${suffix} < ${screen.height} px (it is ${y})` });
  }
  if (fieldErrors.length > 0) throw new MobileClawError('VALIDATION_FAILED', `point off the screen: ${fieldErrors.map((f) => f.message).join('; ')}`, { fieldErrors });
}
