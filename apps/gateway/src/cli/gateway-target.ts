import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CLI_EXIT, CliError } from './exit-codes';

/** The gateway's own default address (`MOBILECLAW_HTTP_HOST` and `MOBILECLAW_HTTP_PORT` unset). */
export const DEFAULT_GATEWAY_URL = 'http://127.0.0.1:3000';

/** The gateway's HTTP port and interface variables, which the commands follow to find a gateway on this machine. */
export const HTTP_PORT_ENV = 'MOBILECLAW_HTTP_PORT';
export const HTTP_HOST_ENV = 'MOBILECLAW_HTTP_HOST';

/** Interfaces a server binds to mean "every address": a client reaches it on loopback. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

/** The environment variable of the gateway URL. */
export const GATEWAY_URL_ENV = 'MOBILECLAW_URL';
/** The environment variable of the API token: the same one the gateway reads its token from. */
export const API_TOKEN_ENV = 'MOBILECLAW_API_TOKEN';

/** Which gateway to talk to, and with which API token. */
export interface GatewayTarget {
  /** The gateway's base URL, e.g. `http://127.0.0.1:3000` or `https://host/claw` (a path prefix behind a proxy), without a trailing slash. */
  url: URL;
  /** The API token (the gateway's `MOBILECLAW_API_TOKEN`), sent as `Authorization: Bearer`; undefined for a gateway without one. */
  token?: string;
}

/** What `mobileclaw login` stores. */
export interface StoredLogin {
  url: string;
  token?: string;
}

/**
 * The config file `mobileclaw login` writes: `$XDG_CONFIG_HOME/mobileclaw/config.json`, else
 * `~/.config/mobileclaw/config.json` (the XDG Base Directory rule: a relative XDG_CONFIG_HOME is
 * ignored).
 */
export function configFilePath(env: Record<string, string | undefined>): string {
  const xdg = env['XDG_CONFIG_HOME'];
  const base = xdg && xdg.startsWith('/') ? xdg : join(env['HOME'] || homedir(), '.config');
  return join(base, 'mobileclaw', 'config.json');
}

/**
 * A gateway base URL from the command line, the environment or the config file: http or https,
 * query and fragment dropped, no trailing slash.
 * @throws CliError (usage) when `value` is not an http(s) URL.
 */
export function gatewayBaseUrl(value: string, from: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(`${from}: not an http:// or https:// URL: ${JSON.stringify(value)}`, CLI_EXIT.usage);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`${from}: not an http:// or https:// URL: ${JSON.stringify(value)}`, CLI_EXIT.usage);
  url.search = '';
  url.hash = '';
  url.pathname = url.pathname.replace(/\/+$/, '');
  return url;
}

/**
 * The stored login, or undefined when there is no config file.
 * @throws CliError (usage) when the file cannot be read or is not what `mobileclaw login` writes.
 */
export function readStoredLogin(path: string): StoredLogin | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliError(`cannot read ${path}: ${(error as Error).message}`, CLI_EXIT.usage);
  }
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch {
    stored = undefined;
  }
  const { url, token } = (stored ?? {}) as { url?: unknown; token?: unknown };
  if (typeof url !== 'string' || (token !== undefined && typeof token !== 'string')) {
    throw new CliError(`${path} is not a mobileclaw login ({"url": "…", "token": "…"}); run \`mobileclaw login\` again`, CLI_EXIT.usage);
  }
  return token === undefined ? { url } : { url, token };
}

/**
 * Writes `login` to `path` readable by its owner only (file 0600, a new directory 0700), replacing
 * the file at once (written beside it, then renamed), so that a reader never sees half a file.
 */
export function writeStoredLogin(path: string, login: StoredLogin): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const partial = `${path}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  // An existing file of that name (left by an earlier crash) keeps its mode through writeFileSync.
  chmodSync(partial, 0o600);
  renameSync(partial, path);
}

/**
 * Where a gateway started in the same environment listens: `http://<MOBILECLAW_HTTP_HOST>:<MOBILECLAW_HTTP_PORT>`,
 * each as the gateway reads it (unset or blank: 127.0.0.1 and 3000); a wildcard interface (`0.0.0.0`,
 * `::`) is reached on 127.0.0.1, an IPv6 address in brackets. `MOBILECLAW_HTTP_PORT=0` (any free
 * port) names no port to find, so it counts as unset.
 * @throws CliError (usage) when MOBILECLAW_HTTP_PORT is not a port number (0–65535), or MOBILECLAW_HTTP_HOST not a host.
 */
export function defaultGatewayUrl(env: Record<string, string | undefined>): URL {
  const portText = env[HTTP_PORT_ENV]?.trim() || '';
  const port = portText === '' ? 0 : /^\d{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new CliError(`${HTTP_PORT_ENV}: not a port number (0-65535): ${JSON.stringify(env[HTTP_PORT_ENV])}`, CLI_EXIT.usage);
  const configured = env[HTTP_HOST_ENV]?.trim() || '';
  const host = configured === '' || WILDCARD_HOSTS.has(configured) ? '127.0.0.1' : isIPv6(configured) ? `[${configured}]` : configured;
  let url: URL | undefined;
  try {
    url = new URL(`http://${host}/`);
  } catch {
    url = undefined;
  }
  // `host/path` or `user@host` would parse as a URL of another host or with more than a host.
  if (!url || url.pathname !== '/' || url.username !== '' || url.port !== '') {
    throw new CliError(`${HTTP_HOST_ENV}: not a host name or IP address: ${JSON.stringify(env[HTTP_HOST_ENV])}`, CLI_EXIT.usage);
  }
  url.port = String(port === 0 ? new URL(DEFAULT_GATEWAY_URL).port : port);
  return gatewayBaseUrl(url.href, 'default');
}

/**
 * The gateway and token a command uses. The URL: `--url`, else `MOBILECLAW_URL`, else the stored
 * login's, else where a gateway of this environment listens ({@link defaultGatewayUrl}). The token: `--token`, else `MOBILECLAW_API_TOKEN`, else
 * the stored login's — only when the URL is the stored login's, so that a token is never sent to
 * a gateway it was not given for.
 * @param loginFile the stored login to fall back on; null: none (`mobileclaw login` itself).
 * @throws CliError (usage) for an invalid URL, config file, MOBILECLAW_HTTP_PORT or MOBILECLAW_HTTP_HOST.
 */
export function resolveGatewayTarget(flags: { url?: string; token?: string }, env: Record<string, string | undefined>, loginFile: string | null = configFilePath(env)): GatewayTarget {
  const stored = loginFile === null ? undefined : readStoredLogin(loginFile);
  const url = flags.url
    ? gatewayBaseUrl(flags.url, '--url')
    : env[GATEWAY_URL_ENV]
      ? gatewayBaseUrl(env[GATEWAY_URL_ENV], GATEWAY_URL_ENV)
      : stored
        ? gatewayBaseUrl(stored.url, loginFile as string)
        : defaultGatewayUrl(env);
  const storedToken = stored && gatewayBaseUrl(stored.url, loginFile as string).href === url.href ? stored.token : undefined;
  const token = flags.token || env[API_TOKEN_ENV] || storedToken || undefined;
  return token === undefined ? { url } : { url, token };
}
