import { Inject, Injectable, Optional } from '@nestjs/common';
import { Observable, ReplaySubject, finalize, share } from 'rxjs';
import { Clock, MobileClawError, MobileClawService, ScreenImageEncoder, assertScreenImageLimits, isMobileClawError, type DeviceInfo, type ScreenImageLimits, type ScreenshotData } from '@mobileclaw/domain';

/** Settings of {@link LiveScreenService}. */
export interface LiveScreenOptions {
  /**
   * Shortest time between the starts of two screenshots of one phone, in ms. Default 120: with the
   * simulator's capture (~20–40 ms) and the encoding (~10 ms) a change reaches a watcher within
   * about 200 ms, while the phone spends most of each interval idle. A slow phone is left idle at
   * least as long as its last screenshot took: the live screen never takes more than half its time.
   */
  minIntervalMs: number;
  /** Bounds of a frame's JPEG when the watcher names none: long side 720 px, 256 KiB. */
  image: ScreenImageLimits;
  /** Delay before retrying after a failed screenshot, in ms; doubled per failure in a row. Default 250. */
  retryMs: number;
  /** Longest retry delay, in ms. Default 4000. */
  maxRetryMs: number;
  /** Deadline of each screenshot command, in ms (queue time included). Default 10 000. */
  screenshotTimeoutMs: number;
}

export const DEFAULT_LIVE_SCREEN_OPTIONS: LiveScreenOptions = {
  minIntervalMs: 120,
  image: { maxLongSidePx: 720, maxBytes: 256 * 1024 },
  retryMs: 250,
  maxRetryMs: 4000,
  screenshotTimeoutMs: 10_000,
};

/** DI token of the {@link LiveScreenOptions}. */
export const LIVE_SCREEN_OPTIONS = Symbol('LIVE_SCREEN_OPTIONS');

/** One picture of a phone's screen, sent when it differs from the previous one. */
export interface LiveScreenFrame {
  deviceId: string;
  /** 1 for a stream's first frame, then +1 per frame. */
  seq: number;
  /** When the screenshot was taken (ISO-8601). */
  at: string;
  mime: 'image/jpeg';
  /** The JPEG, raw base64 (no `data:` prefix). */
  base64: string;
  /** Size of the JPEG, px. */
  width: number;
  height: number;
  /** Size of the screen the JPEG shows, device px in the current rotation: the space taps are given in. */
  deviceWidth: number;
  deviceHeight: number;
  /** Size of the JPEG file, bytes. */
  bytes: number;
  /** The phone's frame id of this screenshot, when it sends one. */
  frameId?: string;
}

/** Codes after which the phone is gone for this stream: retrying cannot succeed. */
const GONE = ['DEVICE_NOT_FOUND', 'DEVICE_DISCONNECTED', 'SHUTTING_DOWN'] as const;

/** Resolves after `ms`, or at once when `signal` fires. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * A phone's screen, live, for people watching it (the page's live screen panel): the phone is asked
 * for screenshots only while someone watches, at most one per `minIntervalMs`, and a frame (a
 * bounded JPEG, {@link LiveScreenFrame}) is sent only when the phone's image changed (its bytes
 * compared with the previous screenshot's).
 *
 * Watchers of one phone with the same image limits share one poll (refcounted: it starts with the
 * first watcher, stops when the last one unsubscribes; a late watcher gets the latest frame at once).
 *
 * Tasks come first: a screenshot goes through the phone's one-at-a-time queue, so a poll is skipped
 * (tried again after `minIntervalMs`) while the phone runs a command or has commands waiting, and
 * after each screenshot the phone is left idle at least as long as that screenshot took. A task's
 * command then waits at most for the one screenshot already in flight when it arrives.
 */
@Injectable()
export class LiveScreenService {
  private readonly options: LiveScreenOptions;
  private readonly streams = new Map<string, Observable<LiveScreenFrame>>();

  constructor(
    private readonly phones: MobileClawService,
    private readonly encoder: ScreenImageEncoder,
    @Optional() @Inject(LIVE_SCREEN_OPTIONS) options?: Partial<LiveScreenOptions>,
    @Optional() private readonly clock?: Clock,
  ) {
    this.options = { ...DEFAULT_LIVE_SCREEN_OPTIONS, ...options };
  }

  /** Number of phones polled now (one per phone and image limits). */
  get activePolls(): number {
    return this.streams.size;
  }

