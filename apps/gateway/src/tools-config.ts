import { dirname, isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { TOOL_SOURCE_ID_PATTERN, toolSourceKey, type ToolSourceRef } from '@mobileclaw/domain';
import { DEFAULT_TOOL_PRECEDENCE, toolSourceRanker, type ToolPolicies, type ToolPolicy, type ToolPrecedence } from '@mobileclaw/case-tools';
import { McpServerConfigError, validateMcpServerConfig, type McpServerConfig, type McpTransportConfig } from '@mobileclaw/mcp-tool-source';
import type { A2aAgentToolSourceOptions, HttpToolCatalogSourceOptions } from '@mobileclaw/remote-tool-sources';
import { configKeyPath as keyPath, readConfigFile, readConfigText, resolveEnvReferences } from './config-file';

/** A configured source and whether the `/mcp` face lists its tools (`exposeToMcp`, default false). */
export interface ExposedSource<T> {
  options: T;
  exposeToMcp: boolean;
}

/**
 * The tool registry's configuration (`MOBILECLAW_TOOLS_CONFIG`), validated, `${ENV}` references
 * resolved, relative paths made absolute (from the file's folder). Holds secrets (tokens, header and
 * environment values): never log it.
 */
export interface ToolsConfig {
  /** Absolute path of the file it was read from. */
  file: string;
  /** Remote MCP servers (`mcp:<id>`), in configuration order. */
  mcpServers: ExposedSource<McpServerConfig>[];
  /** HTTP tool catalogs in the OpenClaw `/tools/invoke` shape (`catalog:<id>`), in configuration order. */
  catalogs: ExposedSource<HttpToolCatalogSourceOptions>[];
  /** Remote A2A agents (`agent:<id>`), in configuration order. */
  agents: ExposedSource<A2aAgentToolSourceOptions>[];
  /** SKILL.md roots searched after `<dataDir>/skills` and `MOBILECLAW_SKILLS_DIRS`, absolute, in order. */
  skillsDirs: string[];
  /** Whether `/mcp` lists the SKILL.md skills (`skills.exposeToMcp`, default false). */
  exposeSkillsToMcp: boolean;
  /** Tiers and the configuration order of the sources (`kind:id` keys, as they appear in the file). */
  precedence: ToolPrecedence;
  /** The file's `policies`: `default` becomes `defaultPolicy`, every other key a caller id. */
  policies: ToolPolicies;
}

/**
 * A tools configuration that cannot be used. The message is one line per problem, each
 * `tools config <file>: <key path>: <what is wrong>` (e.g. `tools config /x.yaml: mcpServers.erp.url: Invalid URL`).
 */
export class ToolsConfigError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly { path: string; message: string }[],
  ) {
    super(problems.map((problem) => `tools config ${file}: ${problem.path === '' ? '' : `${problem.path}: `}${problem.message}`).join('\n'));
    this.name = 'ToolsConfigError';
  }
}

const ID_MESSAGE = 'source id must be 1–32 of [A-Za-z0-9_-]';
const HTTP_URL = z.url({
  protocol: /^https?$/,
  error: (issue) => (issue.input === undefined ? 'required (an absolute http: or https: URL)' : 'Invalid URL (absolute http: or https: expected)'),
});
const STRINGS = z.array(z.string());
const STRING_MAP = z.record(z.string(), z.string());
const NAMES_OR_ALL = z.union([z.literal('*'), STRINGS], { error: "expected '*' or a list of tool names" });
const SOURCE_KEY = z.string().regex(/^(native|mcp|catalog|agent|skills):([A-Za-z0-9_-]{1,32}|\*)$/, 'expected a source key kind:id or kind:* (kind native, mcp, catalog, agent or skills)');
const PRECEDENCE_KIND = z.enum(['skills', 'agent', 'mcp', 'catalog'], { error: 'expected skills, agent, mcp or catalog (native is always first)' });
const MS = z.number().int().positive();

/** Records keyed by source id: every key matches `TOOL_SOURCE_ID_PATTERN`. */
function sourcesById<T extends z.ZodType>(entry: T) {
  return z.record(z.string(), entry).superRefine((record, ctx) => {
    for (const id of Object.keys(record)) if (!TOOL_SOURCE_ID_PATTERN.test(id)) ctx.addIssue({ code: 'custom', path: [id], message: ID_MESSAGE });
  });
}

const MCP_SERVER = z
  .strictObject({
    command: z.string().min(1).optional(),
    args: STRINGS.optional(),
    env: STRING_MAP.optional(),
    cwd: z.string().min(1).optional(),
    url: HTTP_URL.optional(),
    transport: z.enum(['streamable-http', 'sse']).optional(),
    headers: STRING_MAP.optional(),
    exposeToMcp: z.boolean().optional(),
  })
  .superRefine((server, ctx) => {
    if ((server.command === undefined) === (server.url === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: 'give either command (a stdio server) or url (an HTTP server)' });
      return;
    }
    const wrong = server.command === undefined ? (['args', 'env', 'cwd'] as const) : (['transport', 'headers'] as const);
    for (const key of wrong) {
      if (server[key] !== undefined) ctx.addIssue({ code: 'custom', path: [key], message: server.command === undefined ? 'only for a stdio server (command)' : 'only for an HTTP server (url)' });
    }
  });

