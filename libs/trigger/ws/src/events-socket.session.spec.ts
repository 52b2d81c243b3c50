import { EventEmitter } from 'node:events';
import { Logger } from '@nestjs/common';
import { Subject } from 'rxjs';
import type { WebSocket } from 'ws';
import type { LiveScreenFrame, LiveScreenService } from '@mobileclaw/case-device-control';
import type { TaskService } from '@mobileclaw/case-tasks';
import type { DeviceEvent, MobileClawService, TaskEvent } from '@mobileclaw/domain';
import { CLOSE_INTERNAL_ERROR, CLOSE_TOO_SLOW, EventsSocketSession } from './events-socket.session';

/** The parts of a `ws` socket a session uses; `sent` holds every message, parsed. */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- messages that tests index freely
  readonly sent: any[] = [];
  closedWith?: { code: number; reason: string };

  send(text: string): void {
    this.sent.push(JSON.parse(text));
    this.emit('sent');
  }

  /** Resolves with the first message sent (or still to be sent) that matches. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as `sent`
  until(predicate: (message: any) => boolean): Promise<any> {
    return new Promise((resolve) => {
      const check = () => {
        const found = this.sent.find(predicate);
        if (found === undefined) return;
        this.off('sent', check);
        resolve(found);
      };
      this.on('sent', check);
      check();
    });
  }

  close(code: number, reason: string): void {
    this.closedWith = { code, reason };
    this.readyState = 3;
  }

  /** A client text message. */
  receive(message: unknown): void {
    this.emit('message', Buffer.from(JSON.stringify(message)), false);
  }
}

const frame = (deviceId: string, seq: number): LiveScreenFrame => ({ deviceId, seq, at: '2026-12-01T00:00:00.000Z', mime: 'image/jpeg', base64: 'AAAA', width: 324, height: 720, deviceWidth: 1080, deviceHeight: 2400, bytes: 3 });

function setUp() {
  const socket = new FakeSocket();
  const screens = new Map<string, Subject<LiveScreenFrame>>();
  const taskEvents = new Map<string, Subject<TaskEvent>>();
  const deps = {
    tasks: {
      find: async (taskId: string) => ({ taskId }),
      lastEventId: async () => 15,
      events: (taskId: string) => {
        const events = new Subject<TaskEvent>();
        taskEvents.set(taskId, events);
        return events;
      },
    } as unknown as TaskService,
    phones: { events$: new Subject<DeviceEvent>(), listDevices: async () => [] } as unknown as MobileClawService,
    screens: {
      watch: (deviceId: string) => {
        const stream = new Subject<LiveScreenFrame>();
        screens.set(deviceId, stream);
        return stream;
      },
    } as unknown as LiveScreenService,
  };
  const session = new EventsSocketSession(socket as unknown as WebSocket, deps, { maxMessageBytes: 65536, maxBufferedBytes: 4000, frameRetryMs: 10 });
  const replied = (id: string) => socket.until((m) => m.type === 'reply' && m.id === id);
  return { socket, session, screens, taskEvents, replied, phones: deps.phones as unknown as { events$: Subject<DeviceEvent>; listDevices: () => Promise<unknown[]> } };
}

