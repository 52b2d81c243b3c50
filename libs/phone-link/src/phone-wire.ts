import net from 'node:net';
import { WebSocket, type RawData } from 'ws';
import { LineFrameDecoder } from '@mobileclaw/protocol';

/**
 * Where a phone reaches its gateway: the TCP device port (`host`, default 127.0.0.1, and `port`), or
 * the gateway's WebSocket (`url`, `ws://host:port/ws/device` or `wss://…` behind a TLS proxy).
 */
export type GatewayAddress = { host?: string; port: number; url?: never } | { url: string; host?: never; port?: never };

/** What a {@link PhoneWire} reports to the link that opened it. */
export interface PhoneWireEvents {
  /** The connection is up: the link says hello. */
  open(): void;
  /** One whole frame from the gateway: JSON text without a terminator. */
  frame(frame: Buffer): void;
  /** The connection ended, for whatever reason; `hadError` when it ended in an error (refused, reset, …). Called once. */
  close(hadError: boolean): void;
  /** A diagnostic line (a socket error, a dropped frame). */
  log(line: string): void;
}

/**
 * One connection of a phone to its gateway, whatever carries the frames: a TCP socket (one frame per
 * `\n`-terminated line) or a WebSocket (one frame per text message). Frames from the gateway over
 * the phone's limit are dropped and logged, on either.
 */
export interface PhoneWire {
  /** Sends one frame: compact JSON without a terminator (nothing is sent once the wire is closing). */
  send(frameJson: string): void;
  /** True once the connection is closing or closed. */
  readonly closed: boolean;
  /** Resolves once the connection has closed. */
  readonly ended: Promise<void>;
  /** Drops the connection at once. */
  destroy(): void;
}

/** `host:port` or the URL of `address`, for logs and messages. */
export function describeGatewayAddress(address: GatewayAddress): string {
  return address.url ?? `${address.host ?? '127.0.0.1'}:${address.port}`;
}

/**
 * Checks a gateway address. @throws TypeError when `url` is not a `ws:` or `wss:` URL, or when the
 * port is not an integer 1–65535.
 */
export function checkGatewayAddress(address: GatewayAddress): void {
  if (address.url !== undefined) {
    let protocol: string;
    try {
      protocol = new URL(address.url).protocol;
    } catch {
      throw new TypeError(`the gateway URL ${JSON.stringify(address.url)} is not a URL`);
    }
    if (protocol !== 'ws:' && protocol !== 'wss:') throw new TypeError(`the gateway URL must be ws:// or wss://, got ${JSON.stringify(address.url)}`);
    return;
  }
  if (!Number.isInteger(address.port) || address.port < 1 || address.port > 65535) throw new TypeError(`the gateway port must be an integer 1-65535, got ${String(address.port)}`);
}

/**
 * Opens a connection to the gateway at `address`; `events` hear of it from now on.
 * @param maxFrameBytes the largest frame from the gateway the phone takes, in bytes.
 */
export function openPhoneWire(address: GatewayAddress, maxFrameBytes: number, events: PhoneWireEvents): PhoneWire {
  return address.url === undefined ? openTcpWire(address.host ?? '127.0.0.1', address.port, maxFrameBytes, events) : openWebSocketWire(address.url, maxFrameBytes, events);
}

function openTcpWire(host: string, port: number, maxFrameBytes: number, events: PhoneWireEvents): PhoneWire {
  const socket = net.connect({ host, port });
  socket.setNoDelay(true);
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  const decoder = new LineFrameDecoder({
    maxFrameBytes,
    onFrame: (line) => events.frame(line),
    onOversized: (_head, size) => events.log(`dropped a ${size}-byte frame from the gateway (limit ${maxFrameBytes})`),
  });
  socket.on('connect', () => events.open());
  socket.on('data', (chunk: Buffer) => decoder.push(chunk));
  socket.on('error', (err) => events.log(`socket error: ${err.message}`));
  socket.on('close', (hadError) => events.close(hadError));
  return {
    send(frameJson) {
      if (!socket.destroyed && socket.writable) socket.write(frameJson + '\n');
    },
    get closed() {
      return socket.destroyed;
    },
    ended,
    destroy: () => socket.destroy(),
  };
}

function openWebSocketWire(url: string, maxFrameBytes: number, events: PhoneWireEvents): PhoneWire {
  // ws reads messages of up to twice the limit, so that one over it is dropped like an over-long TCP
  // line and the connection survives; only a larger one closes it (1009).
  const socket = new WebSocket(url, { perMessageDeflate: false, maxPayload: 2 * maxFrameBytes });
  let hadError = false;
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('open', () => events.open());
  socket.on('message', (data: RawData, isBinary: boolean) => {
    const message = data as Buffer;
    if (isBinary) events.log(`dropped a ${message.length}-byte binary message from the gateway`);
    else if (message.length > maxFrameBytes) events.log(`dropped a ${message.length}-byte frame from the gateway (limit ${maxFrameBytes})`);
    else events.frame(message);
  });
  socket.on('error', (err) => {
    hadError = true;
    events.log(`socket error: ${err.message}`);
  });
  socket.on('close', () => events.close(hadError));
  return {
    send(frameJson) {
      if (socket.readyState === WebSocket.OPEN) socket.send(frameJson);
    },
    get closed() {
      return socket.readyState === WebSocket.CLOSING || socket.readyState === WebSocket.CLOSED;
    },
    ended,
    destroy: () => socket.terminate(),
  };
}
