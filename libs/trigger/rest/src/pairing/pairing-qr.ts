import { toString as qrToString } from 'qrcode';

/**
 * `text` as a QR code in SVG (the `qrcode` package): error correction M (15 % of the symbol may be
 * damaged or glared), a 4-module quiet zone, black on white whatever the page's colours (camera apps
 * read dark-on-light), no fixed size (`viewBox` in modules: the page scales it).
 * @throws Error from `qrcode` when `text` is too long for any QR version (over ~2 300 bytes at level M).
 */
export function qrCodeSvg(text: string): Promise<string> {
  return qrToString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 4, color: { dark: '#000000', light: '#ffffff' } });
}
