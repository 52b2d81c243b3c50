import type { ErrorCode } from '@mobileclaw/domain';
import type { DeviceHub } from '../device-hub';
import type { DeviceSession } from '../device-session';
import type { FrameTransport } from '../frame-transport';

/** The device token the hubs of the device specs use. */
export const TEST_DEVICE_TOKEN = 'message-transport-token-0123';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- frames the tests read freely
export type Json = Record<string, any>;

/**
 * An in-memory message-based transport (as a WebSocket is): every frame arrives whole, one per
 * message, with no terminator; an oversized message is known complete the moment it arrives. Records
 * what the gateway sends (`sent`, parsed) and whether it closed the connection.
 */
export class MessageTransport implements FrameTransport {
  readonly sent: Json[] = [];
  maxFrameBytes = 0;
  ended = false;
  /** Why the session ended the connection gracefully ({@link end}'s code); undefined until then or when destroyed. */
  endCode: ErrorCode | undefined;
  destroyed = false;
  pendingWriteBytes = 0;
  session!: DeviceSession;

  readonly remoteAddress: string | undefined;

  /** `remoteAddress`: the peer's address; null for a transport that does not know it. */
  constructor(remoteAddress: string | null = 'memory:1') {
    this.remoteAddress = remoteAddress ?? undefined;
  }

  send(frameJson: string): void {
    if (frameJson.endsWith('\n')) throw new Error('a frame transport frames the JSON itself: no terminator expected');
    this.sent.push(JSON.parse(frameJson) as Json);
  }
  end(code: ErrorCode): void {
    this.ended = true;
    this.endCode = code;
  }
  destroy(): void {
    this.ended = true;
    this.destroyed = true;
  }
  setMaxFrameBytes(bytes: number): void {
    this.maxFrameBytes = bytes;
  }

  /** The phone sends one message (an object is sent as its JSON). */
  deliver(frame: Json | string): void {
    const text = typeof frame === 'string' ? frame : JSON.stringify(frame);
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length > this.maxFrameBytes) {
      this.session.frameTooLarge(bytes.subarray(0, 256));
      this.session.frameDiscarded(bytes.subarray(0, 256), bytes.length);
    } else {
      this.session.receive(bytes);
    }
  }

  /** The last frame of `type` the gateway sent. */
  lastOfType(type: string): Json | undefined {
    return [...this.sent].reverse().find((f) => f['type'] === type);
  }

  /** Every frame of `type` the gateway sent, oldest first. */
  ofType(type: string): Json[] {
    return this.sent.filter((f) => f['type'] === type);
  }

  /** Answers the action in flight (the last one sent) with success and `data`. */
  succeedLast(data: Json = {}): string {
    const requestId = (this.lastOfType('action') as Json)['requestId'] as string;
    this.deliver({ type: 'response', requestId, status: 'success', data });
    return requestId;
  }
}

/** A hello as the phone sends it; `extra` overrides or adds fields. */
export function helloFrame(deviceId: string, extra: Json = {}): Json {
  return {
    type: 'hello',
    protocolVersion: 1,
    deviceId,
    token: TEST_DEVICE_TOKEN,
    device: { model: 'Msg', android: '14', screen: { width: 1080, height: 2400, rotation: 0 } },
    ...extra,
  };
}

/** Opens a connection to `hub` and completes its handshake as `deviceId`. */
export function connectPhone(hub: DeviceHub, deviceId: string, remoteAddress?: string | null, hello: Json = {}): MessageTransport {
  const transport = new MessageTransport(remoteAddress);
  transport.session = hub.accept(transport);
  transport.deliver(helloFrame(deviceId, hello));
  return transport;
}
