import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { GatewayAddress } from '@mobileclaw/phone-link';
import { DEVICE_ID_PATTERN } from '@mobileclaw/protocol';
import { parseUiHierarchyXml, UiHierarchyParseError, type UiTreeXml } from '@mobileclaw/ui-hierarchy';

/** The `--help` text, for the command called `name` (`mobileclaw-sim`, or `mobileclaw sim`). */
export const usage = (name: string): string => `Usage: ${name} [options]

Starts simulated Android phones that connect to a MobileClaw gateway (wire protocol v1) and
reconnect whenever the connection is lost. With --screen they replay a recorded Android screen.
With --adb-port they are served over the ADB host protocol instead: an adb server of their own
that the adb client (\`adb -L tcp:127.0.0.1:<port> devices\`, which never starts an adb server of its own) and adb libraries (adbkit) drive, e.g. to test
the ADB bridge; they do not connect to a gateway then.

Options:
  --transport <t>    how the phones connect: tcp (the device port) or ws (the gateway's WebSocket
                     /ws/device on its HTTP port; through a TLS proxy use --url wss://…) (default tcp)
  --host <host>      gateway host (default 127.0.0.1)
  --port <port>      gateway port: with tcp the device port (default $MOBILECLAW_DEVICE_PORT or 7397),
                     with ws the HTTP port (default $MOBILECLAW_HTTP_PORT or 3000)
  --url <url>        the gateway's WebSocket, e.g. wss://gateway.example.com/ws/device (implies
                     --transport ws; instead of --host and --port)
  --gateway <list>   several gateways (instances of one cluster), tried in this order:
                     host[:port] (the port as --port says; IPv6 in brackets, [::1]:7397) or a
                     ws:// or wss:// URL, comma-separated or the option repeated (instead of --host,
                     --port and --url). When a gateway refuses or loses a phone it tries the next
                     at once; after a whole round in vain, or a lost session, it waits its backoff.
                     Each phone prints the address it connected to.
  --token <token>    device token (default $MOBILECLAW_DEVICE_TOKEN, else the file
                     \${MOBILECLAW_DATA_DIR:-.mobileclaw}/device-token)
  --devices <n>      number of phones (default 1)
  --prefix <prefix>  device id prefix; phones are <prefix>1, <prefix>2, ... (default phone-; the gateway's embedded phone is sim-1)
  --latency <ms>     delay added before every reply (default 0)
  --width <px>       screen width in portrait (default 1080)
  --height <px>      screen height in portrait (default 2400)
  --density <dpi>    screen density (default 420)
  --screen <file>    replay a recorded screen: a UI hierarchy XML file (Appium page source or
                     \`uiautomator dump\`); every phone shows it as a static screen at its recorded
                     size (no --width/--height): ui_tree returns its nodes, screenshots draw it as
                     a wireframe, actions succeed but change nothing
  --adb-port <port>  serve the phones as adb devices on this port instead of connecting them
                     to a gateway (not with --transport, --url, --host, --port, --token, --latency); their serials
                     are their device ids (<prefix>1, ...); adb's own server port is 5037 —
                     pick another while a real adb server runs
  --adb-host <host>  interface for --adb-port (default 127.0.0.1)
  --verbose          print diagnostics to stderr
  --help             show this help

Examples:
  ${name} --devices 3                     # phones phone-1…phone-3 against the gateway on this machine
  ${name} --gateway 10.0.0.2:7397,10.0.0.3:7397   # phones that fail over between two gateways
  ${name} --screen test/fixtures/screens/settings-top.xml --prefix screen-
  ${name} --adb-port 15037 --devices 2    # adb devices instead: adb -L tcp:127.0.0.1:15037 devices
`;

/** What the CLI runs, after defaults and validation. */
export interface CliConfig {
  /**
   * Where the phones connect, in the order they try: the TCP device port (`host`, `port`) or the
   * gateway's WebSocket (`url`); one address unless `--gateway` names several.
   */
  gateways: GatewayAddress[];
  /** The device token; '' with {@link adb} (no gateway connection). */
  token: string;
  devices: number;
  prefix: string;
  latencyMs: number;
  width: number;
  height: number;
  densityDpi: number;
  /** `--screen`: the recorded screen every phone replays, and the file it came from (`width`/`height` are then its size). */
  replay?: { file: string; recording: UiTreeXml };
  /** `--adb-port`: serve the phones over the ADB host protocol on this address instead of connecting them to a gateway. */
  adb?: { host: string; port: number };
  verbose: boolean;
}