const CATALOG = z.strictObject({
  catalogUrl: HTTP_URL,
  invokeUrl: HTTP_URL,
  token: z.string().optional(),
  refreshIntervalMs: z.number().int().min(0).optional(),
  timeoutMs: MS.optional(),
  exposeToMcp: z.boolean().optional(),
});

const AGENT = z.strictObject({
  url: HTTP_URL,
  token: z.string().optional(),
  deadlineMs: MS.optional(),
  refreshIntervalMs: z.number().int().min(0).optional(),
  inputSchemas: z.record(z.string(), z.looseObject({ type: z.literal('object') })).optional(),
  exposeToMcp: z.boolean().optional(),
});

const POLICY = z.strictObject({
  allow: NAMES_OR_ALL,
  allowSources: z.array(SOURCE_KEY).optional(),
  allowActionsWithoutApproval: NAMES_OR_ALL.optional(),
  allowActionSourcesWithoutApproval: z.array(SOURCE_KEY).optional(),
});

const TOOLS_FILE = z.strictObject({
  mcpServers: sourcesById(MCP_SERVER).optional(),
  catalogs: sourcesById(CATALOG).optional(),
  agents: sourcesById(AGENT).optional(),
  skills: z.strictObject({ dirs: z.array(z.string().min(1)).optional(), exposeToMcp: z.boolean().optional() }).optional(),
  precedence: z.array(z.array(PRECEDENCE_KIND).min(1)).optional(),
  policies: z.record(z.string().min(1), POLICY).optional(),
});

type ToolsFile = z.infer<typeof TOOLS_FILE>;

/** Where each section's sources go in `sourceOrder`, by the section's key in the file. */
const SOURCE_SECTIONS = { mcpServers: 'mcp', catalogs: 'catalog', agents: 'agent' } as const;

/**
 * Reads and validates the tools configuration at `path` (YAML or JSON; JSON is read as YAML 1.2, so
 * a key given twice is refused in both), resolving `${NAME}` references in tokens, header values and
 * stdio environment values from `env`. `skills.dirs` and a stdio `cwd` are relative to the file's folder.
 * Source order: the order the sources appear in the file.
 * @param path absolute, or relative to `cwd`.
 * @throws ToolsConfigError naming the file and the key path of every problem: unreadable file, YAML
 *   syntax, duplicate key, unknown key, wrong type, bad URL or id, an unset `${NAME}`, an invalid precedence.
 */
export function loadToolsConfig(path: string, env: Record<string, string | undefined>, cwd = process.cwd()): ToolsConfig {
  const read = readConfigFile(path, cwd);
  if ('problems' in read) throw new ToolsConfigError(read.file, read.problems);
  const { file, text } = read;
  return parseToolsConfig(text, file, env);
}

/**
 * {@link loadToolsConfig} on the text of a file: `file` is its absolute path (relative paths in it are
 * resolved from its folder).
 * @throws ToolsConfigError as {@link loadToolsConfig}.
 */
export function parseToolsConfig(text: string, file: string, env: Record<string, string | undefined>): ToolsConfig {
  const read = readConfigText(text);
  if ('problems' in read) throw new ToolsConfigError(file, read.problems);
  const raw = read.raw;
  const parsed = TOOLS_FILE.safeParse(raw);
  if (!parsed.success) throw new ToolsConfigError(file, parsed.error.issues.map((issue) => ({ path: keyPath(issue.path), message: issue.message })));
  const problems: { path: string; message: string }[] = [];
  const config = build(parsed.data, raw as Record<string, unknown>, file, (at, value) => resolveEnvReferences(at, value, env, problems));
  checkSources(config, problems);
  if (problems.length > 0) throw new ToolsConfigError(file, problems);
  return config;
}

/** The `byCaller` key that gives `defaultPolicy` instead of a caller's policy. */
export const DEFAULT_POLICY_KEY = 'default';

