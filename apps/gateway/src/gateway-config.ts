import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { BlockList, isIP } from 'node:net';
import { delimiter, isAbsolute, resolve } from 'node:path';
import { plainToInstance, Transform } from 'class-transformer';
import { IsIn, IsInt, IsNumber, IsOptional, IsString, IsUrl, Matches, Max, MaxLength, Min, MinLength, validateSync } from 'class-validator';
import { DEFAULT_GATEWAY_INSTANCE_ID, hostNameOf } from '@mobileclaw/domain';
import { DEFAULT_RETENTION_MAX_TASKS, DEFAULT_TASK_CASE_OPTIONS } from '@mobileclaw/case-tasks';
import { DEFAULT_MEMORY_OPTIONS } from '@mobileclaw/case-memory';
import { DEFAULT_DEVICE_CONTROL_OPTIONS } from '@mobileclaw/case-device-control';
import { DEVICE_GATEWAY_DEFAULTS } from '@mobileclaw/device';
import type { LlmPlannerOptions } from '@mobileclaw/planner-llm';
import { DEFAULT_TCP_DEVICE_PORT } from '@mobileclaw/transport-tcp';
import { adbServerAddress } from '@mobileclaw/adb-bridge';
import { parsePairingAddress, type PairingAddress, type ScopedApiToken } from '@mobileclaw/trigger-rest';
import { isPostgresUrl } from '@mobileclaw/store-postgres';
import { parseHostPort, type HostPort } from './host-port';
import { resolveLlmPlannerOptions } from './llm-environment';
import { loadToolsConfig, type ToolsConfig } from './tools-config';
import { loadScopedTokens } from './scoped-tokens-config';

/** Default of `MOBILECLAW_EMBEDDINGS_MODEL`. */
export const DEFAULT_EMBEDDINGS_MODEL = 'text-embedding-3-small';

/** Default of `MOBILECLAW_TOOL_CALL_RETENTION_MS`: a week, far beyond any retry of a call, in ms. */
export const DEFAULT_TOOL_CALL_RETENTION_MS = 7 * 86_400_000;

const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
/** The same conversion for settings that may be fractional: the validators decide what is allowed. */
const toNumber = toInt;
const blankToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/**
 * Environment variables of the gateway (README, "Configuration"), validated at start
 * (class-validator). Each field's default is applied in {@link loadGatewayConfig}.
 */
