import { CliUsageError, parseCli } from './cli-config';

const noFile = (path: string): string => {
  throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
};

describe('parseCli', () => {
  it('uses defaults with a token flag', () => {
    expect(parseCli(['--token', 'T'], {}, noFile)).toEqual({
      gateways: [{ host: '127.0.0.1', port: 7397 }],
      token: 'T',
      devices: 1,
      prefix: 'phone-',
      latencyMs: 0,
      width: 1080,
      height: 2400,
      densityDpi: 420,
      verbose: false,
    });
  });

  it('reads every option', () => {
    const argv = ['--port', '9000', '--host', '10.0.0.2', '--token', 'T', '--devices', '3', '--prefix', 'lab.', '--latency', '25', '--width', '720', '--height', '1600', '--verbose'];
    expect(parseCli(argv, {}, noFile)).toMatchObject({ gateways: [{ port: 9000, host: '10.0.0.2' }], devices: 3, prefix: 'lab.', latencyMs: 25, width: 720, height: 1600, verbose: true });
  });

  it('takes the port and token from the environment, then the token from the data directory', () => {
    expect(parseCli([], { MOBILECLAW_DEVICE_PORT: '7000', MOBILECLAW_DEVICE_TOKEN: 'envtok' }, noFile)).toMatchObject({ gateways: [{ port: 7000 }], token: 'envtok' });
    const read = jest.fn((path: string) => (path === '/data/device-token' ? '  filetok\n' : noFile(path)));
    expect(parseCli([], { MOBILECLAW_DATA_DIR: '/data' }, read)).toMatchObject({ token: 'filetok' });
    expect(parseCli([], {}, (path) => (path === '.mobileclaw/device-token' ? 'dflt' : noFile(path)))).toMatchObject({ token: 'dflt' });
  });

  it('--transport ws connects to the WebSocket on the HTTP port, or to --url', () => {
    expect(parseCli(['--token', 'T', '--transport', 'ws'], {}, noFile)).toMatchObject({ gateways: [{ url: 'ws://127.0.0.1:3000/ws/device' }] });
    expect(parseCli(['--token', 'T', '--transport', 'ws', '--host', '10.0.0.2', '--port', '8080'], {}, noFile)).toMatchObject({ gateways: [{ url: 'ws://10.0.0.2:8080/ws/device' }] });
    expect(parseCli(['--token', 'T', '--transport', 'ws', '--host', '::1'], { MOBILECLAW_HTTP_PORT: '3100', MOBILECLAW_DEVICE_PORT: '7000' }, noFile)).toMatchObject({ gateways: [{ url: 'ws://[::1]:3100/ws/device' }] });
    expect(parseCli(['--token', 'T', '--url', 'wss://gw.example.com/ws/device'], {}, noFile)).toMatchObject({ gateways: [{ url: 'wss://gw.example.com/ws/device' }] });
    expect(parseCli(['--token', 'T', '--transport', 'ws', '--url', 'ws://10.0.0.2:3000/ws/device'], {}, noFile)).toMatchObject({ gateways: [{ url: 'ws://10.0.0.2:3000/ws/device' }] });
  });

  it('refuses an unknown transport, a --url that is not ws(s), and --url with tcp, --host or --port', () => {
    expect(() => parseCli(['--token', 'T', '--transport', 'quic'], {}, noFile)).toThrow('--transport must be tcp or ws, got "quic"');
    expect(() => parseCli(['--token', 'T', '--url', 'https://gw.example.com/ws/device'], {}, noFile)).toThrow('--url must be a ws:// or wss:// URL, got "https://gw.example.com/ws/device"');
    expect(() => parseCli(['--token', 'T', '--transport', 'tcp', '--url', 'ws://h/ws/device'], {}, noFile)).toThrow("--url is the gateway's WebSocket: it needs --transport ws");
    expect(() => parseCli(['--token', 'T', '--url', 'ws://h/ws/device', '--port', '1'], {}, noFile)).toThrow('--url names the gateway; do not combine it with --host or --port');
    expect(() => parseCli(['--adb-port', '5037', '--transport', 'ws'], {}, noFile)).toThrow('--adb-port serves the phones over adb instead of connecting them to a gateway; --transport do not apply');
  });

  it('--gateway takes several addresses in order, comma-separated or repeated, with --port\'s default port', () => {
    expect(parseCli(['--token', 'T', '--gateway', '10.0.0.2:7000, gw-b', '--gateway', '[::1]:7002,[fd00::3]'], {}, noFile)).toMatchObject({
      gateways: [
        { host: '10.0.0.2', port: 7000 },
        { host: 'gw-b', port: 7397 },
        { host: '::1', port: 7002 },
        { host: 'fd00::3', port: 7397 },
      ],
    });
    expect(parseCli(['--token', 'T', '--gateway', 'gw-a,gw-b:7001'], { MOBILECLAW_DEVICE_PORT: '7100' }, noFile)).toMatchObject({ gateways: [{ host: 'gw-a', port: 7100 }, { host: 'gw-b', port: 7001 }] });
    expect(parseCli(['--token', 'T', '--transport', 'ws', '--gateway', 'gw-a,[::1]:3100,wss://gw-c.example.com/ws/device'], {}, noFile)).toMatchObject({
      gateways: [{ url: 'ws://gw-a:3000/ws/device' }, { url: 'ws://[::1]:3100/ws/device' }, { url: 'wss://gw-c.example.com/ws/device' }],
    });
    expect(parseCli(['--token', 'T', '--gateway', 'gw-a', '--gateway', 'ws://gw-b:3000/ws/device'], {}, noFile)).toMatchObject({ gateways: [{ host: 'gw-a', port: 7397 }, { url: 'ws://gw-b:3000/ws/device' }] });
  });

  it('--gateway refuses empty entries, bad ports, bare IPv6, and --host, --port or --url beside it', () => {
    expect(() => parseCli(['--token', 'T', '--gateway', 'gw-a,,gw-b'], {}, noFile)).toThrow('--gateway has an empty entry: "gw-a,,gw-b"');
    expect(() => parseCli(['--token', 'T', '--gateway', 'gw-a:0'], {}, noFile)).toThrow('--gateway port must be an integer from 1 to 65535, got "0"');
    expect(() => parseCli(['--token', 'T', '--gateway', '::1'], {}, noFile)).toThrow('--gateway "::1" is not host[:port] or a ws:// URL (write IPv6 addresses in brackets, e.g. [::1]:7397)');
    expect(() => parseCli(['--token', 'T', '--gateway', 'gw-a', '--port', '7000', '--host', 'h'], {}, noFile)).toThrow('--gateway names the gateways; do not combine it with --host, --port');
    expect(() => parseCli(['--token', 'T', '--transport', 'tcp', '--gateway', 'ws://gw/ws/device'], {}, noFile)).toThrow('--gateway ws://gw/ws/device is a WebSocket URL: it needs --transport ws (or no --transport)');
    expect(() => parseCli(['--adb-port', '5037', '--gateway', 'gw-a'], {}, noFile)).toThrow('--adb-port serves the phones over adb instead of connecting them to a gateway; --gateway do not apply');
  });

  it('--screen imports a recorded screen and takes the screen size from it', () => {
    const xml = '<hierarchy rotation="0" width="1080" height="2088"><node class="android.widget.Button" text="OK" bounds="[0,0][1080,2088]"/></hierarchy>';
    const read = (path: string): string => (path === 'screens/top.xml' ? xml : noFile(path));
    const config = parseCli(['--token', 'T', '--screen', 'screens/top.xml'], {}, read);
    expect(config).toMatchObject({ width: 1080, height: 2088, replay: { file: 'screens/top.xml', recording: { screen: { width: 1080, height: 2088, rotation: 0 } } } });
    expect(config !== 'help' && config.replay?.recording.nodes.map((n) => [n.id, n.class, n.text])).toEqual([['n0', 'android.widget.Button', 'OK']]);
  });

  it('--screen refuses a missing file, a file that is no UI hierarchy, and an explicit size', () => {
    expect(() => parseCli(['--token', 'T', '--screen', 'gone.xml'], {}, noFile)).toThrow(/cannot read --screen gone.xml: ENOENT/);
    expect(() => parseCli(['--token', 'T', '--screen', 'a.json'], {}, () => '{"nodes":[]}')).toThrow(/--screen a.json is not a UI hierarchy: UI hierarchy is not well-formed XML/);
    expect(() => parseCli(['--token', 'T', '--screen', 'a.xml', '--width', '720'], {}, () => '<hierarchy width="1" height="1"/>')).toThrow(/do not combine it with --width or --height/);
  });

  it('--adb-port serves the phones over adb: no token needed, gateway options refused', () => {
    expect(parseCli(['--adb-port', '5037', '--devices', '2'], {}, noFile)).toMatchObject({ adb: { host: '127.0.0.1', port: 5037 }, token: '', devices: 2, prefix: 'phone-' });
    expect(parseCli(['--adb-port', '15037', '--adb-host', '0.0.0.0'], {}, noFile)).toMatchObject({ adb: { host: '0.0.0.0', port: 15037 } });
    expect(() => parseCli(['--adb-port', '5037', '--token', 'T', '--port', '1'], {}, noFile)).toThrow('--adb-port serves the phones over adb instead of connecting them to a gateway; --port, --token do not apply');
    expect(() => parseCli(['--adb-port', '0'], {}, noFile)).toThrow(/--adb-port must be an integer from 1 to 65535/);
    expect(() => parseCli(['--token', 'T', '--adb-host', 'h'], {}, noFile)).toThrow('--adb-host needs --adb-port');
    expect(parseCli(['--token', 'T'], {}, noFile)).not.toHaveProperty('adb');
  });

  it('refuses to run without a token and rejects bad options', () => {
    expect(() => parseCli([], {}, noFile)).toThrow(/no device token/);
    expect(() => parseCli(['--token', 'T', '--devices', '0'], {}, noFile)).toThrow(CliUsageError);
    expect(() => parseCli(['--token', 'T', '--port', 'http'], {}, noFile)).toThrow(/--port/);
    expect(() => parseCli(['--token', 'T', '--prefix', 'bad prefix '], {}, noFile)).toThrow(/--prefix/);
    expect(() => parseCli(['--nope'], {}, noFile)).toThrow(CliUsageError);
    expect(parseCli(['--help'], {}, noFile)).toBe('help');
  });

  it('says an empty --token (an unset variable) is empty, in one line without the usage text, even when the token file exists', () => {
    const read = (path: string) => (path === '/data/device-token' ? 'filetok' : noFile(path));
    const error = (() => {
      try {
        parseCli(['--url', 'wss://gateway.example.com/ws/device', '--token', ''], { MOBILECLAW_DATA_DIR: '/data' }, read);
      } catch (err) {
        return err as CliUsageError;
      }
      return undefined;
    })();
    expect({ message: error?.message, showUsage: error?.showUsage }).toEqual({
      message: '--token is empty (an unset variable?): pass the device token, or leave --token out to read it from /data/device-token',
      showUsage: false,
    });
    expect(parseCli(['--url', 'wss://gateway.example.com/ws/device'], { MOBILECLAW_DATA_DIR: '/data' }, read)).toMatchObject({ token: 'filetok' });
  });
});