  /**
   * `deviceId`'s screen as frames: the current picture first, then each change. Errors end the
   * stream: `DEVICE_NOT_FOUND` (a phone the gateway does not know), `DEVICE_DISCONNECTED` (the phone
   * is offline or went away; watch again once it is back). A failed screenshot or encoding (timeout,
   * phone error, undecodable image) is retried after `retryMs`, doubling up to `maxRetryMs` — never
   * in a busy loop. Completes never on its own.
   * @param limits bounds of each JPEG (default `options.image`).
   * @throws MobileClawError `VALIDATION_FAILED` at once when a limit is not an integer ≥ 1.
   */
  watch(deviceId: string, limits: ScreenImageLimits = this.options.image): Observable<LiveScreenFrame> {
    assertScreenImageLimits(limits);
    const key = `${deviceId}\n${limits.maxLongSidePx}\n${limits.maxBytes}`;
    const existing = this.streams.get(key);
    if (existing) return existing;
    const stream: Observable<LiveScreenFrame> = new Observable<LiveScreenFrame>((subscriber) => {
      const abort = new AbortController();
      this.poll(deviceId, limits, abort.signal, (frame) => subscriber.next(frame)).then(
        () => undefined,
        (err: unknown) => subscriber.error(err),
      );
      return () => abort.abort();
    }).pipe(
      finalize(() => {
        if (this.streams.get(key) === stream) this.streams.delete(key);
      }),
      share({ connector: () => new ReplaySubject<LiveScreenFrame>(1), resetOnError: true, resetOnComplete: true, resetOnRefCountZero: true }),
    );
    this.streams.set(key, stream);
    return stream;
  }

  /** The polling loop of one stream: returns when `signal` fires, rejects when the phone is gone. */
  private async poll(deviceId: string, limits: ScreenImageLimits, signal: AbortSignal, emit: (frame: LiveScreenFrame) => void): Promise<void> {
    let previous: string | undefined;
    let seq = 0;
    let failures = 0;
    let wait = 0;
    for (let first = true; !signal.aborted; first = false) {
      if (wait > 0) await pause(wait, signal);
      if (signal.aborted) return;
      const device = await this.device(deviceId, first);
      if (device.status === 'busy' || device.queueLength > 0) {
        wait = this.options.minIntervalMs;
        continue;
      }
      const started = Date.now();
      try {
        const shot = await this.screenshot(device, limits, signal);
        failures = 0;
        if (shot.base64 !== previous) {
          const image = await this.encoder.encode(shot, limits);
          previous = shot.base64;
          if (signal.aborted) return;
          const frame: LiveScreenFrame = {
            deviceId,
            seq: ++seq,
            at: (this.clock?.now() ?? new Date(started)).toISOString(),
            mime: image.mime,
            base64: image.base64,
            width: image.width,
            height: image.height,
            deviceWidth: shot.screen?.width ?? device.screen?.width ?? shot.width,
            deviceHeight: shot.screen?.height ?? device.screen?.height ?? shot.height,
            bytes: image.bytes,
          };
          if (shot.frameId !== undefined) frame.frameId = shot.frameId;
          emit(frame);
        }
        const tookMs = Date.now() - started;
        wait = Math.max(this.options.minIntervalMs - tookMs, tookMs);
      } catch (err) {
        if (signal.aborted) return;
        if (GONE.some((code) => isMobileClawError(err, code))) throw this.gone(deviceId, err);
        failures += 1;
        wait = Math.min(this.options.retryMs * 2 ** (failures - 1), this.options.maxRetryMs);
      }
    }
  }

  /**
   * The phone's current info. @throws `DEVICE_NOT_FOUND` on the first look at an unknown phone,
   * `DEVICE_DISCONNECTED` once it is offline or forgotten.
   */
  private async device(deviceId: string, first: boolean): Promise<DeviceInfo> {
    let device: DeviceInfo;
    try {
      device = await this.phones.getDevice(deviceId);
    } catch (err) {
      throw first ? err : this.gone(deviceId, err);
    }
    if (device.status === 'offline') throw new MobileClawError('DEVICE_DISCONNECTED', `phone ${deviceId} is offline`, { deviceId });
    return device;
  }

  /**
   * One PNG screenshot, asked at the width the JPEG will have (the phone scales, so less is sent and
   * decoded): `maxLongSidePx` along the screen's long side.
   */
  private async screenshot(device: DeviceInfo, limits: ScreenImageLimits, signal: AbortSignal): Promise<ScreenshotData> {
    const screen = device.screen;
    const maxWidth = screen && screen.width > 0 && screen.height > 0 ? Math.max(1, Math.round((limits.maxLongSidePx * screen.width) / Math.max(screen.width, screen.height))) : limits.maxLongSidePx;
    const result = await this.phones.execute<ScreenshotData>(device.deviceId, { command: 'screenshot', format: 'png', maxWidth }, { timeoutMs: this.options.screenshotTimeoutMs, signal, background: true });
    return result.data;
  }

  private gone(deviceId: string, cause: unknown): MobileClawError {
    if (isMobileClawError(cause, 'DEVICE_DISCONNECTED')) return cause;
    const reason = cause instanceof Error ? cause.message : String(cause);
    return new MobileClawError('DEVICE_DISCONNECTED', `phone ${deviceId} went away: ${reason}`, { deviceId });
  }
}