describe('EventsSocketSession', () => {
  afterEach(() => jest.useRealTimers());

  it('closes a client that leaves more than maxBufferedBytes unsent (1013), and stops its subscriptions', async () => {
    const { socket, screens, taskEvents, replied } = setUp();
    socket.receive({ type: 'subscribe', id: 's', tasks: [{ taskId: 't1' }], screens: ['p1'] });
    await replied('s');
    socket.bufferedAmount = 4001;
    taskEvents.get('t1')!.next({ taskId: 't1', id: 1, type: 'task.started', at: '2026-12-01T00:00:00.000Z', data: {} });
    expect(socket.closedWith).toEqual({ code: CLOSE_TOO_SLOW, reason: 'too slow: messages not read; reconnect and resubscribe with since' });
    expect(taskEvents.get('t1')!.observed).toBe(false);
    expect(screens.get('p1')!.observed).toBe(false);
  });

  it('holds back screen frames while the socket is backed up, and sends only the newest once it drains', async () => {
    jest.useFakeTimers();
    const { socket, screens, replied } = setUp();
    socket.receive({ type: 'subscribe', id: 's', screens: ['p1'] });
    await replied('s');
    socket.bufferedAmount = 1001;
    for (const seq of [1, 2, 3]) screens.get('p1')!.next(frame('p1', seq));
    expect(socket.sent.filter((m) => m.type === 'screen.frame')).toEqual([]);
    jest.advanceTimersByTime(10);
    expect(socket.sent.filter((m) => m.type === 'screen.frame')).toEqual([]);
    socket.bufferedAmount = 0;
    jest.advanceTimersByTime(10);
    expect(socket.sent.filter((m) => m.type === 'screen.frame').map((m) => m.seq)).toEqual([3]);
    expect(socket.closedWith).toBeUndefined();
  });

  it('refuses to follow more than 100 tasks or screens at once, keeping what it follows', async () => {
    const { socket, replied } = setUp();
    socket.receive({ type: 'subscribe', id: 'a', screens: Array.from({ length: 60 }, (_, i) => `p${i}`) });
    expect(await replied('a')).toEqual({ type: 'reply', id: 'a', ok: true });
    socket.receive({ type: 'subscribe', id: 'b', screens: Array.from({ length: 41 }, (_, i) => `q${i}`) });
    expect(await replied('b')).toEqual({ type: 'reply', id: 'b', ok: false, error: { code: 'VALIDATION_FAILED', message: 'a socket follows at most 100 tasks, 100 screens and 100 device ids at once: unsubscribe some first, or follow every device with "*"' } });
    socket.receive({ type: 'subscribe', id: 'c', screens: ['p0', 'p1', ...Array.from({ length: 40 }, (_, i) => `q${i}`)] });
    expect(await replied('c')).toEqual({ type: 'reply', id: 'c', ok: true });
  });

  it('sends the subscribed phones\' list filtered to them, and their events only', async () => {
    const { socket, phones } = setUp();
    phones.listDevices = async () => [{ deviceId: 'p1' }, { deviceId: 'p2' }];
    socket.receive({ type: 'subscribe', id: 'd', devices: ['p2'] });
    // Sent while the list is read: held, then sent after it.
    phones.events$.next({ type: 'device.heartbeat', deviceId: 'p1', rttMs: 3, at: 'x' });
    phones.events$.next({ type: 'device.heartbeat', deviceId: 'p2', rttMs: 4, at: 'x' });
    await socket.until((m) => m.type === 'device.heartbeat');
    expect(socket.sent.map((m) => m.type)).toEqual(['welcome', 'reply', 'devices', 'device.heartbeat']);
    expect(socket.sent[2]).toEqual({ type: 'devices', devices: [{ deviceId: 'p2' }] });
    expect(socket.sent[3]).toMatchObject({ deviceId: 'p2', rttMs: 4 });
  });

  it('refuses to follow more than 100 device ids in all, over several messages, keeping what it follows; "*" counts as none', async () => {
    const { socket, replied, phones } = setUp();
    phones.listDevices = async () => [{ deviceId: 'p0' }, { deviceId: 'q0' }, { deviceId: 'r0' }];
    socket.receive({ type: 'subscribe', id: 'a', devices: Array.from({ length: 60 }, (_, i) => `p${i}`) });
    expect(await replied('a')).toEqual({ type: 'reply', id: 'a', ok: true });
    socket.receive({ type: 'subscribe', id: 'b', devices: Array.from({ length: 41 }, (_, i) => `q${i}`) });
    expect(await replied('b')).toEqual({
      type: 'reply',
      id: 'b',
      ok: false,
      error: { code: 'VALIDATION_FAILED', message: 'a socket follows at most 100 tasks, 100 screens and 100 device ids at once: unsubscribe some first, or follow every device with "*"' },
    });
    // Ids already followed do not count twice.
    socket.receive({ type: 'subscribe', id: 'c', devices: ['p0', 'p1', ...Array.from({ length: 40 }, (_, i) => `q${i}`)] });
    expect(await replied('c')).toEqual({ type: 'reply', id: 'c', ok: true });
    phones.events$.next({ type: 'device.heartbeat', deviceId: 'q0', rttMs: 1, at: 'x' });
    phones.events$.next({ type: 'device.heartbeat', deviceId: 'r0', rttMs: 2, at: 'x' });
    socket.receive({ type: 'subscribe', id: 'd', devices: '*' });
    expect(await replied('d')).toEqual({ type: 'reply', id: 'd', ok: true });
    phones.events$.next({ type: 'device.heartbeat', deviceId: 'r0', rttMs: 3, at: 'x' });
    await socket.until((m) => m.type === 'device.heartbeat' && m.rttMs === 3);
    expect(socket.sent.filter((m) => m.type === 'device.heartbeat').map((m) => m.rttMs)).toEqual([1, 3]);
  });

  it('refuses to unsubscribe single devices while following "*", and keeps sending their events; "*" then unsubscribes', async () => {
    const { socket, replied, phones } = setUp();
    socket.receive({ type: 'subscribe', id: 'a', devices: '*' });
    await replied('a');
    socket.receive({ type: 'unsubscribe', id: 'b', devices: ['sim-1'], tasks: ['t1'] });
    expect(await replied('b')).toEqual({
      type: 'reply',
      id: 'b',
      ok: false,
      error: {
        code: 'VALIDATION_FAILED',
        message: 'this socket follows every device ("*"): unsubscribe devices "*", then subscribe the device ids wanted',
        fieldErrors: [{ field: 'devices', message: 'must be "*" while every device is followed' }],
      },
    });
    phones.events$.next({ type: 'device.heartbeat', deviceId: 'sim-1', rttMs: 5, at: 'x' });
    await socket.until((m) => m.type === 'device.heartbeat' && m.rttMs === 5);
    socket.receive({ type: 'unsubscribe', id: 'c', devices: '*' });
    expect(await replied('c')).toEqual({ type: 'reply', id: 'c', ok: true });
    phones.events$.next({ type: 'device.heartbeat', deviceId: 'sim-1', rttMs: 6, at: 'x' });
    socket.receive({ type: 'subscribe', id: 'e', devices: ['sim-2'] });
    await replied('e');
    expect(socket.sent.filter((m) => m.type === 'device.heartbeat').map((m) => m.rttMs)).toEqual([5]);
  });

  it('ends a task with its real last event id: the last one sent, or, when none came after since, the stored last one', async () => {
    const { socket, replied, taskEvents } = setUp();
    socket.receive({ type: 'subscribe', id: 'a', tasks: [{ taskId: 't1', since: 9999 }, { taskId: 't2', since: 3 }] });
    await replied('a');
    taskEvents.get('t1')!.complete();
    expect(await socket.until((m) => m.type === 'task.end' && m.taskId === 't1')).toEqual({ type: 'task.end', taskId: 't1', lastEventId: 15 });
    taskEvents.get('t2')!.next({ taskId: 't2', id: 4, type: 'task.completed', at: '2026-12-01T00:00:00.000Z', data: {} });
    taskEvents.get('t2')!.complete();
    expect(await socket.until((m) => m.type === 'task.end' && m.taskId === 't2')).toEqual({ type: 'task.end', taskId: 't2', lastEventId: 4 });
  });

  describe('a message whose handling throws', () => {
    let logged: jest.SpyInstance;
    beforeEach(() => {
      logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    });
    afterEach(() => logged.mockRestore());

    it('ends only this socket (INTERNAL_ERROR, close 1011) when an awaited handler rejects, and logs it once', async () => {
      const { socket, screens } = setUp();
      (screens as unknown as { set: unknown }).set = () => {
        throw new Error(`watch failed ${'x'.repeat(1000)}`);
      };
      socket.receive({ type: 'subscribe', id: 's1', screens: ['sim-1'] });
      const error = await socket.until((m) => m.type === 'error');
      expect(error).toEqual({ type: 'error', error: { code: 'INTERNAL_ERROR', message: 'the gateway failed to handle this message; the socket closes' } });
      expect(socket.closedWith).toEqual({ code: CLOSE_INTERNAL_ERROR, reason: 'internal error' });
      expect(CLOSE_INTERNAL_ERROR).toBe(1011);
      expect(logged).toHaveBeenCalledTimes(1);
      expect(logged).toHaveBeenCalledWith(`closing an event socket: handling its message failed: watch failed ${'x'.repeat(200 - 'watch failed '.length)}`);
      socket.receive({ type: 'subscribe', id: 's2', devices: '*' });
      expect(socket.sent.filter((m) => m.type === 'reply')).toEqual([]);
    });

    it('ends only this socket when handling throws synchronously', () => {
      const { socket } = setUp();
      const send = socket.send.bind(socket);
      let throwOnce = true;
      socket.send = (text: string) => {
        if (throwOnce) {
          throwOnce = false;
          throw new RangeError('Maximum call stack size exceeded');
        }
        send(text);
      };
      expect(() => socket.receive({ type: 'launch' })).not.toThrow();
      expect(socket.sent.slice(1)).toEqual([{ type: 'error', error: { code: 'INTERNAL_ERROR', message: 'the gateway failed to handle this message; the socket closes' } }]);
      expect(socket.closedWith).toEqual({ code: 1011, reason: 'internal error' });
      expect(logged).toHaveBeenCalledWith('closing an event socket: handling its message failed: Maximum call stack size exceeded');
    });
  });
});
