import { Subject, filter, firstValueFrom, take, toArray } from 'rxjs';
import { MobileClawError, MobileClawService, type Command, type CommandResult, type DeviceEvent, type DeviceInfo, type DeviceStatus, type ExecuteOptions } from '@mobileclaw/domain';
import { domainRejection } from '@mobileclaw/domain/testing';
import { LiveScreenService, type LiveScreenOptions } from './live-screen';
import { FixedSizeImageEncoder } from './testing/fixed-size-image-encoder';

/** One phone whose picture (`image`, base64), status and queue a test sets; it counts what it is asked. */
class WatchedPhone extends MobileClawService {
  readonly events$ = new Subject<DeviceEvent>();
  /** Emits after every `getDevice` and `execute` call. */
  readonly asked$ = new Subject<void>();
  image = Buffer.from('picture A').toString('base64');
  status: DeviceStatus = 'online';
  queueLength = 0;
  known = true;
  lookups = 0;
  screenshots: { command: Command; options: ExecuteOptions }[] = [];
  /** Errors the next screenshots fail with, in order. */
  failures: MobileClawError[] = [];
  /** How long each screenshot takes, ms. */
  captureMs = 0;

  override async execute<T>(deviceId: string, command: Command, options: ExecuteOptions = {}): Promise<CommandResult<T>> {
    this.screenshots.push({ command, options });
    this.asked$.next();
    if (this.captureMs > 0) await new Promise((resolve) => setTimeout(resolve, this.captureMs));
    const failure = this.failures.shift();
    if (failure) throw failure;
    const data = { mime: 'image/png', width: 324, height: 720, base64: this.image, frameId: `pf-${this.screenshots.length}`, screen: { width: 1080, height: 2400 } };
    return { requestId: `r${this.screenshots.length}`, deviceId, command: command.command, status: 'success', data: data as T, durationMs: 5, queuedMs: 0 };
  }

  override async listDevices(): Promise<DeviceInfo[]> {
    return [await this.getDevice('phone-1')];
  }

  override async getDevice(deviceId: string): Promise<DeviceInfo> {
    this.lookups += 1;
    this.asked$.next();
    if (!this.known) throw new MobileClawError('DEVICE_NOT_FOUND', `no device ${deviceId}`);
    const at = new Date(0).toISOString();
    return { deviceId, status: this.status, capabilities: [], sessionId: 's1', connectedAt: at, lastSeenAt: at, queueLength: this.queueLength, screen: { width: 1080, height: 2400 } };
  }

  /** Resolves once `predicate` holds after a call (checked after each). */
  until(predicate: () => boolean): Promise<void> {
    return firstValueFrom(this.asked$.pipe(filter(predicate))).then(() => undefined);
  }
}

const FAST: Partial<LiveScreenOptions> = { minIntervalMs: 0, retryMs: 1, maxRetryMs: 1 };

function setUp(options: Partial<LiveScreenOptions> = FAST) {
  const phone = new WatchedPhone();
  const encoder = new FixedSizeImageEncoder({ width: 324, height: 720 });
  return { phone, encoder, live: new LiveScreenService(phone, encoder, options) };
}

