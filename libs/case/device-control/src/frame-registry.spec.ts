import { domainRejection } from '@mobileclaw/domain/testing';
import { FrameRegistry } from './frame-registry';
import { deviceOfFrameId, frameIdOf, type ScreenFrame } from './screen-frame';

function frame(deviceId: string, n: number): ScreenFrame {
  return { frameId: frameIdOf(deviceId, n), deviceId, screen: { width: 1080, height: 2400 }, elements: [], capturedAt: '2026-07-28T10:00:00.000Z' };
}

/** The STALE_FRAME error of a lookup. */
async function lookupError(frames: FrameRegistry, frameId: string) {
  return domainRejection(Promise.resolve().then(() => frames.get(frameId)));
}

describe('FrameRegistry', () => {
  it('returns the frames it keeps', () => {
    const frames = new FrameRegistry(3);
    const a = frame('phone-1', 1);
    const b = frame('phone-2', 2);
    frames.add(a);
    frames.add(b);
    expect(frames.size).toBe(2);
    expect(frames.get('phone-1@1')).toBe(a);
    expect(frames.get('phone-2@2')).toBe(b);
  });

  it('forgets the oldest frame beyond its capacity, across phones', async () => {
    const frames = new FrameRegistry(2);
    frames.add(frame('phone-1', 1));
    frames.add(frame('phone-2', 2));
    frames.add(frame('phone-1', 3));
    expect(frames.size).toBe(2);
    expect(frames.get('phone-2@2').frameId).toBe('phone-2@2');
    expect(frames.get('phone-1@3').frameId).toBe('phone-1@3');
    const err = await lookupError(frames, 'phone-1@1');
    expect([err.code, err.deviceId]).toEqual(['STALE_FRAME', 'phone-1']);
    expect(err.message).toBe('frame phone-1@1 is no longer known (only the 2 most recent frames are kept): take a new screen');
  });

  it.each(['nonsense', 'phone-1@', 'phone-1@x1', '@4', ''])('names an unknown id %j as such, with no device', async (frameId) => {
    const err = await lookupError(new FrameRegistry(1), frameId);
    expect(err.code).toBe('STALE_FRAME');
    expect(err.deviceId).toBeUndefined();
    expect(err.message).toBe(`unknown frameId ${JSON.stringify(frameId)}: take a screen first and use the frameId it returns`);
  });

  it('forgets every frame of one phone', () => {
    const frames = new FrameRegistry(4);
    for (const [id, n] of [['phone-1', 1], ['phone-2', 2], ['phone-1', 3]] as const) frames.add(frame(id, n));
    frames.forgetDevice('phone-1');
    expect(frames.size).toBe(1);
    expect(frames.get('phone-2@2').deviceId).toBe('phone-2');
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses capacity %p', (capacity) => {
    expect(() => new FrameRegistry(capacity)).toThrow(new RangeError(`frame capacity must be a positive integer, got ${capacity}`));
  });
});

describe('frame ids', () => {
  it('are <deviceId>@<n>, and name their phone', () => {
    expect(frameIdOf('sim-1', 12)).toBe('sim-1@12');
    expect(deviceOfFrameId('sim-1@12')).toBe('sim-1');
    expect(deviceOfFrameId('emulator:5554@3')).toBe('emulator:5554');
  });

  it.each(['sim-1', 'sim-1@', '@3', 'sim-1@3a', 'sim-1@-3'])('name no phone for %j', (frameId) => {
    expect(deviceOfFrameId(frameId)).toBeUndefined();
  });
});