/** A usage problem: print `message` and exit with status 2. */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
  /**
   * @param showUsage false when the one line says all there is to fix (e.g. a missing token): the
   *   usage text would only bury it.
   */
  constructor(
    message: string,
    readonly showUsage = true,
  ) {
    super(message);
  }
}

function int(raw: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < min || value > max)
    throw new CliUsageError(`--${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  return value;
}

/** The token from the data directory's `device-token` file, or undefined if there is none. */
function tokenFromFile(env: NodeJS.ProcessEnv, read: (path: string) => string): string | undefined {
  const path = join(env['MOBILECLAW_DATA_DIR'] ?? '.mobileclaw', 'device-token');
  try {
    const token = read(path).trim();
    return token === '' ? undefined : token;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliUsageError(`cannot read the device token from ${path}: ${(err as Error).message}`);
  }
}

/**
 * Parses the command line. Returns `'help'` for `--help`; throws {@link CliUsageError} for a bad
 * option or when no token can be found (flag, env `MOBILECLAW_DEVICE_TOKEN`, or the token file).
 */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv, read: (path: string) => string = (p) => readFileSync(p, 'utf8')): CliConfig | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        transport: { type: 'string' },
        url: { type: 'string' },
        host: { type: 'string' },
        port: { type: 'string' },
        gateway: { type: 'string', multiple: true },
        token: { type: 'string' },
        devices: { type: 'string' },
        prefix: { type: 'string' },
        latency: { type: 'string' },
        width: { type: 'string' },
        height: { type: 'string' },
        density: { type: 'string' },
        screen: { type: 'string' },
        'adb-port': { type: 'string' },
        'adb-host': { type: 'string' },
        verbose: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw new CliUsageError((err as Error).message);
  }
  if (values.help) return 'help';
  const devices = int(values.devices, 'devices', 1, 1, 100000);
  const prefix = values.prefix ?? 'phone-';
  if (!DEVICE_ID_PATTERN.test(`${prefix}${devices}`)) throw new CliUsageError(`--prefix ${JSON.stringify(prefix)} gives device ids outside [A-Za-z0-9._:-]{1,128}`);
  const adb = values['adb-port'] === undefined ? undefined : { host: values['adb-host'] ?? '127.0.0.1', port: int(values['adb-port'], 'adb-port', 0, 1, 65535) };
  if (adb === undefined && values['adb-host'] !== undefined) throw new CliUsageError('--adb-host needs --adb-port');
  if (adb) {
    const gatewayOnly = (['transport', 'url', 'host', 'port', 'gateway', 'token', 'latency'] as const).filter((name) => values[name] !== undefined);
    if (gatewayOnly.length > 0) throw new CliUsageError(`--adb-port serves the phones over adb instead of connecting them to a gateway; ${gatewayOnly.map((n) => `--${n}`).join(', ')} do not apply`);
  }
  const tokenFile = join(env['MOBILECLAW_DATA_DIR'] ?? '.mobileclaw', 'device-token');
  // `--token "$VAR"` with VAR unset arrives as an empty string: say that, not that no token was given.
  if (values.token !== undefined && values.token.trim() === '') {
    throw new CliUsageError(`--token is empty (an unset variable?): pass the device token, or leave --token out to read it from ${tokenFile}`, false);
  }
  const token = adb ? '' : (values.token ?? (env['MOBILECLAW_DEVICE_TOKEN'] || undefined) ?? tokenFromFile(env, read));
  if (!adb && (token === undefined || token === '')) {
    throw new CliUsageError(`no device token: pass --token, set MOBILECLAW_DEVICE_TOKEN, or start the gateway once so that it writes ${tokenFile}`, false);
  }
  if (values.screen !== undefined && (values.width !== undefined || values.height !== undefined))
    throw new CliUsageError('--screen takes the screen size from the recording; do not combine it with --width or --height');
  const replay = values.screen === undefined ? undefined : { file: values.screen, recording: recordedScreen(values.screen, read) };
  return {
    gateways: values.gateway === undefined ? [gatewayAddress(values, env)] : gatewayList(values.gateway, values, env),
    token: token ?? '',
    devices,
    prefix,
    latencyMs: int(values.latency, 'latency', 0, 0, 3_600_000),
    width: replay?.recording.screen.width ?? int(values.width, 'width', 1080, 1, 10000),
    height: replay?.recording.screen.height ?? int(values.height, 'height', 2400, 1, 10000),
    densityDpi: int(values.density, 'density', 420, 1, 2000),
    ...(replay ? { replay } : {}),
    ...(adb ? { adb } : {}),
    verbose: values.verbose ?? false,
  };
}

/**
 * Where the phones connect, from `--transport`, `--url`, `--host` and `--port`: over TCP to
 * host:port (the device port), or over WebSocket to `--url` or `ws://host:port/ws/device` (the HTTP port).
 */
function gatewayAddress(values: { transport?: string; url?: string; host?: string; port?: string }, env: NodeJS.ProcessEnv): GatewayAddress {
  const transport = values.transport ?? (values.url === undefined ? 'tcp' : 'ws');
  if (transport !== 'tcp' && transport !== 'ws') throw new CliUsageError(`--transport must be tcp or ws, got ${JSON.stringify(transport)}`);
  const host = values.host ?? '127.0.0.1';
  if (transport === 'tcp') {
    if (values.url !== undefined) throw new CliUsageError('--url is the gateway\'s WebSocket: it needs --transport ws');
    return { host, port: int(values.port ?? env['MOBILECLAW_DEVICE_PORT'], 'port', 7397, 1, 65535) };
  }
  if (values.url === undefined) {
    const port = int(values.port ?? env['MOBILECLAW_HTTP_PORT'], 'port', 3000, 1, 65535);
    return { url: `ws://${host.includes(':') ? `[${host}]` : host}:${port}/ws/device` };
  }
  if (values.host !== undefined || values.port !== undefined) throw new CliUsageError('--url names the gateway; do not combine it with --host or --port');
  let protocol: string;
  try {
    protocol = new URL(values.url).protocol;
  } catch {
    protocol = '';
  }
  if (protocol !== 'ws:' && protocol !== 'wss:') throw new CliUsageError(`--url must be a ws:// or wss:// URL, got ${JSON.stringify(values.url)}`);
  return { url: values.url };
}

/**
 * The addresses of `--gateway` (each value a comma-separated list), in order: a `ws://`/`wss://` URL
 * is a WebSocket; `host[:port]` (IPv6 as `[addr]` or `[addr]:port`) is the TCP device port, or with
 * `--transport ws` the WebSocket `/ws/device` on that HTTP port; a missing port is `--port`'s default.
 */
function gatewayList(lists: string[], values: { transport?: string; url?: string; host?: string; port?: string }, env: NodeJS.ProcessEnv): GatewayAddress[] {
  const given = (['host', 'port', 'url'] as const).filter((name) => values[name] !== undefined);
  if (given.length > 0) throw new CliUsageError(`--gateway names the gateways; do not combine it with ${given.map((n) => `--${n}`).join(', ')}`);
  const transport = values.transport ?? 'tcp';
  if (transport !== 'tcp' && transport !== 'ws') throw new CliUsageError(`--transport must be tcp or ws, got ${JSON.stringify(transport)}`);
  const defaultPort = transport === 'tcp' ? (env['MOBILECLAW_DEVICE_PORT'] ?? '7397') : (env['MOBILECLAW_HTTP_PORT'] ?? '3000');
  const items = lists.flatMap((list) => list.split(',')).map((item) => item.trim());
  if (items.some((item) => item === '')) throw new CliUsageError(`--gateway has an empty entry: ${JSON.stringify(lists.join(','))}`);
  return items.map((item) => {
    if (/^wss?:\/\//i.test(item)) {
      if (values.transport === 'tcp') throw new CliUsageError(`--gateway ${item} is a WebSocket URL: it needs --transport ws (or no --transport)`);
      if (!URL.canParse(item)) throw new CliUsageError(`--gateway ${JSON.stringify(item)} is not a URL`);
      return { url: item };
    }
    const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]/\s]+))(?::([^:]*))?$/.exec(item);
    if (match === null) throw new CliUsageError(`--gateway ${JSON.stringify(item)} is not host[:port] or a ws:// URL (write IPv6 addresses in brackets, e.g. [::1]:7397)`);
    const host = match[1] ?? match[2]!;
    const port = int(match[3] ?? defaultPort, 'gateway port', 0, 1, 65535);
    return transport === 'tcp' ? { host, port } : { url: `ws://${host.includes(':') ? `[${host}]` : host}:${port}/ws/device` };
  });
}

/** Reads and imports the `--screen` file; an unreadable or invalid file is a usage error naming it. */
function recordedScreen(file: string, read: (path: string) => string): UiTreeXml {
  let xml: string;
  try {
    xml = read(file);
  } catch (err) {
    throw new CliUsageError(`cannot read --screen ${file}: ${(err as Error).message}`);
  }
  try {
    return parseUiHierarchyXml(xml);
  } catch (err) {
    if (err instanceof UiHierarchyParseError) throw new CliUsageError(`--screen ${file} is not a UI hierarchy: ${err.message}`);
    throw err;
  }
}
