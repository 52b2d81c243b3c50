import type { NetworkInterfaceInfo } from 'node:os';
import { firstLanIPv4, hostOfHostHeader, isLoopbackName, isUnspecifiedAddress, resolvePairingHost } from './pairing-host';

const v4 = (address: string, internal = false): NetworkInterfaceInfo => ({ address, family: 'IPv4', internal, netmask: '255.255.255.0', mac: '00:00:00:00:00:00', cidr: `${address}/24` });
const v6 = (address: string, internal = false): NetworkInterfaceInfo => ({ address, family: 'IPv6', internal, netmask: 'ffff:ffff:ffff:ffff::', mac: '00:00:00:00:00:00', cidr: `${address}/64`, scopeid: 0 });

const LAN = { lo: [v4('127.0.0.1', true), v6('::1', true)], wlan0: [v6('fe80::1c2d'), v4('192.168.1.20')], eth1: [v4('10.0.0.5')] };
const LOOPBACK_ONLY = { lo: [v4('127.0.0.1', true)], eth0: [v4('169.254.10.3')] };

describe('resolvePairingHost', () => {
  it('takes the configured address as it is, with nothing to warn about', () => {
    expect(resolvePairingHost({ configured: 'gw.example.org', requestHost: '192.168.1.20:3000', interfaces: LAN })).toEqual({ host: 'gw.example.org', source: 'configured', guessed: false, warnings: [] });
  });

  it('takes the device port\'s own bind address, and warns when that is loopback', () => {
    expect(resolvePairingHost({ deviceListenerHost: '10.0.0.5', requestHost: 'localhost:3000', interfaces: LAN })).toEqual({ host: '10.0.0.5', source: 'device-listener', guessed: true, warnings: [] });
    const loopback = resolvePairingHost({ deviceListenerHost: '127.0.0.1', interfaces: LAN });
    expect(loopback).toMatchObject({ host: '127.0.0.1', source: 'device-listener', guessed: true });
    expect(loopback.warnings).toEqual(['The device port listens on 127.0.0.1 only (MOBILECLAW_DEVICE_HOST): no phone can connect. Bind it to a LAN address or leave MOBILECLAW_DEVICE_HOST unset.']);
  });

  it('a wildcard bind address says nothing: the request\'s host is used', () => {
    expect(resolvePairingHost({ deviceListenerHost: '0.0.0.0', requestHost: 'gw.local:3000', interfaces: LAN })).toEqual({ host: 'gw.local', source: 'request', guessed: true, warnings: [] });
    expect(resolvePairingHost({ deviceListenerHost: '::', requestHost: '[fd00::7]:3000', interfaces: LAN })).toEqual({ host: 'fd00::7', source: 'request', guessed: true, warnings: [] });
  });

  it('a page that came through a proxy takes its X-Forwarded-Host as a hint and warns that the device port is raw TCP', () => {
    const proxied = resolvePairingHost({
      requestHost: '127.0.0.1:3000',
      proxy: { header: 'X-Forwarded-For', forwardedHost: 'gateway.example.com, 10.0.0.9' },
      devicePort: 7397,
      interfaces: LAN,
    });
    expect(proxied).toEqual({
      host: 'gateway.example.com',
      source: 'request',
      guessed: true,
      warnings: [
        'This page came through a proxy (X-Forwarded-For header): phones connect to the device port (7397) over raw TCP, which an HTTP proxy does not forward, ' +
          'so the link works only if gateway.example.com:7397 reaches this gateway directly. Behind a TCP/TLS stream proxy, set MOBILECLAW_PAIRING_ADDRESS to its address (e.g. tls://gateway.example.com:7397).',
      ],
    });
    // Without X-Forwarded-Host (or with one that is not a host) the Host header the proxy passed on is used.
    expect(resolvePairingHost({ requestHost: 'gw.example.org:8443', proxy: { header: 'Forwarded', forwardedHost: 'not a host' }, devicePort: 7397, interfaces: LAN })).toMatchObject({ host: 'gw.example.org', source: 'request' });
    // A configured address stays as it is, with nothing to warn about.
    expect(resolvePairingHost({ configured: 'gw.example.org', proxy: { header: 'X-Real-IP', forwardedHost: 'evil.example' }, interfaces: LAN })).toEqual({ host: 'gw.example.org', source: 'configured', guessed: false, warnings: [] });
    // X-Forwarded-Host is only read from a proxied request.
    expect(resolvePairingHost({ requestHost: 'gw.local:3000', interfaces: LAN })).toEqual({ host: 'gw.local', source: 'request', guessed: true, warnings: [] });
  });

  it('a page loaded from loopback falls back to the first LAN IPv4 address, saying it is a guess', () => {
    for (const requestHost of ['127.0.0.1:3000', 'localhost:3000', '[::1]:3000', 'app.localhost', undefined, 'not a host']) {
      const resolved = resolvePairingHost({ requestHost, interfaces: LAN });
      expect(resolved).toMatchObject({ host: '192.168.1.20', source: 'interface', guessed: true });
      expect(resolved.warnings).toEqual([
        '192.168.1.20 is a guess (the first network address of this machine, interface wlan0): the phone must be on that network; if it cannot connect, set MOBILECLAW_PAIRING_ADDRESS to the address phones reach this gateway at.',
      ]);
    }
  });

  it('with no usable address it names 127.0.0.1 and warns that a phone cannot use it', () => {
    const resolved = resolvePairingHost({ requestHost: '127.0.0.1:3000', interfaces: LOOPBACK_ONLY });
    expect(resolved).toMatchObject({ host: '127.0.0.1', source: 'loopback', guessed: true });
    expect(resolved.warnings).toEqual([
      "This machine has no network address a phone could use: 127.0.0.1 is the phone itself. Connect this machine to the phone's network, or set MOBILECLAW_PAIRING_ADDRESS to the address phones reach this gateway at.",
    ]);
  });
});

