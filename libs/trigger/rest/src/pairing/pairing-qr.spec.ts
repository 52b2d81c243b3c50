import jsQR from 'jsqr';
import { qrCodeSvg } from './pairing-qr';

/**
 * Draws the SVG `qrCodeSvg` writes as RGBA pixels, `scale` px per module: a white square of the
 * viewBox, then the dark path's runs (`M x y`, `m dx dy`, `h dx`, one module high, centred on y).
 * Any other path command fails the test: the drawing would no longer be what the browser shows.
 */
function rasterize(svg: string, scale: number): { data: Uint8ClampedArray; size: number } {
  const side = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  const path = /<path stroke="#000000" d="([^"]+)"/.exec(svg)?.[1] ?? '';
  const size = side * scale;
  const data = new Uint8ClampedArray(size * size * 4).fill(255);
  let x = 0;
  let y = 0;
  for (const [, op, args] of path.matchAll(/([MmHh])([^MmHh]*)/g)) {
    const n = args.trim().split(/[\s,]+/).map(Number);
    if (op === 'M') [x, y] = n;
    else if (op === 'm') [x, y] = [x + n[0], y + n[1]];
    else {
      const row = Math.floor(y);
      for (let col = x; col < x + n[0]; col++) {
        for (let py = row * scale; py < (row + 1) * scale; py++) {
          // RGB black, alpha left opaque.
          for (let px = col * scale; px < (col + 1) * scale; px++) data.fill(0, (py * size + px) * 4, (py * size + px) * 4 + 3);
        }
      }
      x += n[0];
    }
  }
  return { data, size };
}

describe('qrCodeSvg', () => {
  const link = 'mobileclaw://pair?host=192.168.1.20&port=7397&token=q3Jx9_Vb-T0kLmN2pQr8sTuVwXyZ01234567890aBcDe';

  it('is a black-on-white SVG sized by its viewBox, with no fixed size', async () => {
    const svg = await qrCodeSvg(link);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 (\d+) \1" shape-rendering="crispEdges"><path fill="#ffffff" d="M0 0h\1v\1H0z"\/><path stroke="#000000" d="[Mmh0-9. -]+"\/><\/svg>\n?$/);
  });

  it('draws a symbol that decodes back to the link (jsQR)', async () => {
    const { data, size } = rasterize(await qrCodeSvg(link), 4);
    expect(jsQR(data, size, size)?.data).toBe(link);
  });

  it('a longer link (a TLS host name, a long configured token) still decodes', async () => {
    const long = `mobileclaw://pair?host=gateway.home.example.org&port=443&token=${'x'.repeat(200)}&tls=1`;
    const { data, size } = rasterize(await qrCodeSvg(long), 3);
    expect(jsQR(data, size, size)?.data).toBe(long);
  });
});