export class GatewayEnvironment {
  @Transform(toInt) @IsOptional() @IsInt() @Min(0) @Max(65535) MOBILECLAW_HTTP_PORT?: number;
  @Transform(blankToUndefined) @IsOptional() @IsString() MOBILECLAW_HTTP_HOST?: string;
  @Transform(toInt) @IsOptional() @IsInt() @Min(0) @Max(65535) MOBILECLAW_DEVICE_PORT?: number;
  @Transform(blankToUndefined) @IsOptional() @IsString() MOBILECLAW_DEVICE_HOST?: string;
  @Transform(blankToUndefined) @IsOptional() @IsIn(['on', 'off', 'true', 'false', '1', '0']) MOBILECLAW_DEVICE_WS?: string;
  @Transform(blankToUndefined) @IsOptional() @IsString() MOBILECLAW_PAIRING_ADDRESS?: string;
  @Transform(blankToUndefined) @IsOptional() @IsString() @MinLength(16, { message: 'MOBILECLAW_DEVICE_TOKEN must be at least 16 characters' }) @MaxLength(512, { message: 'MOBILECLAW_DEVICE_TOKEN must be at most 512 characters (the pairing QR code holds it)' }) MOBILECLAW_DEVICE_TOKEN?: string;
  // Visible ASCII without spaces: an Authorization header cannot carry anything else intact (a space or
  // a trailing blank would make a token no request can ever present). The messages never quote it.
  @Transform(blankToUndefined) @IsOptional() @IsString() @MinLength(16, { message: 'MOBILECLAW_API_TOKEN must be at least 16 characters' })
  @Matches(/^[\x21-\x7e]+$/, { message: 'MOBILECLAW_API_TOKEN must be visible ASCII characters without spaces (as an Authorization header carries it)' })
  MOBILECLAW_API_TOKEN?: string;
  @Transform(blankToUndefined) @IsOptional() @IsString() MOBILECLAW_DATA_DIR?: string;
  // Checked by isPostgresUrl in validateGatewayEnvironment; its value never appears in a message (it may hold a password).
  @Transform(blankToUndefined) @IsOptional() @IsString() MOBILECLAW_DATABASE_URL?: string;
  // Checked by isNatsUrl in validateGatewayEnvironment; its value never appears in a message (it may hold a token).
  @Transform(blankToUndefined) @IsOptional() @IsString() MOBILECLAW_NATS_URL?: string;
  @Transform(blankToUndefined) @IsOptional() @IsString() @MinLength(1) @MaxLength(128) MOBILECLAW_INSTANCE_ID?: string;
  @Transform(toInt) @IsOptional() @IsInt() @Min(3000) @Max(86_400_000) MOBILECLAW_TASK_LEASE_MS?: number;
  @Transform(blankToUndefined) @IsOptional() @IsIn(['on', 'off', 'true', 'false', '1', '0']) MOBILECLAW_SIM?: string;
  @Transform(blankToUndefined) @IsOptional() @IsString() MOBILECLAW_CORS_ORIGINS?: string;
  @Transform(blankToUndefined) @IsOptional() @IsString() MOBILECLAW_SKILLS_DIRS?: string;
  @Transform(blankToUndefined) @IsOptional() @IsString() MOBILECLAW_TOOLS_CONFIG?: string;
  @Transform(blankToUndefined) @IsOptional() @IsString() MOBILECLAW_SCOPED_TOKENS?: string;
  @Transform(toInt) @IsOptional() @IsInt() @Min(60_000) @Max(365 * 86_400_000) MOBILECLAW_TOOL_CALL_RETENTION_MS?: number;
  @Transform(blankToUndefined) @IsOptional() @IsString() MOBILECLAW_ALLOWED_HOSTS?: string;
  @Transform(blankToUndefined) @IsOptional() @IsIn(['auto', 'off']) MOBILECLAW_ADB?: string;
  @Transform(blankToUndefined) @IsOptional() @IsString() MOBILECLAW_ADB_SERVER?: string;
  @Transform(toInt) @IsOptional() @IsInt() @Min(1) @Max(600_000) MOBILECLAW_COMMAND_TIMEOUT_MS?: number;
  @Transform(toInt) @IsOptional() @IsInt() @Min(1000) @Max(3_600_000) MOBILECLAW_HEARTBEAT_INTERVAL_MS?: number;
  @Transform(toInt) @IsOptional() @IsInt() @Min(1024) @Max(256 * 1024 * 1024) MOBILECLAW_MAX_FRAME_BYTES?: number;
  @Transform(toInt) @IsOptional() @IsInt() @Min(0) @Max(10_000) MOBILECLAW_QUEUE_LIMIT?: number;
  @Transform(toInt) @IsOptional() @IsInt() @Min(1) @Max(200) MOBILECLAW_TASK_MAX_STEPS?: number;
  @Transform(toInt) @IsOptional() @IsInt() @Min(1000) @Max(3_600_000) MOBILECLAW_PLANNING_TIMEOUT_MS?: number;
  @Transform(toInt) @IsOptional() @IsInt() @Min(100) @Max(86_400_000) MOBILECLAW_TOOL_RESULT_TIMEOUT_MS?: number;
  @Transform(toInt) @IsOptional() @IsInt() @Min(0) @Max(30_000) MOBILECLAW_SETTLE_TIMEOUT_MS?: number;
  @Transform(toInt) @IsOptional() @IsInt() @Min(10) @Max(5000) MOBILECLAW_SETTLE_POLL_MS?: number;
  @Transform(toInt) @IsOptional() @IsInt() @Min(3000) @Max(3_600_000) MOBILECLAW_TAKEOVER_LEASE_MS?: number;
  @Transform(toInt) @IsOptional() @IsInt() @Min(1) @Max(10_000_000) MOBILECLAW_RETENTION_MAX_TASKS?: number;
  @Transform(toInt) @IsOptional() @IsInt() @Min(1) @Max(36_500) MOBILECLAW_RETENTION_MAX_AGE_DAYS?: number;
  @Transform(blankToUndefined) @IsOptional() @IsString() MOBILECLAW_MCP_ALLOWED_ORIGINS?: string;
  @Transform(toInt) @IsOptional() @IsInt() @Min(1000) @Max(7 * 86_400_000) MOBILECLAW_MCP_SESSION_IDLE_MS?: number;
  @Transform(toInt) @IsOptional() @IsInt() @Min(1) @Max(100_000) MOBILECLAW_MCP_MAX_SESSIONS?: number;
  @Transform(toInt) @IsOptional() @IsInt() @Min(10) @Max(300_000) MOBILECLAW_MCP_KEEP_ALIVE_MS?: number;
  @Transform(toInt) @IsOptional() @IsInt() @Min(64) @Max(8192) MOBILECLAW_MCP_IMAGE_MAX_SIDE?: number;
  @Transform(toInt) @IsOptional() @IsInt() @Min(16 * 1024) @Max(16 * 1024 * 1024) MOBILECLAW_MCP_IMAGE_MAX_BYTES?: number;
  @Transform(blankToUndefined) @IsOptional() @IsIn(['on', 'off', 'true', 'false', '1', '0']) MOBILECLAW_MCP_CONFORMANCE_FIXTURES?: string;
  @Transform(blankToUndefined) @IsOptional() @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']) MOBILECLAW_LOG_LEVEL?: string;
  @Transform(blankToUndefined) @IsOptional() @IsIn(['json', 'pretty']) MOBILECLAW_LOG_FORMAT?: string;
  @Transform(blankToUndefined) @IsOptional() @IsIn(['on', 'off', 'true', 'false', '1', '0']) MOBILECLAW_METRICS_DEVICE_LABELS?: string;
  @Transform(toInt) @IsOptional() @IsInt() @Min(100) @Max(3_600_000) MOBILECLAW_DEVICE_LISTEN_RETRY_MS?: number;
  @Transform(toInt) @IsOptional() @IsInt() @Min(100) @Max(600_000) MOBILECLAW_SHUTDOWN_TIMEOUT_MS?: number;
  @Transform(toInt) @IsOptional() @IsInt() @Min(1000) @Max(30 * 86_400_000) MOBILECLAW_IDEMPOTENCY_TTL_MS?: number;
  @IsOptional() @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }) MOBILECLAW_PUBLIC_URL?: string;
  @Transform(toInt) @IsOptional() @IsInt() @Min(1) @Max(20) MOBILECLAW_A2A_PUSH_MAX_ATTEMPTS?: number;
  @Transform(toInt) @IsOptional() @IsInt() @Min(10) @Max(60_000) MOBILECLAW_A2A_PUSH_RETRY_BASE_MS?: number;
  @Transform(blankToUndefined)
  @IsOptional()
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false }, { message: 'MOBILECLAW_EMBEDDINGS_BASE_URL must be an http(s) URL, e.g. https://api.openai.com/v1' })
  MOBILECLAW_EMBEDDINGS_BASE_URL?: string;
  // The key's value never appears in a message (class-validator's default messages do not quote values).
  @Transform(blankToUndefined) @IsOptional() @IsString() @MaxLength(4096) MOBILECLAW_EMBEDDINGS_API_KEY?: string;
  @Transform(blankToUndefined) @IsOptional() @IsString() @MaxLength(200) MOBILECLAW_EMBEDDINGS_MODEL?: string;
  @Transform(toInt) @IsOptional() @IsInt() @Min(2) @Max(10_000) MOBILECLAW_MEMORY_FLUSH_THRESHOLD?: number;
  @Transform(toNumber) @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0.01) @Max(36_500) MOBILECLAW_MEMORY_HALF_LIFE_DAYS?: number;
  @Transform(toNumber) @IsOptional() @IsNumber({ allowNaN: false, allowInfinity: false }) @Min(0) @Max(1) MOBILECLAW_MEMORY_MIN_SEMANTIC_SCORE?: number;
}

