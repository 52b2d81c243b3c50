import { Subject } from 'rxjs';
import { EventCursor } from './event-cursor';

describe('EventCursor', () => {
  it('buffers values that arrive between pulls, in order', async () => {
    const source = new Subject<number>();
    const cursor = new EventCursor(source);
    source.next(1);
    source.next(2);
    expect(await cursor.next()).toBe(1);
    expect(await cursor.next()).toBe(2);
  });

  it('resolves a waiting pull with the next value', async () => {
    const source = new Subject<string>();
    const cursor = new EventCursor(source);
    const pending = cursor.next();
    source.next('a');
    expect(await pending).toBe('a');
  });

  it('resolves undefined once the source completed, after the buffered values', async () => {
    const source = new Subject<number>();
    const cursor = new EventCursor(source);
    const pending = cursor.next();
    source.next(1);
    source.next(2);
    source.complete();
    expect([await pending, await cursor.next(), await cursor.next(), await cursor.next()]).toEqual([1, 2, undefined, undefined]);
  });

  it("rejects the pull that meets the source's error, after the buffered values", async () => {
    const source = new Subject<number>();
    const cursor = new EventCursor(source);
    const failure = new Error('bus closed');
    source.next(1);
    source.error(failure);
    expect(await cursor.next()).toBe(1);
    await expect(cursor.next()).rejects.toBe(failure);
  });

  it('stops reading when closed: unsubscribes, and a waiting or later pull resolves undefined', async () => {
    const source = new Subject<number>();
    const cursor = new EventCursor(source);
    const waiting = cursor.next();
    cursor.close();
    source.next(1);
    expect(source.observed).toBe(false);
    expect(await waiting).toBeUndefined();
    expect(await cursor.next()).toBeUndefined();
  });
});
