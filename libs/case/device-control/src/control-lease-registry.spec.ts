import { Clock, type DeviceControllerEvent } from '@mobileclaw/domain';
import { domainRejection } from '@mobileclaw/domain/testing';
import { ControlLeaseRegistry } from './control-lease-registry';
import { DeviceControlService } from './device-control.service';
import { DEFAULT_DEVICE_CONTROL_OPTIONS } from './device-control.options';
import { FixedSizeImageEncoder } from './testing/fixed-size-image-encoder';
import { ScriptedScreenPhone } from './testing/scripted-screen-phone';

/** A clock the test moves along with Jest's fake timers. */
class TimerClock extends Clock {
  override now(): Date {
    return new Date(Date.now());
  }
}

const ADA = { holderId: 'page-ada', holder: 'Ada' };
const START = Date.parse('2026-07-28T10:00:00.000Z');

function setUp() {
  const phone = new ScriptedScreenPhone([{ deviceId: 'phone-1' }, { deviceId: 'phone-2' }]);
  const leases = new ControlLeaseRegistry(phone, { controlLeaseMs: 30_000 }, new TimerClock());
  const changes: DeviceControllerEvent[] = [];
  leases.changes$.subscribe((event) => changes.push(event));
  return { phone, leases, changes };
}

describe('ControlLeaseRegistry', () => {
  beforeEach(() => {
    jest.useFakeTimers({ now: START });
  });
  afterEach(() => jest.useRealTimers());

  it('gives one holder a phone, renews their lease without a new event, and refuses others with who and since when', () => {
    const { leases, changes } = setUp();
    expect(leases.take('phone-1', ADA)).toEqual({ deviceId: 'phone-1', ...ADA, since: '2026-07-28T10:00:00.000Z', expiresAt: '2026-07-28T10:00:30.000Z' });
    jest.advanceTimersByTime(20_000);
    expect(leases.take('phone-1', ADA)).toMatchObject({ since: '2026-07-28T10:00:00.000Z', expiresAt: '2026-07-28T10:00:50.000Z' });
    expect(() => leases.take('phone-1', { holderId: 'page-bob', holder: 'Bob' })).toThrow(
      expect.objectContaining({ code: 'DEVICE_CONTROLLED', controller: { holder: 'Ada', since: '2026-07-28T10:00:00.000Z', expiresAt: '2026-07-28T10:00:50.000Z' } }),
    );
    // Another phone is free.
    expect(leases.take('phone-2', { holderId: 'page-bob', holder: 'Bob' }).holder).toBe('Bob');
    expect(changes.map((c) => [c.deviceId, c.reason, c.controller?.holder ?? null])).toEqual([
      ['phone-1', 'taken', 'Ada'],
      ['phone-2', 'taken', 'Bob'],
    ]);
  });

  it('ends a lease not renewed within controlLeaseMs (a closed page), and not before', () => {
    const { leases, changes } = setUp();
    leases.take('phone-1', ADA);
    jest.advanceTimersByTime(29_999);
    expect(leases.current('phone-1')?.holder).toBe('Ada');
    jest.advanceTimersByTime(1);
    expect(leases.current('phone-1')).toBeUndefined();
    expect(changes.at(-1)).toEqual({ type: 'device.controller', deviceId: 'phone-1', controller: null, reason: 'expired', at: '2026-07-28T10:00:30.000Z' });
    expect(() => leases.release('phone-1', 'page-ada')).toThrow(expect.objectContaining({ code: 'CONTROL_NOT_HELD' }));
  });

  it('ends the lease when the phone disconnects', () => {
    const { phone, leases, changes } = setUp();
    leases.take('phone-1', ADA);
    phone.events$.next({ type: 'device.disconnected', deviceId: 'phone-1', reason: 'socket closed', at: '2026-07-28T10:00:01.000Z' });
    expect(leases.current('phone-1')).toBeUndefined();
    expect(changes.at(-1)).toMatchObject({ deviceId: 'phone-1', controller: null, reason: 'disconnected' });
  });

  it('hands back only for the holder', () => {
    const { leases, changes } = setUp();
    leases.take('phone-1', ADA);
    expect(() => leases.release('phone-1', 'page-bob')).toThrow(expect.objectContaining({ code: 'DEVICE_CONTROLLED' }));
    expect(leases.release('phone-1', 'page-ada').holder).toBe('Ada');
    expect(changes.at(-1)).toMatchObject({ controller: null, reason: 'handed_back' });
    // The expiry timer of the ended lease does not fire later.
    jest.advanceTimersByTime(60_000);
    expect(changes).toHaveLength(2);
  });

  it('refuses a malformed holder with VALIDATION_FAILED per field', () => {
    const { leases } = setUp();
    expect(() => leases.take('phone-1', { holderId: 'no spaces', holder: ' ' })).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        fieldErrors: [
          { field: 'holderId', message: 'holderId must be 1–128 characters of [A-Za-z0-9._-]' },
          { field: 'holder', message: 'holder must be a name of 1–64 characters without control characters' },
        ],
      }),
    );
    expect(leases.current('phone-1')).toBeUndefined();
  });
});

describe('DeviceControlService while a person holds the phone', () => {
  it('refuses every action with DEVICE_CONTROLLED and sends nothing, but still observes', async () => {
    const phone = new ScriptedScreenPhone();
    const leases = new ControlLeaseRegistry(phone, { controlLeaseMs: 30_000 });
    const control = new DeviceControlService(phone, new FixedSizeImageEncoder({ width: 540, height: 1200 }), DEFAULT_DEVICE_CONTROL_OPTIONS, undefined, leases);
    leases.take('phone-1', ADA);
    const refused = await domainRejection(control.pressBack('phone-1'));
    expect(refused).toMatchObject({ code: 'DEVICE_CONTROLLED', deviceId: 'phone-1', controller: { holder: 'Ada' } });
    await expect(control.tap('phone-1', { x: 10, y: 10 })).rejects.toMatchObject({ code: 'DEVICE_CONTROLLED' });
    await control.observe('phone-1', { image: false });
    expect(phone.commandNames().filter((name) => name !== 'ui_tree' && name !== 'screenshot')).toEqual([]);

    leases.release('phone-1', 'page-ada');
    await control.pressBack('phone-1');
    expect(phone.commandNames()).toContain('back');
    leases.onModuleDestroy();
  });
});