/** The gateway's resolved settings (ports, paths, limits). */
export interface GatewayConfig {
  httpPort: number;
  httpHost: string;
  devicePort: number;
  /** undefined = all interfaces. */
  deviceHost?: string;
  /** Phones may also connect over WebSocket at `/ws/device` on the HTTP port (`MOBILECLAW_DEVICE_WS`, default on). */
  deviceWs: boolean;
  /**
   * Where phones reach the device port, as the pairing link names it (`MOBILECLAW_PAIRING_ADDRESS`:
   * `host`, `host:port`, `tls://host:port`); undefined = guessed per request (see `GET /api/pairing`).
   */
  pairingAddress?: PairingAddress;
  /** undefined = generate/load one from the data directory. */
  deviceToken?: string;
  apiToken?: string;
  /**
   * Tokens that reach only the memory API of their scopes, read from the YAML or JSON file
   * `MOBILECLAW_SCOPED_TOKENS` (see `scoped-tokens-config.ts`); empty = none. Secrets: never log them.
   */
  scopedTokens: ScopedApiToken[];
  /** Absolute path. */
  dataDir: string;
  /**
   * PostgreSQL for tasks, steps, events, screenshots, idempotency keys, push notifications and tool-call
   * records, shared by several gateway instances (`MOBILECLAW_DATABASE_URL`, `postgres://…`);
   * undefined = SQLite in `dataDir`. The memory index stays SQLite in `dataDir` either way.
   */
  databaseUrl?: string;
  /**
   * Cluster mode: the NATS server (`MOBILECLAW_NATS_URL`, `nats://host:4222`, several comma-separated)
   * through which several gateway instances share their phones; undefined = a single instance.
   */
  natsUrl?: string;
  /**
   * This instance's id (`MOBILECLAW_INSTANCE_ID`, 1–128 characters of `[A-Za-z0-9._-]`): it marks the
   * tasks and phones the instance holds, must stay the same across its restarts and differ between
   * instances. Default: `local` on a single instance; with NATS or PostgreSQL, the host name and a
   * hash of the data directory (so that two instances on one host, each with its own data directory,
   * differ).
   */
  instanceId: string;
  /**
   * How long an instance's claim on a task lasts without renewal, in ms (`MOBILECLAW_TASK_LEASE_MS`,
   * 3 000–86 400 000). It is renewed every third of that; when an instance dies, another one marks its
   * tasks `interrupted` once the lease has run out. Default 30 000 with NATS or PostgreSQL, else the
   * task layer's default.
   */
  taskLeaseMs: number;
  sim: boolean;
  /**
   * `MOBILECLAW_ADB=auto`: every phone the adb server at `server` lists is bridged to this gateway
   * (and listed with its adb state when it cannot be); undefined = off.
   */
  adb?: { server: HostPort };
  corsOrigins: string[];
  /**
   * Without an API token, the `Host` names served besides loopback ones (`MOBILECLAW_ALLOWED_HOSTS`,
   * comma-separated, any port): a request naming another host gets 403 `HOST_NOT_ALLOWED` (DNS rebinding).
   */
  allowedHosts: string[];
  commandTimeoutMs: number;
  heartbeatIntervalMs: number;
  maxFrameBytes: number;
  queueLimit: number;
  logLevel: string;
  /** `json`: one JSON object per line; `pretty`: pino-pretty's readable lines (coloured on a terminal). */
  logFormat: 'json' | 'pretty';
  /** Add a `device_id` label to the per-phone metrics (small fleets only). */
  metricsDeviceLabels: boolean;
  /** When the device port cannot be bound, the gateway starts anyway and tries it again every this many ms (readiness is down meanwhile). */
  deviceListenRetryMs: number;
  /** Longest graceful shutdown after SIGTERM/SIGINT, in ms; then the process exits 1. */
  shutdownTimeoutMs: number;
  /** Default step budget of a task. */
  taskMaxSteps: number;
  /** How long an `Idempotency-Key` of a task creation is remembered, in ms (`MOBILECLAW_IDEMPOTENCY_TTL_MS`, default 24 h). */
  idempotencyTtlMs: number;
  /**
   * The gateway's URL as callers reach it (`MOBILECLAW_PUBLIC_URL`, e.g. `https://gw.example.org`), named
   * by the A2A agent card; undefined = the host of each request.
   */
  publicUrl?: string;
  /** Deliveries of one A2A push notification before it is dropped (`MOBILECLAW_A2A_PUSH_MAX_ATTEMPTS`, default 5). */
  a2aPushMaxAttempts: number;
  /** Delay before the first retry of a push notification, in ms, doubled per retry and jittered (`MOBILECLAW_A2A_PUSH_RETRY_BASE_MS`, default 1000). */
  a2aPushRetryBaseMs: number;
  /**
   * Folders of SKILL.md skills searched after `<dataDir>/skills`, in this order (`MOBILECLAW_SKILLS_DIRS`,
   * separated by the platform's path delimiter, `:` or `;` on Windows; relative ones from the working directory).
   */
  skillsDirs: string[];
  /**
   * The tool registry's remote sources, extra skills folders, precedence and policies, read from the
   * YAML or JSON file `MOBILECLAW_TOOLS_CONFIG` (see `tools-config.ts`); undefined = none configured.
   * Holds resolved secrets: never log it.
   */
  tools?: ToolsConfig;
  /** How long a tool call's record (the at-most-once ledger) is kept, in ms (`MOBILECLAW_TOOL_CALL_RETENTION_MS`, default 7 days). */
  toolCallRetentionMs: number;
  /** Longest wait for the planner's decision on one step, in ms; then the task fails with `PLANNER_ERROR`. */
  planningTimeoutMs: number;
  /** Longest wait for the caller's answer to a tool call, in ms; then the step ends `TOOL_RESULT_TIMEOUT` and the task goes on. */
  toolResultTimeoutMs: number;
  /** Longest wait for the phone's UI to settle (two equal UI trees) before each observation, in ms; 0 = off. */
  settleTimeoutMs: number;
  /** Pause between two UI-tree reads while the UI settles, in ms. */
  settlePollMs: number;
  /** How long a person's hold on a phone (a takeover) lasts without renewal, in ms. */
  takeoverLeaseMs: number;
  /** Finished tasks kept (newest first); older ones and their screenshots are pruned. */
  retentionMaxTasks: number;
  /** Finished tasks older than this are pruned, in ms; undefined = no age limit. */
  retentionMaxAgeMs?: number;
  /**
   * The agent's memory (`<dataDir>/memory` and the task database): the OpenAI-compatible embeddings
   * endpoint (`MOBILECLAW_EMBEDDINGS_BASE_URL`, `_API_KEY`, `_MODEL`; undefined = lexical search only;
   * holds the key: never log it), the session turns that trigger a flush, the half-life of daily
   * memories' decay (days) and the minimum cosine similarity of a semantic hit.
   */
  memory: {
    embeddings?: { baseUrl: string; apiKey?: string; model: string };
    flushThreshold: number;
    halfLifeDays: number;
    minSemanticScore: number;
  };
  /** The OpenAI-compatible planner model; undefined = the rule-based planner. */
  llm?: LlmPlannerOptions;
  /**
   * The MCP face: browser origins allowed besides localhost, 2025-session idle time (ms) and bound,
   * the keep-alive comment interval of its event streams (ms; below a proxy's idle timeout), `get_screen`
   * image bounds (px, bytes), and (test only, default off) the conformance suite's fixtures.
   */
  mcp: {
    allowedOrigins: string[];
    sessionIdleMs: number;
    maxSessions: number;
    keepAliveMs: number;
    imageMaxSidePx: number;
    imageMaxBytes: number;
    conformanceFixtures: boolean;
  };
}

