import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pairingLink, type PairingTarget } from './pairing-link';

/** The vectors the Android app's PairingLinkVectorsTest parses: both sides agree on every link byte. */
const VECTORS = JSON.parse(readFileSync(resolve(__dirname, '../../../../../docs/pairing-link-vectors.json'), 'utf8')) as {
  vectors: { name: string; target: PairingTarget; link: string }[];
};

describe('pairingLink', () => {
  it('has vectors to run', () => {
    expect(VECTORS.vectors.length).toBeGreaterThanOrEqual(5);
  });

  it.each(VECTORS.vectors.map((v) => [v.name, v] as const))('builds the shared vector exactly: %s', (_name, vector) => {
    expect(pairingLink(vector.target)).toBe(vector.link);
  });

  it('reads back to the same values with the WHATWG URL parser (what a browser or camera app sees)', () => {
    for (const { target, link } of VECTORS.vectors) {
      const url = new URL(link);
      expect({ protocol: url.protocol, host: url.host, search: Object.fromEntries(url.searchParams) }).toEqual({
        protocol: 'mobileclaw:',
        host: 'pair',
        search: { host: target.host, port: String(target.port), token: target.token, ...(target.tls ? { tls: '1' } : {}) },
      });
    }
  });
});
