import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { parseHostPort, type HostPort } from './host-port';
import { mcpEndpointUrl } from './mcp-endpoint';
import { addClientCommands } from './cli/client-commands';
import { CLI_EXIT_CODES_HELP, CliError } from './cli/exit-codes';
import { DEFAULT_GATEWAY_URL, defaultGatewayUrl, HTTP_HOST_ENV, HTTP_PORT_ENV } from './cli/gateway-target';

/** Exit code of an invalid command line (unknown command or option, bad `--url`). */
export const CLI_USAGE_EXIT = 2;

/** The address `mobileclaw mcp` and the other client commands use without `--url` (and MOBILECLAW_HTTP_HOST/PORT): the gateway's own default. */
export { DEFAULT_GATEWAY_URL };

/**
 * How a desktop client (Claude Desktop's claude_desktop_config.json, Cursor's mcp.json) starts the
 * bridge: the same entry as the README's.
 */
export const MCP_DESKTOP_CONFIG = {
  mcpServers: {
    mobileclaw: {
      command: 'node',
      args: ['/path/to/mobileclaw/apps/gateway/dist/main.js', 'mcp', '--url', 'http://127.0.0.1:3000'],
      env: { MOBILECLAW_API_TOKEN: '<your MOBILECLAW_API_TOKEN, if the gateway has one>' },
    },
  },
};

const MCP_HELP_AFTER = `
Exit codes:
  0  the client closed stdin: the session was ended on the gateway
  1  no gateway answers at the URL (connection refused, no answer within 5 s,
     no MCP endpoint there), or it went away during the session
  2  invalid command line, or an invalid MOBILECLAW_HTTP_HOST or
     MOBILECLAW_HTTP_PORT (without --url)
  3  the gateway rejected the token (HTTP 401/403): missing or wrong

stdout carries only MCP messages; diagnostics go to stderr. A request the
gateway can no longer answer gets a JSON-RPC error, so the client never hangs.

The token is the one set in the gateway's MOBILECLAW_API_TOKEN (none by
default), not the device token it prints for phones.

A desktop client (Claude Desktop's claude_desktop_config.json, Cursor's
mcp.json) starts it like this (after npm run build in the checkout):

${JSON.stringify(MCP_DESKTOP_CONFIG, null, 2)
  .split('\n')
  .map((line) => `  ${line}`)
  .join('\n')}
`;

const PROGRAM_HELP_AFTER = `
Examples:
  $ mobileclaw start --sim 2                 # the gateway with simulated phones sim-1 and sim-2
  $ mobileclaw devices
  $ mobileclaw run sim-1 "Turn on Wi-Fi"     # the task's steps live; Ctrl-C cancels it
  $ mobileclaw do sim-1 click 540 1200
  $ mobileclaw screenshot sim-1 -o shot.png

Run \`mobileclaw <command> --help\` for a command's options and an example.

Commands that talk to a gateway (devices, screenshot, do, tasks, task, run,
approve, deny, cancel, login) exit with:
${CLI_EXIT_CODES_HELP.replace(/^Exit codes:\n/, '')}
`;

const START_HELP_AFTER = `
Every other setting comes from MOBILECLAW_* environment variables (README,
"Configuration"); the gateway runs until SIGINT or SIGTERM. Exit codes: 0 after
a signal, 1 when the environment is invalid or a port cannot be bound.

Example:
  $ MOBILECLAW_HTTP_PORT=3000 mobileclaw start --sim 3
`;

/** The device port `mobileclaw adb` connects to without `--gateway` or MOBILECLAW_DEVICE_PORT: the gateway's own default (TCP 7397). */
export const DEFAULT_GATEWAY_DEVICE_ADDRESS = '127.0.0.1:7397';

/**
 * Where `mobileclaw adb` finds the local gateway without `--gateway`: loopback at the device port this
 * machine's gateway is configured with (`MOBILECLAW_DEVICE_PORT`, as `start` reads it), else 7397.
 * @throws RangeError when MOBILECLAW_DEVICE_PORT is not a port from 1 to 65535 (0, a port chosen at
 *   start, cannot be known here: pass --gateway).
 */
export function localGatewayDeviceAddress(env: Record<string, string | undefined>): HostPort {
  const port = env.MOBILECLAW_DEVICE_PORT?.trim();
  if (!port) return parseHostPort(DEFAULT_GATEWAY_DEVICE_ADDRESS, '--gateway');
  const value = /^\d{1,5}$/.test(port) ? Number(port) : NaN;
  if (!(value >= 1 && value <= 65535)) {
    throw new RangeError(`MOBILECLAW_DEVICE_PORT must be a port from 1 to 65535 to find the local gateway (got ${JSON.stringify(port)}); pass --gateway <host:port>`);
  }
  return { host: '127.0.0.1', port: value };
}

