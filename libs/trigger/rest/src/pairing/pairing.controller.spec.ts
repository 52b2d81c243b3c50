import { get } from 'node:http';
import { Module, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { NEVER } from 'rxjs';
import { MobileClawService, TaskRepository } from '@mobileclaw/domain';
import { TakeoverService, TaskService } from '@mobileclaw/case-tasks';
import { GatewayApiModule } from '../gateway-api.module';
import type { GatewayApiOptions } from '../http/api-token.guard';
import type { PairingInfo } from './pairing.service';

const API_TOKEN = 'rest-api-token-0123456789';
const DEVICE_TOKEN = 'device-token-abcdefghijklmnop';
const LAN = { lo: [{ address: '127.0.0.1', family: 'IPv4' as const, internal: true, netmask: '255.0.0.0', mac: '00:00:00:00:00:00', cidr: '127.0.0.1/8' }], wlan0: [{ address: '192.168.1.20', family: 'IPv4' as const, internal: false, netmask: '255.255.255.0', mac: '00:00:00:00:00:00', cidr: '192.168.1.20/24' }] };

@Module({
  providers: [
    { provide: MobileClawService, useValue: { events$: NEVER, listDevices: async () => [] } },
    { provide: TaskService, useValue: {} },
    { provide: TakeoverService, useValue: {} },
    { provide: TaskRepository, useValue: {} },
  ],
  exports: [MobileClawService, TaskService, TakeoverService, TaskRepository],
})
class PortsModule {}

async function start(options: GatewayApiOptions): Promise<{ app: INestApplication; base: string }> {
  const moduleRef = await Test.createTestingModule({ imports: [{ module: PortsModule, global: true }, GatewayApiModule.forRoot(options)] }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  return { app, base: `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}` };
}

/** GET `url` with a `Host` header (fetch does not let one be set) and other headers of our choosing, as JSON. */
function getWithHost(url: string, host: string, headers: Record<string, string> = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { ...headers, host } }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve(JSON.parse(text)));
    }).on('error', reject);
  });
}

describe('GET /api/pairing', () => {
  let app: INestApplication;
  let base: string;
  let devicePort = 7397;

  beforeAll(async () => {
    ({ app, base } = await start({ apiToken: API_TOKEN, pairing: { deviceToken: DEVICE_TOKEN, devicePort: () => devicePort, interfaces: () => LAN } }));
  });
  afterAll(() => app.close());

  const auth = { authorization: `Bearer ${API_TOKEN}` };

  it('is behind the API token: it reveals the device token', async () => {
    const refused = await fetch(`${base}/api/pairing`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await fetch(`${base}/api/pairing`, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
  });

  it('answers the link, its values and QR code, never cached; a page on loopback gets the LAN address with a warning', async () => {
    const response = await fetch(`${base}/api/pairing`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as PairingInfo;
    expect({ ...body, qrSvg: body.qrSvg.slice(0, 5) }).toEqual({
      link: `mobileclaw://pair?host=192.168.1.20&port=7397&token=${DEVICE_TOKEN}`,
      host: '192.168.1.20',
      port: 7397,
      transport: 'tcp',
      tls: false,
      deviceToken: DEVICE_TOKEN,
      hostSource: 'interface',
      hostGuessed: true,
      warnings: [expect.stringContaining('192.168.1.20 is a guess')],
      qrSvg: '<svg ',
    });
  });

  it('uses the host the page was loaded from, and the device port as bound at the time of the request', async () => {
    devicePort = 41234;
    const body = (await getWithHost(`${base}/api/pairing?access_token=${API_TOKEN}`, 'gw.local:3000')) as PairingInfo;
    expect(body).toMatchObject({ link: `mobileclaw://pair?host=gw.local&port=41234&token=${DEVICE_TOKEN}`, hostSource: 'request', hostGuessed: true, warnings: [] });
  });

  it('behind a proxy, takes X-Forwarded-Host as the host and warns that the device port needs a direct or stream-proxied path', async () => {
    devicePort = 7397;
    const body = (await getWithHost(`${base}/api/pairing`, '127.0.0.1:3000', { ...auth, 'x-forwarded-for': '203.0.113.7', 'x-forwarded-host': 'gateway.example.com' })) as PairingInfo;
    expect(body).toMatchObject({ link: `mobileclaw://pair?host=gateway.example.com&port=7397&token=${DEVICE_TOKEN}`, hostSource: 'request', hostGuessed: true });
    expect(body.warnings).toEqual([expect.stringMatching(/^This page came through a proxy \(X-Forwarded-For header\): phones connect to the device port \(7397\) over raw TCP.*MOBILECLAW_PAIRING_ADDRESS.*tls:\/\/gateway\.example\.com:7397/)]);
  });

  it('a configured address wins, with its own port and TLS', async () => {
    const configured = await start({ pairing: { deviceToken: DEVICE_TOKEN, devicePort: () => 7397, address: { host: 'gw.example.org', port: 443, tls: true }, interfaces: () => LAN } });
    try {
      const body = (await (await fetch(`${configured.base}/api/pairing`)).json()) as PairingInfo;
      expect(body).toMatchObject({ link: `mobileclaw://pair?host=gw.example.org&port=443&token=${DEVICE_TOKEN}&tls=1`, port: 443, tls: true, hostSource: 'configured', hostGuessed: false, warnings: [] });
    } finally {
      await configured.app.close();
    }
  });

  it('answers 404 problem details when the host offers no pairing', async () => {
    const bare = await start({});
    try {
      const response = await fetch(`${bare.base}/api/pairing`);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ status: 404, detail: 'this gateway offers no pairing' });
    } finally {
      await bare.app.close();
    }
  });
});
