import { randomUUID } from 'node:crypto';
import type { EventId, EventStore, JSONRPCMessage, StreamId } from '@modelcontextprotocol/server';

/**
 * The messages one 2025-era session sent, for replay after a dropped stream (`Last-Event-ID`). Keeps
 * the last `capacity` messages of the session; an id older than that replays nothing (the client
 * then sees a gap, as after a restart). Event ids are `<streamId>_<n>`, so the stream of an id is
 * known even after its messages were dropped.
 */
export class BoundedEventStore implements EventStore {
  private readonly events = new Map<EventId, { streamId: StreamId; message: JSONRPCMessage }>();
  private counter = 0;
  private readonly prefix = randomUUID().slice(0, 8);

  /** @param capacity messages kept, ≥ 1. @throws RangeError otherwise. */
  constructor(private readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`event capacity must be a positive integer, got ${capacity}`);
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const eventId = `${streamId}_${this.prefix}${++this.counter}`;
    this.events.set(eventId, { streamId, message });
    while (this.events.size > this.capacity) this.events.delete(this.events.keys().next().value as EventId);
    return eventId;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    const known = this.events.get(eventId)?.streamId;
    if (known !== undefined) return known;
    const cut = eventId.lastIndexOf('_');
    return cut > 0 ? eventId.slice(0, cut) : undefined;
  }

  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    const streamId = await this.getStreamIdForEventId(lastEventId);
    if (streamId === undefined) return '';
    let after = !this.events.has(lastEventId);
    // When the last seen event was dropped, everything still kept on the stream is newer than it.
    for (const [eventId, event] of this.events) {
      if (!after) {
        if (eventId === lastEventId) after = true;
        continue;
      }
      if (event.streamId === streamId) await send(eventId, event.message);
    }
    return streamId;
  }

  get size(): number {
    return this.events.size;
  }
}
