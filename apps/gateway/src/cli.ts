import { Command, InvalidArgumentError, Option } from 'commander';
import { mcpEndpointUrl } from './mcp-endpoint';

/** Exit code of an invalid command line (unknown command or option, bad `--url`). */
export const CLI_USAGE_EXIT = 2;

/** The address `mobileclaw mcp` uses without `--url`: the gateway's own default. */
export const DEFAULT_GATEWAY_URL = 'http://127.0.0.1:3000';

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
  2  invalid command line
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

/**
 * The `mobileclaw` command line. No command, or `start`: the gateway, configured by MOBILECLAW_*
 * variables (as it always was). `mcp`: the stdio bridge to a running gateway's MCP endpoint. Each
 * action loads its own modules when it runs, so `mobileclaw mcp` starts without the gateway's stack.
 * Usage errors exit with {@link CLI_USAGE_EXIT}.
 */
export function mobileclawCli(env: Record<string, string | undefined> = process.env): Command {
  const program = new Command('mobileclaw')
    .description('MobileClaw: a gateway that lets AI agents operate Android phones.')
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : CLI_USAGE_EXIT))
    .showHelpAfterError('(run with --help for usage)');

  program
    .command('start', { isDefault: true })
    .description('start the gateway (the default); configured by MOBILECLAW_* environment variables, see the README')
    .action(async () => {
      try {
        await loadGatewayProcess().runGatewayProcess(env);
      } catch (error) {
        process.stderr.write(`mobileclaw: ${error instanceof Error ? error.message : String(error)}\n`);
        process.exit(1);
      }
    });

  program
    .command('mcp')
    .description("connect an MCP client that speaks stdio (Claude Desktop, Cursor, …) to a running gateway's MCP endpoint")
    .addOption(new Option('--url <url>', "the gateway's base URL, or its MCP endpoint (…/mcp)").default(mcpEndpointUrl(DEFAULT_GATEWAY_URL), DEFAULT_GATEWAY_URL).argParser(parseGatewayUrl))
    .addOption(new Option('--token <token>', "the API token set in the gateway's MOBILECLAW_API_TOKEN (not the device token), sent as Authorization: Bearer").env('MOBILECLAW_API_TOKEN'))
    .addHelpText('after', MCP_HELP_AFTER)
    .action(async (options: { url: URL; token?: string }) => {
      const stop = new AbortController();
      process.once('SIGTERM', () => stop.abort());
      process.once('SIGINT', () => stop.abort());
      const code = await loadMcpStdioBridge().runMcpStdioBridge({ endpoint: options.url, token: options.token || undefined, signal: stop.signal });
      // stdin may still be open (the gateway went away): leave once stdout has been flushed.
      process.stdout.write('', () => process.exit(code));
    });

  return program;
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
/* eslint-enable @typescript-eslint/no-require-imports */