/** The loopback networks: 127.0.0.0/8 (IPv4-mapped IPv6 addresses included) and `::1`. */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Task lease of an instance that shares its store or phones with others, in ms (see `GatewayConfig.taskLeaseMs`). */
export const CLUSTER_TASK_LEASE_MS = 30_000;

const INSTANCE_ID = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * The default id of an instance that shares its store or phones: `<host name>-<first 8 hex of
 * SHA-256 of the absolute data directory>`, stable across restarts and distinct for two instances on
 * one host with their own data directories. Characters outside `[A-Za-z0-9._-]` become `-`.
 */
export function defaultInstanceId(dataDir: string): string {
  const host = hostname().replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 100) || 'gateway';
  return `${host}-${createHash('sha256').update(dataDir).digest('hex').slice(0, 8)}`;
}

/** Whether `value` is a NATS server list: comma-separated `nats://host:port`, `tls://…` or `host:port` entries. */
export function isNatsUrl(value: string): boolean {
  const entries = value.split(',').map((entry) => entry.trim());
  return entries.every((entry) => {
    const withScheme = /^[a-z]+:\/\//i.test(entry) ? entry : `nats://${entry}`;
    try {
      const url = new URL(withScheme);
      return ['nats:', 'tls:'].includes(url.protocol) && url.hostname !== '' && (url.pathname === '' || url.pathname === '/');
    } catch {
      return false;
    }
  });
}