describe('pairing host helpers', () => {
  it('reads the host of a Host header', () => {
    expect(['gw.local:3000', 'gw.local', '192.168.1.20:80', '[fe80::1]:3000', '[fe80::1]', 'a/b', '', 'x:y'].map(hostOfHostHeader)).toEqual(['gw.local', 'gw.local', '192.168.1.20', 'fe80::1', 'fe80::1', undefined, undefined, undefined]);
  });

  it('normalises the host as a browser does and refuses what no phone can use', () => {
    expect(['127.1:3000', '0x7f000001', 'GW.Local.', '[::ffff:127.0.0.1]:3000', 'under_score', 'a'.repeat(254), `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}:3000`].map(hostOfHostHeader)).toEqual([
      '127.0.0.1',
      '127.0.0.1',
      'gw.local',
      '::ffff:7f00:1',
      undefined,
      undefined,
      `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`,
    ]);
  });

  it('never names a loopback or unspecified request host, in any textual form, and falls back to a LAN guess with its warning', () => {
    for (const requestHost of ['127.1:3000', '0x7f000001:3000', '2130706433', '0.0.0.0:3000', '0:3000', '[::]:3000', '[::ffff:127.0.0.1]:3000', 'x'.repeat(2900)]) {
      const resolved = resolvePairingHost({ requestHost, interfaces: LAN });
      expect({ requestHost, host: resolved.host, source: resolved.source, warned: resolved.warnings.length }).toEqual({ requestHost, host: '192.168.1.20', source: 'interface', warned: 1 });
    }
    expect(resolvePairingHost({ deviceListenerHost: '127.1', interfaces: LAN }).warnings[0]).toContain('no phone can connect');
    expect(resolvePairingHost({ deviceListenerHost: '0', requestHost: 'gw.local', interfaces: LAN }).host).toBe('gw.local');
  });

  it('knows loopback names and addresses', () => {
    expect(['localhost', 'LOCALHOST', 'a.localhost', '127.0.0.1', '127.8.9.10', '::1', '192.168.1.20', 'gw.local', 'localhost.example'].map(isLoopbackName)).toEqual([true, true, true, true, true, true, false, false, false]);
    expect(['127.1', '0x7f000001', '::ffff:127.0.0.1', '0.0.0.0', '::'].map(isLoopbackName)).toEqual([true, true, true, false, false]);
    expect(['0.0.0.0', '0', '::', '0:0::0', '127.0.0.1', '::1'].map(isUnspecifiedAddress)).toEqual([true, true, true, true, false, false]);
  });

  it('skips internal, IPv6 and link-local addresses', () => {
    expect(firstLanIPv4(LAN)).toEqual({ address: '192.168.1.20', name: 'wlan0' });
    expect(firstLanIPv4(LOOPBACK_ONLY)).toBeUndefined();
    expect(firstLanIPv4({})).toBeUndefined();
  });
});