function build(data: ToolsFile, raw: Record<string, unknown>, file: string, secret: (at: string, value: string) => string): ToolsConfig {
  const folder = dirname(file);
  const fromFolder = (p: string): string => (isAbsolute(p) ? p : resolve(folder, p));
  const mcpServers = Object.entries(data.mcpServers ?? {}).map(([id, server]) => {
    const at = `mcpServers.${id}`;
    const transport: McpTransportConfig =
      server.command !== undefined
        ? {
            type: 'stdio',
            command: server.command,
            ...(server.args === undefined ? {} : { args: server.args }),
            ...(server.env === undefined ? {} : { env: mapValues(server.env, (name, value) => secret(`${at}.env.${name}`, value)) }),
            ...(server.cwd === undefined ? {} : { cwd: fromFolder(server.cwd) }),
          }
        : {
            type: server.transport === 'sse' ? 'sse' : 'http',
            url: server.url as string,
            ...(server.headers === undefined ? {} : { headers: mapValues(server.headers, (name, value) => secret(`${at}.headers.${name}`, value)) }),
          };
    return { options: { id, transport }, exposeToMcp: server.exposeToMcp ?? false };
  });
  const catalogs = Object.entries(data.catalogs ?? {}).map(([id, catalog]) => ({
    options: {
      id,
      catalogUrl: catalog.catalogUrl,
      invokeUrl: catalog.invokeUrl,
      ...(catalog.token === undefined ? {} : { token: secret(`catalogs.${id}.token`, catalog.token) }),
      ...(catalog.refreshIntervalMs === undefined ? {} : { refreshIntervalMs: catalog.refreshIntervalMs }),
      ...(catalog.timeoutMs === undefined ? {} : { catalogTimeoutMs: catalog.timeoutMs }),
    },
    exposeToMcp: catalog.exposeToMcp ?? false,
  }));
  const agents = Object.entries(data.agents ?? {}).map(([id, agent]) => ({
    options: {
      id,
      agentUrl: agent.url,
      ...(agent.token === undefined ? {} : { token: secret(`agents.${id}.token`, agent.token) }),
      ...(agent.deadlineMs === undefined ? {} : { maxDeadlineMs: agent.deadlineMs }),
      ...(agent.refreshIntervalMs === undefined ? {} : { refreshIntervalMs: agent.refreshIntervalMs }),
      ...(agent.inputSchemas === undefined ? {} : { inputSchemas: agent.inputSchemas as A2aAgentToolSourceOptions['inputSchemas'] }),
    },
    exposeToMcp: agent.exposeToMcp ?? false,
  }));
  const sourceOrder = Object.keys(raw).flatMap((section) => {
    const kind = SOURCE_SECTIONS[section as keyof typeof SOURCE_SECTIONS];
    return kind === undefined ? [] : Object.keys(data[section as keyof typeof SOURCE_SECTIONS] ?? {}).map((id) => toolSourceKey({ kind, id }));
  });
  const { [DEFAULT_POLICY_KEY]: defaultPolicy, ...byCaller } = (data.policies ?? {}) as Record<string, ToolPolicy>;
  return {
    file,
    mcpServers,
    catalogs,
    agents,
    skillsDirs: (data.skills?.dirs ?? []).map(fromFolder),
    exposeSkillsToMcp: data.skills?.exposeToMcp ?? false,
    precedence: { tiers: data.precedence ?? DEFAULT_TOOL_PRECEDENCE.tiers, sourceOrder },
    policies: { byCaller, ...(defaultPolicy === undefined ? {} : { defaultPolicy }) },
  };
}

/** What the sources' own checks refuse (MCP header names, …) and an invalid precedence, as key paths. */
function checkSources(config: ToolsConfig, problems: { path: string; message: string }[]): void {
  for (const { options } of config.mcpServers) {
    try {
      validateMcpServerConfig(options);
    } catch (err) {
      if (!(err instanceof McpServerConfigError)) throw err;
      // The source's fields are under `transport`; in the file they sit on the server itself.
      const field = err.field === 'transport.type' ? 'transport' : err.field.replace(/^transport\./, '');
      problems.push({ path: `mcpServers.${options.id}.${field}`, message: err.message.replace(`MCP server ${options.id}: `, '') });
    }
  }
  try {
    toolSourceRanker(config.precedence);
  } catch (err) {
    problems.push({ path: 'precedence', message: (err as Error).message.replace(/^tool precedence: /, '') });
  }
}

function mapValues(record: Record<string, string>, map: (key: string, value: string) => string): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(key, value)]));
}

/** The `kind:id` of every configured remote source whose tools `/mcp` lists, plus the skills source when exposed. */
export function mcpExposedSources(config: ToolsConfig, skills: ToolSourceRef): string[] {
  const keys = [
    ...config.mcpServers.filter((entry) => entry.exposeToMcp).map((entry) => toolSourceKey({ kind: 'mcp', id: entry.options.id })),
    ...config.catalogs.filter((entry) => entry.exposeToMcp).map((entry) => toolSourceKey({ kind: 'catalog', id: entry.options.id })),
    ...config.agents.filter((entry) => entry.exposeToMcp).map((entry) => toolSourceKey({ kind: 'agent', id: entry.options.id })),
  ];
  return config.exposeSkillsToMcp ? [toolSourceKey(skills), ...keys] : keys;
}
