import { MAX_HOST_NAME_CHARS, hostNameOf, hostNotAllowedRefusal, isLoopbackHostName, localOnlyRefusal } from './local-only-request';

describe('hostNameOf', () => {
  it.each([
    ['127.0.0.1:3000', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['2130706433:80', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['LOCALHOST.:3000', 'localhost'],
    ['[::1]:3000', '[::1]'],
    ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]'],
    ['[0:0:0:0:0:0:0:1]', '[::1]'],
    ['Phone-GW.lan', 'phone-gw.lan'],
    ['0.0.0.0', '0.0.0.0'],
    ['[::]', '[::]'],
  ])('%s → %s', (header, name) => {
    expect(hostNameOf(header)).toBe(name);
  });

  it.each(['', 'a b', 'evil.com/x', 'user@127.0.0.1', '127.0.0.1?x', 'http://127.0.0.1', '[fe80::1%25eth0]', ':3000', `${'a'.repeat(MAX_HOST_NAME_CHARS + 1)}`])(
    'is undefined for %j, not a host',
    (header) => {
      expect(hostNameOf(header)).toBeUndefined();
    },
  );

  it('takes a name of 253 characters', () => {
    const name = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    expect(name).toHaveLength(253);
    expect(hostNameOf(`${name}:3000`)).toBe(name);
  });
});

describe('isLoopbackHostName', () => {
  it.each(['localhost', 'app.localhost', '127.0.0.1', '127.255.0.9', '[::1]', '[::ffff:7f00:1]', '[::ffff:7fff:ffff]'])('%s is loopback', (name) => {
    expect(isLoopbackHostName(name)).toBe(true);
  });
  it.each(['0.0.0.0', '[::]', '128.0.0.1', '10.0.0.2', '[::ffff:a00:2]', '[::2]', 'localhost.evil.com', 'mylocalhost', '127.0.0.1.nip.io'])('%s is not', (name) => {
    expect(isLoopbackHostName(name)).toBe(false);
  });
});

describe('hostNotAllowedRefusal', () => {
  const open = { apiTokenConfigured: false, allowedHosts: ['phone-gw.lan', '[fd00::7]'] };

  it('refuses a DNS-rebinding page (its own name in Host), naming the host and the setting', () => {
    const refusal = hostNotAllowedRefusal({ host: 'evil.com', origin: 'http://evil.com' }, open);
    expect({ code: refusal?.code, message: refusal?.message }).toEqual({
      code: 'HOST_NOT_ALLOWED',
      message: 'Host "evil.com" is not allowed: without MOBILECLAW_API_TOKEN only loopback hosts (localhost, 127.0.0.1, [::1]) and those in MOBILECLAW_ALLOWED_HOSTS are served',
    });
  });

  it('serves loopback hosts in any form, allowed hosts, and a request without Host', () => {
    for (const host of ['127.0.0.1:3000', 'localhost:3000', '[::1]:3000', '127.1', 'app.localhost:5173', 'phone-gw.lan:3000', 'PHONE-GW.LAN.', '[fd00:0::7]:3000']) {
      expect(hostNotAllowedRefusal({ host }, open)).toBeUndefined();
    }
    expect(hostNotAllowedRefusal({}, open)).toBeUndefined();
  });

  it('refuses unspecified addresses, LAN addresses not listed and malformed or oversized hosts, quoting at most 100 characters', () => {
    for (const host of ['0.0.0.0:3000', '[::]:3000', '192.168.1.5:3000', 'phone-gw.lan.evil.com', 'a b', '127.0.0.1, evil.com']) {
      expect(hostNotAllowedRefusal({ host }, open)?.code).toBe('HOST_NOT_ALLOWED');
    }
    const long = hostNotAllowedRefusal({ host: 'x'.repeat(3000) }, open);
    expect(long?.message).toContain(`Host "${'x'.repeat(100)}…" is not allowed`);
  });

  it('restricts nothing once an API token is configured', () => {
    expect(hostNotAllowedRefusal({ host: 'evil.com' }, { apiTokenConfigured: true, allowedHosts: [] })).toBeUndefined();
  });

  it('is the rule localOnlyRefusal applies', () => {
    expect(localOnlyRefusal({ host: 'evil.com' }, open)?.code).toBe('HOST_NOT_ALLOWED');
    expect(localOnlyRefusal({ host: '127.0.0.1' }, open)).toBeUndefined();
  });
});