const ADB_HELP_AFTER = `
Each phone adb lists in state "device" becomes a MobileClaw device named by its
serial (as a phone with the app would be): it appears in GET /api/devices and
the live view of the gateway, and goes offline when unplugged. Phones adb lists
as "unauthorized" or "offline" are reported here with what to do. Without
--token, the token comes from MOBILECLAW_DEVICE_TOKEN, else from the local
gateway's data directory (MOBILECLAW_DATA_DIR, default .mobileclaw).

Exit codes:
  0  stopped by SIGINT or SIGTERM (every bridge closed)
  1  no adb server answers at --adb (start one: adb start-server, or adb -P <port> start-server for another port)
  2  invalid command line, or no device token found
  3  the gateway refused a bridge (UNAUTHORIZED: wrong device token)

The gateway itself can do the same for the phones of its own machine:
MOBILECLAW_ADB=auto (see the README).
`;

/**
 * The `mobileclaw` command line. No command, or `start`: the gateway, configured by MOBILECLAW_*
 * variables (as it always was), `--sim <n>` simulated phones. `sim`: simulated phones against a
 * gateway (the simulator's own command line). `mcp`: the stdio bridge to a running gateway's MCP
 * endpoint. `adb`: the ADB bridge from this machine's adb phones to a (possibly remote) gateway.
 * `devices`, `screenshot`, `do`, `tasks`, `task`, `run`, `approve`, `deny`, `cancel`, `login`: a
 * running gateway through its REST API (`addClientCommands`). The gateway's and the simulator's
 * actions load their modules when they run, so `mobileclaw mcp` starts without the gateway's stack.
 * Usage errors are one line on stderr (`mobileclaw <command>: <what is wrong> (run … --help for usage)`)
 * and exit with {@link CLI_USAGE_EXIT}; a first word that names no command is an unknown command
 * (not an argument of the default `start`).
 */
