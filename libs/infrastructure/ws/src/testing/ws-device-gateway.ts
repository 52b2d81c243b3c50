import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { DeviceHub, MobileClawModule, type DeviceGatewayOptions } from '@mobileclaw/device';
import { MobileClawWsAdapter } from '../mobileclaw-ws-adapter';
import { WsDeviceModule } from '../ws-device.module';
import { WsDeviceTransport, type WsDeviceTransportOptions } from '../ws-device-transport';

/** A Nest app serving phones over WebSocket only, on a free loopback port. */
export interface WsDeviceGateway {
  app: INestApplication;
  hub: DeviceHub;
  transport: WsDeviceTransport;
  /** `ws://127.0.0.1:<port><path>` of the device socket. */
  url: string;
  /** Closes the app: sessions end with `SHUTTING_DOWN`, the port closes. */
  close(): Promise<void>;
}

/**
 * Starts `MobileClawModule` with a {@link WsDeviceTransport} and `WsDeviceModule` on a free loopback
 * port, as the gateway composes them, with Nest's logs off.
 */
export async function startWsDeviceGateway(options: DeviceGatewayOptions, transportOptions: WsDeviceTransportOptions = {}): Promise<WsDeviceGateway> {
  const transport = new WsDeviceTransport(transportOptions);
  const moduleRef = await Test.createTestingModule({
    imports: [MobileClawModule.forRoot({ ...options, transports: [transport] }), WsDeviceModule.forRoot(transport)],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  app.useWebSocketAdapter(new MobileClawWsAdapter(app));
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  return { app, hub: app.get(DeviceHub), transport, url: `ws://127.0.0.1:${port}${transport.path}`, close: () => app.close() };
}
