import type { EventId, JSONRPCMessage } from '@modelcontextprotocol/server';
import { BoundedEventStore } from './bounded-event-store';

const message = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: n } });

/** What a replay after `lastEventId` sends: `[eventId, progress]` pairs, and the stream it names. */
async function replay(store: BoundedEventStore, lastEventId: EventId) {
  const sent: [EventId, unknown][] = [];
  const streamId = await store.replayEventsAfter(lastEventId, {
    send: async (eventId, msg) => {
      sent.push([eventId, (msg as unknown as { params: { progress: number } }).params.progress]);
    },
  });
  return { streamId, sent };
}

describe('BoundedEventStore', () => {
  it('issues ids <streamId>_<store prefix><n>, increasing across streams', async () => {
    const store = new BoundedEventStore(10);
    const a = await store.storeEvent('s-a', message(1));
    const b = await store.storeEvent('_GET_stream', message(2));
    const prefix = /^s-a_([0-9a-f]{8})1$/.exec(a)![1];
    expect(b).toBe(`_GET_stream_${prefix}2`);
    expect(store.size).toBe(2);
  });

  it('replays the messages of the same stream after the last seen id, in order', async () => {
    const store = new BoundedEventStore(10);
    const ids: EventId[] = [];
    for (const [stream, n] of [['s-a', 1], ['s-b', 2], ['s-a', 3], ['s-a', 4], ['s-b', 5]] as const) ids.push(await store.storeEvent(stream, message(n)));
    expect(await replay(store, ids[0])).toEqual({ streamId: 's-a', sent: [[ids[2], 3], [ids[3], 4]] });
    expect(await replay(store, ids[1])).toEqual({ streamId: 's-b', sent: [[ids[4], 5]] });
    expect(await replay(store, ids[3])).toEqual({ streamId: 's-a', sent: [] });
  });

  it('keeps only the last `capacity` messages, and replays every kept one of the stream after a dropped id', async () => {
    const store = new BoundedEventStore(3);
    const ids: EventId[] = [];
    for (const [stream, n] of [['s-a', 1], ['s-a', 2], ['s-b', 3], ['s-a', 4], ['s-a', 5]] as const) ids.push(await store.storeEvent(stream, message(n)));
    expect(store.size).toBe(3);
    // 1 and 2 were dropped; what is kept of s-a (4, 5) is newer than either.
    expect(await replay(store, ids[0])).toEqual({ streamId: 's-a', sent: [[ids[3], 4], [ids[4], 5]] });
    expect(await replay(store, ids[1])).toEqual({ streamId: 's-a', sent: [[ids[3], 4], [ids[4], 5]] });
    expect(await replay(store, ids[2])).toEqual({ streamId: 's-b', sent: [] });
  });

  it('maps an event id to its stream, kept or dropped, from the id itself', async () => {
    const store = new BoundedEventStore(1);
    const first = await store.storeEvent('_GET_stream', message(1));
    await store.storeEvent('s-b', message(2));
    expect(await store.getStreamIdForEventId(first)).toBe('_GET_stream');
    expect(await store.getStreamIdForEventId('s-x_0000abcd7')).toBe('s-x');
  });

  it.each(['nounderscore', '_leading'])('knows no stream for the id %j, and replays nothing', async (eventId) => {
    const store = new BoundedEventStore(4);
    await store.storeEvent('s-a', message(1));
    expect(await store.getStreamIdForEventId(eventId)).toBeUndefined();
    expect(await replay(store, eventId)).toEqual({ streamId: '', sent: [] });
  });

  it.each([0, -1, 2.5])('refuses capacity %p', (capacity) => {
    expect(() => new BoundedEventStore(capacity)).toThrow(new RangeError(`event capacity must be a positive integer, got ${capacity}`));
  });
});