export function mobileclawCli(env: Record<string, string | undefined> = process.env): Command {
  const program = new Command('mobileclaw')
    .description('MobileClaw: a gateway that lets AI agents operate Android phones.')
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : CLI_USAGE_EXIT))
    .addHelpText('after', PROGRAM_HELP_AFTER)
    .hook('preSubcommand', (command, subcommand) => {
      // Without a command name `start` runs, and commander would hand it the first word as an
      // argument: a first word that is not an option names a command that does not exist.
      const [first] = command.args;
      if (subcommand.name() === 'start' && first !== undefined && first !== 'start' && !first.startsWith('-')) {
        command.error(`unknown command '${first}'`, { code: 'commander.unknownCommand', exitCode: CLI_USAGE_EXIT });
      }
    });

  program
    .command('start', { isDefault: true })
    .description('start the gateway (the default); configured by MOBILECLAW_* environment variables, see the README')
    .addOption(new Option('--sim <n>', 'attach n simulated phones, sim-1…sim-<n> (0: none); default: MOBILECLAW_SIM, one phone').argParser(simulatedPhoneCount))
    .addHelpText('after', START_HELP_AFTER)
    .action(async (options: { sim?: number }) => {
      try {
        const gatewayEnv = options.sim === undefined ? env : { ...env, MOBILECLAW_SIM: options.sim > 0 ? 'on' : 'off' };
        const gateway = await loadGatewayProcess().runGatewayProcess(gatewayEnv);
        if (options.sim !== undefined && options.sim > 1) await loadSimulatedPhones().attachSimulatedPhones(gateway, options.sim);
      } catch (error) {
        process.stderr.write(`mobileclaw: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      }
    });

  program
    .command('sim')
    .description('run simulated phones against a gateway (mobileclaw sim --help lists its options)')
    .argument('[options...]', 'the simulator\'s options, e.g. --devices 3')
    .helpOption(false)
    .allowUnknownOption()
    .action((args: string[]) => loadSimulatorCli().runSimulatorCli(args, env, 'mobileclaw sim'));

  program
    .command('mcp')
    .description("connect an MCP client that speaks stdio (Claude Desktop, Cursor, …) to a running gateway's MCP endpoint")
    .addOption(new Option('--url <url>', `the gateway's base URL, or its MCP endpoint (…/mcp); without it, host and port come from ${HTTP_HOST_ENV} and ${HTTP_PORT_ENV} when set (default: ${DEFAULT_GATEWAY_URL})`).argParser(parseGatewayUrl))
    .addOption(new Option('--token <token>', "the API token set in the gateway's MOBILECLAW_API_TOKEN (not the device token), sent as Authorization: Bearer").env('MOBILECLAW_API_TOKEN'))
    .addHelpText('after', MCP_HELP_AFTER)
    .addHelpText('after', '\nExample:\n  $ mobileclaw mcp --url http://127.0.0.1:3000\n')
    .action(async (options: { url?: URL; token?: string }) => {
      let endpoint: URL;
      try {
        endpoint = options.url ?? mcpEndpointUrl(defaultGatewayUrl(env).href);
      } catch (error) {
        if (!(error instanceof CliError)) throw error;
        process.stderr.write(`mobileclaw mcp: ${error.message}\n`);
        process.exit(CLI_USAGE_EXIT);
      }
      const stop = new AbortController();
      process.once('SIGTERM', () => stop.abort());
      process.once('SIGINT', () => stop.abort());
      const code = await loadMcpStdioBridge().runMcpStdioBridge({ endpoint, token: options.token || undefined, signal: stop.signal });
      // stdin may still be open (the gateway went away): leave once stdout has been flushed.
      process.stdout.write('', () => process.exit(code));
    });

  program
    .command('adb')
    .description("bridge the phones this machine's adb server lists (USB debugging) to a gateway, as MobileClaw devices")
    .option('--serial <serial>', 'bridge only this phone (its adb serial); default: every phone, following plugs and unplugs')
    .addOption(new Option('--gateway <host:port>', `the gateway's device port (default: 127.0.0.1 at MOBILECLAW_DEVICE_PORT, else ${DEFAULT_GATEWAY_DEVICE_ADDRESS})`).argParser(hostPortArgument('--gateway')))
    .addOption(new Option('--token <token>', "the gateway's device token").env('MOBILECLAW_DEVICE_TOKEN'))
    .addOption(new Option('--adb <host:port>', 'the adb server (default: ADB_SERVER_SOCKET, else 127.0.0.1:5037)').argParser(hostPortArgument('--adb')))
    .addHelpText('after', ADB_HELP_AFTER)
    .addHelpText('after', 'Example:\n  $ mobileclaw adb --gateway 192.0.2.10:7397 --token "$MOBILECLAW_DEVICE_TOKEN" --serial R58M123ABC\n')
    .action(async (options: { serial?: string; gateway?: HostPort; token?: string; adb?: HostPort }) => {
      const command = loadAdbCommand();
      let adb: HostPort;
      let gateway: HostPort;
      try {
        adb = options.adb ?? command.defaultAdbServer(env);
        gateway = options.gateway ?? localGatewayDeviceAddress(env);
      } catch (error) {
        process.stderr.write(`mobileclaw adb: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(CLI_USAGE_EXIT);
      }
      const token = options.token || storedDeviceToken(env);
      if (!token) {
        process.stderr.write(`mobileclaw adb: no device token: pass --token, set MOBILECLAW_DEVICE_TOKEN, or run it where the gateway's data directory is\n`);
        process.exit(CLI_USAGE_EXIT);
      }
      const stop = new AbortController();
      process.once('SIGTERM', () => stop.abort());
      process.once('SIGINT', () => stop.abort());
      const code = await command.runAdbBridge({ adb, gateway, token, serial: options.serial, signal: stop.signal, stderr: (line) => process.stderr.write(`${line}\n`) });
      process.exit(code);
    });

  addClientCommands(program, env);
  for (const command of [program, ...program.commands]) command.configureOutput({ outputError: (text, write) => write(usageErrorLine(command, text)) });
  return program;
}

/**
 * commander's message (`error: unknown option '--bogus'`, sometimes with a second line such as
 * `(Did you mean devices?)`) as one line that names the command and where its usage is.
 */
function usageErrorLine(command: Command, text: string): string {
  const name = command.parent ? `${command.parent.name()} ${command.name()}` : command.name();
  const message = text
    .trim()
    .replace(/^error: /, '')
    .replace(/\s*\n\s*/g, ' ');
  return `${name}: ${message} (run \`${name} --help\` for usage)\n`;
}

/** `--sim <n>`: 0 to 1000 phones. */
function simulatedPhoneCount(value: string): number {
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n > 1000) throw new InvalidArgumentError('--sim must be an integer from 0 to 1000');
  return n;
}

function hostPortArgument(option: string): (value: string) => HostPort {
  return (value) => {
    try {
      return parseHostPort(value, option);
    } catch (error) {
      throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
    }
  };
}

/** The device token a gateway on this machine generated (`<data dir>/device-token`), if any. */
function storedDeviceToken(env: Record<string, string | undefined>): string | undefined {
  try {
    return readFileSync(join(env['MOBILECLAW_DATA_DIR'] || '.mobileclaw', 'device-token'), 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

function parseGatewayUrl(value: string): URL {
  try {
    return mcpEndpointUrl(value);
  } catch (error) {
    throw new InvalidArgumentError(error instanceof Error ? error.message : String(error));
  }
}

// Loaded on demand (CommonJS require) so that each command pulls in only its own stack: the gateway's
// Nest, SQLite and image modules take seconds to load, which `mobileclaw mcp` must not pay at every
// launch by a desktop client. A dynamic import() would not resolve the same way from `src/` and `dist/`.
/* eslint-disable @typescript-eslint/no-require-imports */
const loadGatewayProcess = (): typeof import('./gateway-process') => require('./gateway-process');
const loadMcpStdioBridge = (): typeof import('./mcp-stdio-bridge') => require('./mcp-stdio-bridge');
const loadAdbCommand = (): typeof import('./adb-command') => require('./adb-command');
const loadSimulatedPhones = (): typeof import('./cli/simulated-phones') => require('./cli/simulated-phones');
const loadSimulatorCli = (): typeof import('@mobileclaw/simulator-cli/simulator-cli') => require('@mobileclaw/simulator-cli/simulator-cli');
/* eslint-enable @typescript-eslint/no-require-imports */
