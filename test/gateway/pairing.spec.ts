import jsQR from 'jsqr';
import sharp from 'sharp';
import { SimulatedPhone } from '@mobileclaw/simulator';
import { gatewayUrl, testGateways, waitOnline } from '../support/test-gateways';

/**
 * `GET /api/pairing` of a real gateway: its QR code, drawn by an SVG renderer (librsvg through sharp)
 * as a browser would, decodes to the link, and a phone that connects with nothing but the decoded
 * link's values is listed online.
 */

const gateways = testGateways('mobileclaw-pairing-');

interface PairingInfo {
  link: string;
  host: string;
  port: number;
  deviceToken: string;
  hostSource: string;
  warnings: string[];
  qrSvg: string;
}

/** The text of the QR code in `svg`, rendered at 8 px per module. */
async function decodeQr(svg: string): Promise<string | undefined> {
  const { data, info } = await sharp(Buffer.from(svg), { density: 72 * 8 }).flatten({ background: '#ffffff' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data;
}

describe('pairing a phone from GET /api/pairing', () => {
  it('the QR code decodes to the link, and the link\'s values connect a phone', async () => {
    const gw = await gateways.start({ MOBILECLAW_SIM: 'off', MOBILECLAW_PAIRING_ADDRESS: '127.0.0.1' });
    const response = await fetch(gatewayUrl(gw, '/api/pairing'));
    expect(response.status).toBe(200);
    const pairing = (await response.json()) as PairingInfo;
    expect(pairing).toMatchObject({ link: `mobileclaw://pair?host=127.0.0.1&port=${gw.devicePort}&token=${gw.deviceToken}`, hostSource: 'configured', warnings: [] });

    const decoded = await decodeQr(pairing.qrSvg);
    expect(decoded).toBe(pairing.link);

    const link = new URL(decoded ?? '');
    const phone = new SimulatedPhone({ host: link.searchParams.get('host') ?? '', port: Number(link.searchParams.get('port')), token: link.searchParams.get('token') ?? '', deviceId: 'paired-1' });
    try {
      await phone.start();
      await waitOnline(gw, 'paired-1');
      const { devices } = (await (await fetch(gatewayUrl(gw, '/api/devices'))).json()) as { devices: { deviceId: string; status: string }[] };
      expect(devices).toEqual([expect.objectContaining({ deviceId: 'paired-1', status: 'online' })]);
    } finally {
      await phone.stop();
    }
  });

  it('with an API token it needs the token, like every /api route', async () => {
    const apiToken = 'pairing-api-token-0123456789';
    const gw = await gateways.start({ MOBILECLAW_SIM: 'off', MOBILECLAW_API_TOKEN: apiToken });
    expect((await fetch(gatewayUrl(gw, '/api/pairing'))).status).toBe(401);
    const allowed = await fetch(gatewayUrl(gw, '/api/pairing'), { headers: { authorization: `Bearer ${apiToken}` } });
    expect(allowed.status).toBe(200);
    expect(((await allowed.json()) as PairingInfo).deviceToken).toBe(gw.deviceToken);
  });
});