describe('LiveScreenService', () => {
  afterEach(() => jest.useRealTimers());

  it('sends the current picture first: a bounded JPEG with image and device px, the phone asked for a PNG at the JPEG\'s width', async () => {
    const { phone, encoder, live } = setUp();
    const frame = await firstValueFrom(live.watch('phone-1'));
    expect(frame).toEqual({
      deviceId: 'phone-1',
      seq: 1,
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      mime: 'image/jpeg',
      base64: Buffer.from('jpeg').toString('base64'),
      width: 324,
      height: 720,
      deviceWidth: 1080,
      deviceHeight: 2400,
      bytes: 4,
      frameId: 'pf-1',
    });
    // 720 px along the long side of a 1080×2400 screen: 324 px wide.
    expect(phone.screenshots[0].command).toEqual({ command: 'screenshot', format: 'png', maxWidth: 324 });
    expect(encoder.calls[0].limits).toEqual({ maxLongSidePx: 720, maxBytes: 256 * 1024 });
  });

  it('sends a frame only when the phone\'s picture changed', async () => {
    const { phone, encoder, live } = setUp();
    const frames = live.watch('phone-1').pipe(take(2), toArray());
    const done = firstValueFrom(frames);
    await phone.until(() => phone.screenshots.length >= 4);
    expect(encoder.calls).toHaveLength(1);
    phone.image = Buffer.from('picture B').toString('base64');
    const [first, second] = await done;
    expect([first.seq, second.seq]).toEqual([1, 2]);
    expect(encoder.calls.map((c) => Buffer.from(c.screenshot.base64, 'base64').toString())).toEqual(['picture A', 'picture B']);
  });

  it('polls once for all watchers of a phone, gives a late watcher the latest frame, and stops with the last watcher', async () => {
    const { phone, live } = setUp();
    const seen: number[] = [];
    const a = live.watch('phone-1').subscribe((f) => seen.push(f.seq));
    await phone.until(() => phone.screenshots.length >= 2);
    const late = await firstValueFrom(live.watch('phone-1'));
    expect(late.seq).toBe(1);
    expect(live.activePolls).toBe(1);
    a.unsubscribe();
    expect(live.activePolls).toBe(0);
    expect(phone.screenshots.at(-1)?.options.signal?.aborted).toBe(true);
    expect(seen).toEqual([1]);
  });

  it('gives each watcher of a new poll its own sequence from 1', async () => {
    const { live } = setUp();
    expect((await firstValueFrom(live.watch('phone-1'))).seq).toBe(1);
    expect((await firstValueFrom(live.watch('phone-1'))).seq).toBe(1);
  });

  it.each([
    ['runs a command', 'busy' as const, 0],
    ['has commands waiting', 'online' as const, 2],
  ])('does not ask for a screenshot while the phone %s (tasks first)', async (_case, status, queueLength) => {
    const { phone, live } = setUp();
    phone.status = status;
    phone.queueLength = queueLength;
    const frame = firstValueFrom(live.watch('phone-1'));
    await phone.until(() => phone.lookups >= 3);
    expect(phone.screenshots).toHaveLength(0);
    phone.status = 'online';
    phone.queueLength = 0;
    expect((await frame).seq).toBe(1);
  });

  it('waits minIntervalMs between screenshots, counted from the start of the previous one', async () => {
    jest.useFakeTimers();
    const { phone, live } = setUp({ minIntervalMs: 150 });
    const sub = live.watch('phone-1').subscribe();
    await jest.advanceTimersByTimeAsync(0);
    expect(phone.screenshots).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(149);
    expect(phone.screenshots).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1);
    expect(phone.screenshots).toHaveLength(2);
    sub.unsubscribe();
  });

  it('leaves a slow phone idle at least as long as its last screenshot took', async () => {
    jest.useFakeTimers();
    const { phone, live } = setUp({ minIntervalMs: 150 });
    phone.captureMs = 300;
    const sub = live.watch('phone-1').subscribe();
    const startsAt: number[] = [];
    for (const step of [0, 599, 1]) {
      await jest.advanceTimersByTimeAsync(step);
      startsAt.push(phone.screenshots.length);
    }
    // The first screenshot runs 0–300 ms; the next starts 300 ms after it ended.
    expect(startsAt).toEqual([1, 1, 2]);
    sub.unsubscribe();
  });

  it('retries a failed screenshot after retryMs, doubling per failure up to maxRetryMs', async () => {
    jest.useFakeTimers();
    const { phone, live } = setUp({ minIntervalMs: 100, retryMs: 250, maxRetryMs: 600 });
    phone.failures = [new MobileClawError('TIMEOUT', 'slow'), new MobileClawError('DEVICE_ERROR', 'no picture'), new MobileClawError('TIMEOUT', 'slow')];
    const frames: number[] = [];
    const sub = live.watch('phone-1').subscribe((f) => frames.push(f.seq));
    const attemptsAt: number[] = [];
    for (const step of [0, 249, 1, 499, 1, 599, 1]) {
      await jest.advanceTimersByTimeAsync(step);
      attemptsAt.push(phone.screenshots.length);
    }
    // Attempts at 0, 250, 750 (250 + 500) and 1350 (750 + 600, the cap): the fourth succeeds.
    expect(attemptsAt).toEqual([1, 1, 2, 2, 3, 3, 4]);
    expect(frames).toEqual([1]);
    sub.unsubscribe();
  });

  it('ends with DEVICE_NOT_FOUND for a phone the gateway does not know', async () => {
    const { phone, live } = setUp();
    phone.known = false;
    expect((await domainRejection(firstValueFrom(live.watch('nope')))).code).toBe('DEVICE_NOT_FOUND');
    expect(live.activePolls).toBe(0);
  });

  it.each([
    ['goes offline', (phone: WatchedPhone) => (phone.status = 'offline')],
    ['is forgotten', (phone: WatchedPhone) => (phone.known = false)],
    ['drops its connection during a screenshot', (phone: WatchedPhone) => phone.failures.push(new MobileClawError('DEVICE_DISCONNECTED', 'connection closed'))],
    ['is stopped by the shutdown', (phone: WatchedPhone) => phone.failures.push(new MobileClawError('SHUTTING_DOWN', 'gateway shutting down'))],
  ])('ends with DEVICE_DISCONNECTED when the phone %s', async (_case, leave) => {
    const { phone, live } = setUp();
    const stream = live.watch('phone-1');
    const ended = domainRejection(new Promise((_resolve, reject) => stream.subscribe({ error: reject })));
    await phone.until(() => phone.screenshots.length >= 1);
    leave(phone);
    expect((await ended).code).toBe('DEVICE_DISCONNECTED');
    expect(live.activePolls).toBe(0);
  });

  it('refuses image limits that are not integers ≥ 1, before asking the phone', () => {
    const { phone, live } = setUp();
    expect(() => live.watch('phone-1', { maxLongSidePx: 0, maxBytes: 1000 })).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    expect(phone.lookups).toBe(0);
  });
});
