import { connect } from 'node:net';
import { once } from 'node:events';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DeviceHub, MobileClawModule, type DeviceGatewayOptions } from '@mobileclaw/device';
import { TcpDeviceTransport } from '@mobileclaw/transport-tcp';
import { RawPhone } from '@mobileclaw/transport-tcp/testing';
import { MobileClawWsAdapter, WsDeviceModule, WsDeviceTransport } from '@mobileclaw/transport-ws';
import { WsRawPhone } from '@mobileclaw/transport-ws/testing';

/** A frame as a test phone received it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- arbitrary JSON that tests index freely
export type ReceivedFrame = Record<string, any>;

/** A hand-driven phone, whatever carries its frames: what the transport-parametrised specs use. */
export interface TestPhone {
  /** Sends one frame. */
  send(frame: Record<string, unknown>): void;
  /** Sends `text` as one frame as is (TCP: a line; WebSocket: a text message). */
  sendText(text: string): void;
  reply(action: ReceivedFrame, data?: Record<string, unknown>): void;
  next(match?: (f: ReceivedFrame) => boolean): Promise<ReceivedFrame>;
  nextOfType(type: string): Promise<ReceivedFrame>;
  readonly unread: ReceivedFrame[];
  readonly closed: Promise<unknown>;
  readonly isClosed: boolean;
  /** Stops reading (the gateway's writes pile up). */
  pauseReading(): void;
  /** Drops the connection without saying goodbye. */
  destroy(): void;
}

/**
 * A device gateway as the composition root builds it: `MobileClawModule` with a TCP and a WebSocket
 * transport, `WsDeviceModule` and the `ws` adapter, on free loopback ports, Nest's logs off.
 */
export interface DeviceGateway {
  app: INestApplication;
  hub: DeviceHub;
  tcp: TcpDeviceTransport;
  ws: WsDeviceTransport;
  /** The TCP device port (still known after the transport stopped). */
  tcpPort: number;
  /** `ws://127.0.0.1:<http port>/ws/device`. */
  wsUrl: string;
  /** Closes the app (sessions end with `SHUTTING_DOWN`). Idempotent. */
  close(): Promise<void>;
}

export async function startDeviceGateway(options: DeviceGatewayOptions): Promise<DeviceGateway> {
  const tcp = new TcpDeviceTransport({ port: 0, host: '127.0.0.1' });
  const ws = new WsDeviceTransport();
  const moduleRef = await Test.createTestingModule({
    imports: [MobileClawModule.forRoot({ ...options, transports: [tcp, ws] }), WsDeviceModule.forRoot(ws)],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  app.useWebSocketAdapter(new MobileClawWsAdapter(app));
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  let closing: Promise<void> | undefined;
  return { app, hub: app.get(DeviceHub), tcp, ws, tcpPort: tcp.port, wsUrl: `ws://127.0.0.1:${port}${ws.path}`, close: () => (closing ??= app.close()) };
}

/** How a test phone reaches a {@link DeviceGateway} over one transport. */
export interface DeviceTransportDialer {
  readonly name: 'tcp' | 'ws';
  /** Opens a connection (no hello yet). */
  connect(gw: DeviceGateway): Promise<TestPhone>;
  /** Connects and completes the handshake as `deviceId`. */
  hello(gw: DeviceGateway, deviceId: string, token: string, extra?: Record<string, unknown>): Promise<{ phone: TestPhone; welcome: ReceivedFrame }>;
  /** Stops this transport (as the application does at shutdown). */
  stop(gw: DeviceGateway): Promise<void>;
  /** How a phone that tries to connect now is turned away: the error's code or message. */
  refusal(gw: DeviceGateway): Promise<string>;
}

export const TCP_DIALER: DeviceTransportDialer = {
  name: 'tcp',
  connect: (gw) => RawPhone.connect(gw.tcpPort),
  hello: (gw, deviceId, token, extra) => RawPhone.hello(gw.tcpPort, deviceId, token, extra),
  stop: (gw) => gw.tcp.stop(),
  async refusal(gw) {
    const socket = connect({ port: gw.tcpPort, host: '127.0.0.1' });
    const [error] = (await once(socket, 'error')) as [NodeJS.ErrnoException];
    return error.code ?? error.message;
  },
};

export const WS_DIALER: DeviceTransportDialer = {
  name: 'ws',
  connect: (gw) => WsRawPhone.connect(gw.wsUrl),
  hello: (gw, deviceId, token, extra) => WsRawPhone.hello(gw.wsUrl, deviceId, token, extra),
  stop: (gw) => gw.ws.stop(),
  async refusal(gw) {
    try {
      (await WsRawPhone.connect(gw.wsUrl)).destroy();
      return 'accepted';
    } catch (err) {
      return (err as Error).message;
    }
  },
};

/** Both transports, for `describe.each`: the core behaviour holds whichever one a phone uses. */
export const DEVICE_TRANSPORT_DIALERS: DeviceTransportDialer[] = [TCP_DIALER, WS_DIALER];
