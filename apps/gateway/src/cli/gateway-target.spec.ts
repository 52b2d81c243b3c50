import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError } from './exit-codes';
import { configFilePath, defaultGatewayUrl, readStoredLogin, resolveGatewayTarget, writeStoredLogin } from './gateway-target';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'mobileclaw-login-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The target as plain values. */
const resolved = (...args: Parameters<typeof resolveGatewayTarget>) => {
  const target = resolveGatewayTarget(...args);
  return { url: target.url.href, token: target.token };
};

describe('where the CLI finds its gateway and token', () => {
  it('keeps the login in the XDG config directory', () => {
    expect(configFilePath({ XDG_CONFIG_HOME: '/home/ada/.cfg', HOME: '/home/ada' })).toBe('/home/ada/.cfg/mobileclaw/config.json');
    expect(configFilePath({ HOME: '/home/ada' })).toBe('/home/ada/.config/mobileclaw/config.json');
    // The XDG rule: a relative value is ignored.
    expect(configFilePath({ XDG_CONFIG_HOME: 'cfg', HOME: '/home/ada' })).toBe('/home/ada/.config/mobileclaw/config.json');
  });

  it('writes the login readable by its owner only, and reads it back', () => {
    const file = join(dir, 'xdg', 'mobileclaw', 'config.json');
    writeStoredLogin(file, { url: 'https://gw.example.com/claw', token: 'a-token-of-16-chars+' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'xdg', 'mobileclaw')).mode & 0o777).toBe(0o700);
    expect(readStoredLogin(file)).toEqual({ url: 'https://gw.example.com/claw', token: 'a-token-of-16-chars+' });
    // Replacing a file that others could read narrows it too.
    writeFileSync(file, '{}', { mode: 0o644 });
    writeStoredLogin(file, { url: 'http://127.0.0.1:3000' });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ url: 'http://127.0.0.1:3000' });
  });

  it('takes the URL from --url, then MOBILECLAW_URL, then the login, then the default', () => {
    const file = join(dir, 'config.json');
    expect(resolved({}, {}, file)).toEqual({ url: 'http://127.0.0.1:3000/', token: undefined });
    writeStoredLogin(file, { url: 'http://10.0.0.5:3000/', token: 'saved-token-0123456789' });
    expect(resolved({}, {}, file)).toEqual({ url: 'http://10.0.0.5:3000/', token: 'saved-token-0123456789' });
    expect(resolved({}, { MOBILECLAW_URL: 'http://127.0.0.1:4000' }, file).url).toBe('http://127.0.0.1:4000/');
    expect(resolved({ url: 'https://gw.example.com/claw/?x=1#y' }, { MOBILECLAW_URL: 'http://127.0.0.1:4000' }, file).url).toBe('https://gw.example.com/claw');
  });

  it('finds a gateway of this environment by MOBILECLAW_HTTP_HOST and MOBILECLAW_HTTP_PORT, as the gateway reads them', () => {
    expect(defaultGatewayUrl({}).href).toBe('http://127.0.0.1:3000/');
    expect(defaultGatewayUrl({ MOBILECLAW_HTTP_PORT: '4123' }).href).toBe('http://127.0.0.1:4123/');
    expect(defaultGatewayUrl({ MOBILECLAW_HTTP_PORT: ' ', MOBILECLAW_HTTP_HOST: '' }).href).toBe('http://127.0.0.1:3000/');
    // Port 0 (any free port) names nothing to find.
    expect(defaultGatewayUrl({ MOBILECLAW_HTTP_PORT: '0' }).href).toBe('http://127.0.0.1:3000/');
    expect(defaultGatewayUrl({ MOBILECLAW_HTTP_HOST: '192.168.1.20', MOBILECLAW_HTTP_PORT: '8080' }).href).toBe('http://192.168.1.20:8080/');
    expect(defaultGatewayUrl({ MOBILECLAW_HTTP_HOST: 'gw.lan' }).href).toBe('http://gw.lan:3000/');
    expect(defaultGatewayUrl({ MOBILECLAW_HTTP_HOST: '::1' }).href).toBe('http://[::1]:3000/');
    // Every interface: reached on loopback.
    expect(defaultGatewayUrl({ MOBILECLAW_HTTP_HOST: '0.0.0.0' }).href).toBe('http://127.0.0.1:3000/');
    expect(defaultGatewayUrl({ MOBILECLAW_HTTP_HOST: '::', MOBILECLAW_HTTP_PORT: '3100' }).href).toBe('http://127.0.0.1:3100/');

    const file = join(dir, 'config.json');
    expect(resolved({}, { MOBILECLAW_HTTP_PORT: '4123' }, file)).toEqual({ url: 'http://127.0.0.1:4123/', token: undefined });
    // --url, MOBILECLAW_URL and a saved login name a gateway explicitly: they come first.
    expect(resolved({}, { MOBILECLAW_HTTP_PORT: '4123', MOBILECLAW_URL: 'http://127.0.0.1:4000' }, file).url).toBe('http://127.0.0.1:4000/');
    writeStoredLogin(file, { url: 'http://10.0.0.5:3000' });
    expect(resolved({}, { MOBILECLAW_HTTP_PORT: '4123' }, file).url).toBe('http://10.0.0.5:3000/');
  });

  it('refuses a MOBILECLAW_HTTP_PORT or MOBILECLAW_HTTP_HOST the gateway could not listen on, as usage errors', () => {
    expect(() => defaultGatewayUrl({ MOBILECLAW_HTTP_PORT: '70000' })).toThrow(new CliError('MOBILECLAW_HTTP_PORT: not a port number (0-65535): "70000"', 2));
    expect(() => defaultGatewayUrl({ MOBILECLAW_HTTP_PORT: '3000x' })).toThrow('MOBILECLAW_HTTP_PORT: not a port number (0-65535): "3000x"');
    expect(() => defaultGatewayUrl({ MOBILECLAW_HTTP_HOST: 'gw.lan/claw' })).toThrow(new CliError('MOBILECLAW_HTTP_HOST: not a host name or IP address: "gw.lan/claw"', 2));
    expect(() => defaultGatewayUrl({ MOBILECLAW_HTTP_HOST: 'a b' })).toThrow('MOBILECLAW_HTTP_HOST: not a host name or IP address: "a b"');
    expect(() => resolveGatewayTarget({}, { MOBILECLAW_HTTP_PORT: 'http' }, null)).toThrow('MOBILECLAW_HTTP_PORT: not a port number (0-65535): "http"');
  });

  it('sends the saved token only to the gateway it was saved for; --token and MOBILECLAW_API_TOKEN win', () => {
    const file = join(dir, 'config.json');
    writeStoredLogin(file, { url: 'http://10.0.0.5:3000', token: 'saved-token-0123456789' });
    expect(resolved({ url: 'http://10.0.0.5:3000/' }, {}, file).token).toBe('saved-token-0123456789');
    expect(resolved({ url: 'http://10.0.0.6:3000' }, {}, file).token).toBeUndefined();
    expect(resolved({}, { MOBILECLAW_API_TOKEN: 'env-token-0123456789' }, file).token).toBe('env-token-0123456789');
    expect(resolved({ token: 'flag-token-0123456789' }, { MOBILECLAW_API_TOKEN: 'env-token-0123456789' }, file).token).toBe('flag-token-0123456789');
    expect(resolved({}, {}, null)).toEqual({ url: 'http://127.0.0.1:3000/', token: undefined });
  });

  it('refuses a URL that is not http(s) and a config file it did not write, as usage errors', () => {
    expect(() => resolveGatewayTarget({ url: 'ftp://x' }, {}, null)).toThrow(new CliError('--url: not an http:// or https:// URL: "ftp://x"', 2));
    expect(() => resolveGatewayTarget({}, { MOBILECLAW_URL: 'localhost:3000' }, null)).toThrow('MOBILECLAW_URL: not an http:// or https:// URL: "localhost:3000"');
    const file = join(dir, 'config.json');
    writeFileSync(file, '{"token": 5}');
    expect(() => resolveGatewayTarget({}, {}, file)).toThrow(`${file} is not a mobileclaw login ({"url": "…", "token": "…"}); run \`mobileclaw login\` again`);
  });
});