/** True when some entries of the NATS server list are `tls://` and others not (TLS is per connection). */
function mixesTls(value: string): boolean {
  const tls = value.split(',').filter((entry) => /^tls:\/\//i.test(entry.trim())).length;
  return tls !== 0 && tls !== value.split(',').length;
}

/**
 * True when binding `host` keeps the HTTP port on this machine: `localhost`, any IPv4 loopback
 * address (127.0.0.0/8), `::1`, or an IPv4-mapped loopback address (`::ffff:127.x.y.z`).
 */
export function isLoopbackHost(host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true;
  const family = isIP(host);
  return family !== 0 && LOOPBACK.check(host, family === 4 ? 'ipv4' : 'ipv6');
}

/** Constraints that say what type a value must be: when one fails, the range and format rules of that value say nothing more. */
const TYPE_CONSTRAINTS = ['isInt', 'isNumber', 'isString'];

/** The messages of one property's failed constraints: only the type's when its type is wrong ("abc" is not an integer; not "must not be greater than 65535"). */
function constraintMessages(constraints: Record<string, string> | undefined): string[] {
  const failed = Object.entries(constraints ?? {});
  const typeFailures = failed.filter(([name]) => TYPE_CONSTRAINTS.includes(name));
  return (typeFailures.length > 0 ? typeFailures : failed).map(([, message]) => message);
}

/** The entries of a comma-separated setting, trimmed, empty ones dropped. */
const listOf = (value: string | undefined): string[] =>
  (value ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

/**
 * Validates the environment once, before anything starts.
 * @throws Error `Invalid MobileClaw configuration:` then one `  - ` line per problem, all of them at
 *   once: each invalid variable, a setting that needs another, the HTTP port exposed beyond loopback
 *   without `MOBILECLAW_API_TOKEN`.
 */
export function validateGatewayEnvironment(env: Record<string, unknown>): Record<string, unknown> {
  const parsed = plainToInstance(GatewayEnvironment, env, { exposeDefaultValues: true });
  const problems: string[] = validateSync(parsed, { skipMissingProperties: false }).flatMap((e) => constraintMessages(e.constraints).map((m) => `${e.property}: ${m}`));
  /** Runs a check that throws its problem as an Error, and records that problem. */
  const check = (run: () => unknown): void => {
    try {
      run();
    } catch (err) {
      problems.push(err instanceof Error ? err.message : String(err));
    }
  };
  check(() => resolveLlmPlannerOptions(env as Record<string, string | undefined>));
  if (typeof parsed.MOBILECLAW_PAIRING_ADDRESS === 'string') check(() => parsePairingAddress(parsed.MOBILECLAW_PAIRING_ADDRESS!));
  // adb's own ADB_SERVER_SOCKET matters only when the gateway follows adb.
  if (parsed.MOBILECLAW_ADB === 'auto' || parsed.MOBILECLAW_ADB_SERVER !== undefined) check(() => resolveAdbServer(env));
  if (parsed.MOBILECLAW_EMBEDDINGS_BASE_URL === undefined) {
    const orphan = (['MOBILECLAW_EMBEDDINGS_API_KEY', 'MOBILECLAW_EMBEDDINGS_MODEL'] as const).find((name) => parsed[name] !== undefined);
    if (orphan !== undefined) problems.push(`${orphan} is set but MOBILECLAW_EMBEDDINGS_BASE_URL is not: set the endpoint too (or neither)`);
  }
  if (typeof parsed.MOBILECLAW_NATS_URL === 'string' && !isNatsUrl(parsed.MOBILECLAW_NATS_URL)) {
    problems.push('MOBILECLAW_NATS_URL must be one or more comma-separated nats://host:port URLs (or host:port), e.g. nats://nats.internal:4222');
  } else if (typeof parsed.MOBILECLAW_NATS_URL === 'string' && mixesTls(parsed.MOBILECLAW_NATS_URL)) {
    problems.push('MOBILECLAW_NATS_URL mixes tls:// and plain URLs: use tls:// (TLS required) for every server or for none');
  }
  if (parsed.MOBILECLAW_INSTANCE_ID !== undefined && !INSTANCE_ID.test(String(parsed.MOBILECLAW_INSTANCE_ID))) {
    problems.push(`MOBILECLAW_INSTANCE_ID: ${JSON.stringify(parsed.MOBILECLAW_INSTANCE_ID)} must be 1–128 characters of [A-Za-z0-9._-]`);
  }
  if (typeof parsed.MOBILECLAW_DATABASE_URL === 'string' && !isPostgresUrl(parsed.MOBILECLAW_DATABASE_URL)) {
    problems.push('MOBILECLAW_DATABASE_URL must be a postgres:// or postgresql:// URL with a host, e.g. postgres://mobileclaw:secret@db.internal:5432/mobileclaw');
  }
  const badHost = typeof parsed.MOBILECLAW_ALLOWED_HOSTS === 'string' ? listOf(parsed.MOBILECLAW_ALLOWED_HOSTS).find((entry) => hostNameOf(entry) === undefined) : undefined;
  if (badHost !== undefined) problems.push(`MOBILECLAW_ALLOWED_HOSTS: ${JSON.stringify(badHost)} is not a host name (no scheme or path; IPv6 in brackets)`);
  const host = typeof parsed.MOBILECLAW_HTTP_HOST === 'string' ? parsed.MOBILECLAW_HTTP_HOST : '127.0.0.1';
  if (parsed.MOBILECLAW_SCOPED_TOKENS && !parsed.MOBILECLAW_API_TOKEN) {
    problems.push('MOBILECLAW_SCOPED_TOKENS needs MOBILECLAW_API_TOKEN: without it the API is open to every local caller, and a scoped token would restrict nothing');
  } else if (!isLoopbackHost(host) && !parsed.MOBILECLAW_API_TOKEN) {
    problems.push(`MOBILECLAW_HTTP_HOST=${host} exposes the API beyond this machine: set MOBILECLAW_API_TOKEN too`);
  }
  if (problems.length > 0) throw new Error(`Invalid MobileClaw configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  return { ...env, ...Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined)) };
}

/**
 * The adb server the gateway follows: `MOBILECLAW_ADB_SERVER` (host:port), else adb's own
 * `ADB_SERVER_SOCKET` (`tcp:[host:]port`), else 127.0.0.1:5037.
 * @throws RangeError naming the variable whose value is malformed.
 */
export function resolveAdbServer(env: Record<string, unknown>): HostPort {
  const own = env['MOBILECLAW_ADB_SERVER'];
  if (typeof own === 'string' && own.trim() !== '') return parseHostPort(own, 'MOBILECLAW_ADB_SERVER');
  const socket = env['ADB_SERVER_SOCKET'];
  return adbServerAddress(typeof socket === 'string' ? socket : undefined);
}

/**
 * Reads the validated variables into a {@link GatewayConfig} with defaults, and the tools configuration
 * file `MOBILECLAW_TOOLS_CONFIG` (read once, here; relative to `cwd`).
 * @param stdoutIsTty whether stdout is a terminal: the log format's default (`pretty` on one, `json` otherwise).
 * @throws Error `Invalid MobileClaw configuration:` then one line per problem of the tools configuration
 *   (`tools config <file>: <key path>: <problem>`, see `ToolsConfigError`).
 */
export function loadGatewayConfig(env: Record<string, unknown>, cwd = process.cwd(), stdoutIsTty = process.stdout.isTTY === true): GatewayConfig {
  const v = plainToInstance(GatewayEnvironment, env);
  const dataDir = v.MOBILECLAW_DATA_DIR ?? '.mobileclaw';
  // Several instances share phones (NATS) or tasks (PostgreSQL): each needs its own instance id.
  const shared = v.MOBILECLAW_NATS_URL !== undefined || v.MOBILECLAW_DATABASE_URL !== undefined;
  return {
    httpPort: v.MOBILECLAW_HTTP_PORT ?? 3000,
    httpHost: v.MOBILECLAW_HTTP_HOST ?? '127.0.0.1',
    devicePort: v.MOBILECLAW_DEVICE_PORT ?? DEFAULT_TCP_DEVICE_PORT,
    deviceHost: v.MOBILECLAW_DEVICE_HOST,
    deviceWs: !['off', 'false', '0'].includes(v.MOBILECLAW_DEVICE_WS ?? 'on'),
    pairingAddress: v.MOBILECLAW_PAIRING_ADDRESS === undefined ? undefined : parsePairingAddress(v.MOBILECLAW_PAIRING_ADDRESS),
    deviceToken: v.MOBILECLAW_DEVICE_TOKEN,
    apiToken: v.MOBILECLAW_API_TOKEN,
    scopedTokens: v.MOBILECLAW_SCOPED_TOKENS === undefined ? [] : scopedTokensAt(v.MOBILECLAW_SCOPED_TOKENS, env, v.MOBILECLAW_API_TOKEN, cwd),
    dataDir: isAbsolute(dataDir) ? dataDir : resolve(cwd, dataDir),
    databaseUrl: v.MOBILECLAW_DATABASE_URL,
    natsUrl: v.MOBILECLAW_NATS_URL,
    instanceId: v.MOBILECLAW_INSTANCE_ID ?? (shared ? defaultInstanceId(isAbsolute(dataDir) ? dataDir : resolve(cwd, dataDir)) : DEFAULT_GATEWAY_INSTANCE_ID),
    taskLeaseMs: v.MOBILECLAW_TASK_LEASE_MS ?? (shared ? CLUSTER_TASK_LEASE_MS : DEFAULT_TASK_CASE_OPTIONS.leaseMs),
    sim: !['off', 'false', '0'].includes(v.MOBILECLAW_SIM ?? 'on'),
    adb: v.MOBILECLAW_ADB === 'auto' ? { server: resolveAdbServer(env) } : undefined,
    corsOrigins: (v.MOBILECLAW_CORS_ORIGINS ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter(Boolean),
    allowedHosts: listOf(v.MOBILECLAW_ALLOWED_HOSTS),
    commandTimeoutMs: v.MOBILECLAW_COMMAND_TIMEOUT_MS ?? DEVICE_GATEWAY_DEFAULTS.defaultTimeoutMs,
    heartbeatIntervalMs: v.MOBILECLAW_HEARTBEAT_INTERVAL_MS ?? DEVICE_GATEWAY_DEFAULTS.heartbeatIntervalMs,
    maxFrameBytes: v.MOBILECLAW_MAX_FRAME_BYTES ?? DEVICE_GATEWAY_DEFAULTS.maxFrameBytes,
    queueLimit: v.MOBILECLAW_QUEUE_LIMIT ?? DEVICE_GATEWAY_DEFAULTS.queueLimit,
    logLevel: v.MOBILECLAW_LOG_LEVEL ?? 'info',
    logFormat: (v.MOBILECLAW_LOG_FORMAT as 'json' | 'pretty' | undefined) ?? (stdoutIsTty ? 'pretty' : 'json'),
    metricsDeviceLabels: ['on', 'true', '1'].includes(v.MOBILECLAW_METRICS_DEVICE_LABELS ?? 'off'),
    deviceListenRetryMs: v.MOBILECLAW_DEVICE_LISTEN_RETRY_MS ?? 5000,
    shutdownTimeoutMs: v.MOBILECLAW_SHUTDOWN_TIMEOUT_MS ?? 10_000,
    taskMaxSteps: v.MOBILECLAW_TASK_MAX_STEPS ?? DEFAULT_TASK_CASE_OPTIONS.defaultMaxSteps,
    idempotencyTtlMs: v.MOBILECLAW_IDEMPOTENCY_TTL_MS ?? DEFAULT_TASK_CASE_OPTIONS.idempotencyTtlMs,
    publicUrl: v.MOBILECLAW_PUBLIC_URL?.replace(/\/+$/, ''),
    a2aPushMaxAttempts: v.MOBILECLAW_A2A_PUSH_MAX_ATTEMPTS ?? 5,
    a2aPushRetryBaseMs: v.MOBILECLAW_A2A_PUSH_RETRY_BASE_MS ?? 1000,
    skillsDirs: (v.MOBILECLAW_SKILLS_DIRS ?? '')
      .split(delimiter)
      .map((dir) => dir.trim())
      .filter(Boolean)
      .map((dir) => (isAbsolute(dir) ? dir : resolve(cwd, dir))),
    tools: v.MOBILECLAW_TOOLS_CONFIG === undefined ? undefined : toolsConfigAt(v.MOBILECLAW_TOOLS_CONFIG, env, cwd),
    toolCallRetentionMs: v.MOBILECLAW_TOOL_CALL_RETENTION_MS ?? DEFAULT_TOOL_CALL_RETENTION_MS,
    planningTimeoutMs: v.MOBILECLAW_PLANNING_TIMEOUT_MS ?? DEFAULT_TASK_CASE_OPTIONS.planningTimeoutMs,
    toolResultTimeoutMs: v.MOBILECLAW_TOOL_RESULT_TIMEOUT_MS ?? DEFAULT_TASK_CASE_OPTIONS.toolResultTimeoutMs,
    settleTimeoutMs: v.MOBILECLAW_SETTLE_TIMEOUT_MS ?? DEFAULT_TASK_CASE_OPTIONS.settleTimeoutMs,
    settlePollMs: v.MOBILECLAW_SETTLE_POLL_MS ?? DEFAULT_TASK_CASE_OPTIONS.settlePollMs,
    takeoverLeaseMs: v.MOBILECLAW_TAKEOVER_LEASE_MS ?? DEFAULT_DEVICE_CONTROL_OPTIONS.controlLeaseMs,
    retentionMaxTasks: v.MOBILECLAW_RETENTION_MAX_TASKS ?? DEFAULT_RETENTION_MAX_TASKS,
    retentionMaxAgeMs: v.MOBILECLAW_RETENTION_MAX_AGE_DAYS === undefined ? undefined : v.MOBILECLAW_RETENTION_MAX_AGE_DAYS * 86_400_000,
    memory: {
      embeddings:
        v.MOBILECLAW_EMBEDDINGS_BASE_URL === undefined
          ? undefined
          : { baseUrl: v.MOBILECLAW_EMBEDDINGS_BASE_URL.replace(/\/+$/, ''), ...(v.MOBILECLAW_EMBEDDINGS_API_KEY === undefined ? {} : { apiKey: v.MOBILECLAW_EMBEDDINGS_API_KEY }), model: v.MOBILECLAW_EMBEDDINGS_MODEL ?? DEFAULT_EMBEDDINGS_MODEL },
      flushThreshold: v.MOBILECLAW_MEMORY_FLUSH_THRESHOLD ?? DEFAULT_MEMORY_OPTIONS.flushThreshold,
      halfLifeDays: v.MOBILECLAW_MEMORY_HALF_LIFE_DAYS ?? DEFAULT_MEMORY_OPTIONS.halfLifeDays,
      minSemanticScore: v.MOBILECLAW_MEMORY_MIN_SEMANTIC_SCORE ?? DEFAULT_MEMORY_OPTIONS.minSemanticScore,
    },
    llm: resolveLlmPlannerOptions(env as Record<string, string | undefined>),
    mcp: {
      allowedOrigins: (v.MOBILECLAW_MCP_ALLOWED_ORIGINS ?? '')
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
      sessionIdleMs: v.MOBILECLAW_MCP_SESSION_IDLE_MS ?? 30 * 60_000,
      maxSessions: v.MOBILECLAW_MCP_MAX_SESSIONS ?? 100,
      keepAliveMs: v.MOBILECLAW_MCP_KEEP_ALIVE_MS ?? 15_000,
      imageMaxSidePx: v.MOBILECLAW_MCP_IMAGE_MAX_SIDE ?? 1568,
      imageMaxBytes: v.MOBILECLAW_MCP_IMAGE_MAX_BYTES ?? 800 * 1024,
      conformanceFixtures: ['on', 'true', '1'].includes(v.MOBILECLAW_MCP_CONFORMANCE_FIXTURES ?? 'off'),
    },
  };
}

/** The tools configuration at `path`, its problems reported like the environment's. */
/** {@link loadScopedTokens}, its problems reported as the other configuration errors are. @throws Error one line per problem. */
function scopedTokensAt(path: string, env: Record<string, unknown>, apiToken: string | undefined, cwd: string): ScopedApiToken[] {
  try {
    return loadScopedTokens(path, env as Record<string, string | undefined>, apiToken, cwd);
  } catch (err) {
    const lines = (err instanceof Error ? err.message : String(err)).split('\n');
    throw new Error(`Invalid MobileClaw configuration:\n${lines.map((line) => `  - ${line}`).join('\n')}`, { cause: err });
  }
}

function toolsConfigAt(path: string, env: Record<string, unknown>, cwd: string): ToolsConfig {
  try {
    return loadToolsConfig(path, env as Record<string, string | undefined>, cwd);
  } catch (err) {
    const lines = (err instanceof Error ? err.message : String(err)).split('\n');
    throw new Error(`Invalid MobileClaw configuration:\n${lines.map((line) => `  - ${line}`).join('\n')}`, { cause: err });
  }
}
