import { parsePairingAddress } from './pairing-address';

describe('parsePairingAddress', () => {
  it.each([
    ['192.168.1.20', { host: '192.168.1.20', port: undefined, tls: false }],
    ['gw.example.org:7400', { host: 'gw.example.org', port: 7400, tls: false }],
    ['tcp://gw.local', { host: 'gw.local', port: undefined, tls: false }],
    ['tls://gw.example.org:443', { host: 'gw.example.org', port: 443, tls: true }],
    ['TLS://GW.example.org:443', { host: 'GW.example.org', port: 443, tls: true }],
    ['[fe80::1]:7397', { host: 'fe80::1', port: 7397, tls: false }],
    ['tls://[2001:db8::5]', { host: '2001:db8::5', port: undefined, tls: true }],
    ['fe80::1', { host: 'fe80::1', port: undefined, tls: false }],
    ['  10.0.0.2:1  ', { host: '10.0.0.2', port: 1, tls: false }],
  ])('reads %j', (value, expected) => {
    expect(parsePairingAddress(value)).toEqual(expected);
  });

  it.each(['', 'http://gw.local', 'gw.local:0', 'gw.local:65536', 'gw.local:', 'gw_local', 'gw.local/path', '[gw.local]:7397', '[fe80::1', 'fe80::zz', 'user@gw.local', 'gw.local:7397:1'])(
    'refuses %j, naming the variable',
    (value) => {
      expect(() => parsePairingAddress(value)).toThrow(new RangeError(`MOBILECLAW_PAIRING_ADDRESS must be host, host:port or tls://host:port (port 1-65535), got ${JSON.stringify(value)}`));
    },
  );
});
