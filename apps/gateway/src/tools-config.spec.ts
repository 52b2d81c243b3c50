import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadToolsConfig, mcpExposedSources, parseToolsConfig, ToolsConfigError } from './tools-config';

const FILE = '/etc/mobileclaw/tools.yaml';
const ENV = { ERP_TOKEN: 'erp-secret-token', PC_TOKEN: 'pc-secret-token', OPENAI_KEY: 'sk-abcdef' };

const GOOD = `
# Sources in this order: catalogs first, then MCP servers, then agents.
catalogs:
  pc:
    catalogUrl: http://127.0.0.1:18789/tools
    invokeUrl: http://127.0.0.1:18789/tools/invoke
    token: \${PC_TOKEN}
    refreshIntervalMs: 30000
    exposeToMcp: true
mcpServers:
  everything:
    command: npx
    args: [--no-install, mcp-server-everything, stdio]
    env: { OPENAI_API_KEY: "\${OPENAI_KEY}", MODE: plain }
    cwd: servers
  erp:
    url: https://erp.example/mcp
    headers: { Authorization: "Bearer \${ERP_TOKEN}" }
  legacy:
    url: http://old.example/sse
    transport: sse
agents:
  travel:
    url: https://agents.example/travel
    deadlineMs: 60000
skills:
  dirs: [skills, /opt/skills]
  exposeToMcp: true
precedence: [[skills], [mcp, catalog], [agent]]
policies:
  default: { allow: '*' }
  rest: { allow: [weather], allowSources: ['mcp:*'], allowActionSourcesWithoutApproval: ['native:*'] }
  'phone:*': { allow: [], allowSources: ['skills:*'] }
`;

/** The message of the ToolsConfigError `text` raises. */
function problem(text: string, env: Record<string, string | undefined> = ENV): string {
  try {
    parseToolsConfig(text, FILE, env);
  } catch (err) {
    expect(err).toBeInstanceOf(ToolsConfigError);
    return (err as Error).message;
  }
  throw new Error('the config was accepted');
}

describe('parseToolsConfig', () => {
  it('reads every section: sources with secrets resolved, paths from the file’s folder, configuration order, policies', () => {
    const config = parseToolsConfig(GOOD, FILE, ENV);
    expect(config.file).toBe(FILE);
    expect(config.mcpServers).toEqual([
      {
        options: {
          id: 'everything',
          transport: { type: 'stdio', command: 'npx', args: ['--no-install', 'mcp-server-everything', 'stdio'], env: { OPENAI_API_KEY: 'sk-abcdef', MODE: 'plain' }, cwd: '/etc/mobileclaw/servers' },
        },
        exposeToMcp: false,
      },
      { options: { id: 'erp', transport: { type: 'http', url: 'https://erp.example/mcp', headers: { Authorization: 'Bearer erp-secret-token' } } }, exposeToMcp: false },
      { options: { id: 'legacy', transport: { type: 'sse', url: 'http://old.example/sse' } }, exposeToMcp: false },
    ]);
    expect(config.catalogs).toEqual([
      {
        options: { id: 'pc', catalogUrl: 'http://127.0.0.1:18789/tools', invokeUrl: 'http://127.0.0.1:18789/tools/invoke', token: 'pc-secret-token', refreshIntervalMs: 30000 },
        exposeToMcp: true,
      },
    ]);
    expect(config.agents).toEqual([{ options: { id: 'travel', agentUrl: 'https://agents.example/travel', maxDeadlineMs: 60000 }, exposeToMcp: false }]);
    expect(config.skillsDirs).toEqual(['/etc/mobileclaw/skills', '/opt/skills']);
    expect(config.precedence).toEqual({ tiers: [['skills'], ['mcp', 'catalog'], ['agent']], sourceOrder: ['catalog:pc', 'mcp:everything', 'mcp:erp', 'mcp:legacy', 'agent:travel'] });
    expect(config.policies).toEqual({
      defaultPolicy: { allow: '*' },
      byCaller: { rest: { allow: ['weather'], allowSources: ['mcp:*'], allowActionSourcesWithoutApproval: ['native:*'] }, 'phone:*': { allow: [], allowSources: ['skills:*'] } },
    });
    expect(mcpExposedSources(config, { kind: 'skills', id: 'workspace' })).toEqual(['skills:workspace', 'catalog:pc']);
  });

  it('takes JSON and an empty file; without precedence the default tiers apply', () => {
    const json = parseToolsConfig(JSON.stringify({ mcpServers: { a: { url: 'http://127.0.0.1:9/mcp' } } }), FILE, {});
    expect(json.precedence).toEqual({ tiers: [['skills'], ['agent'], ['mcp', 'catalog']], sourceOrder: ['mcp:a'] });
    expect(json.policies).toEqual({ byCaller: {} });
    const empty = parseToolsConfig('', FILE, {});
    expect(empty).toMatchObject({ mcpServers: [], catalogs: [], agents: [], skillsDirs: [], exposeSkillsToMcp: false, precedence: { sourceOrder: [] } });
  });

  it.each([
    ['mcpServers:\n  erp:\n    url: not a url\n', 'mcpServers.erp.url: Invalid URL (absolute http: or https: expected)'],
    ['mcpServers:\n  erp:\n    url: ftp://erp.example/mcp\n', 'mcpServers.erp.url: Invalid URL (absolute http: or https: expected)'],
    ['mcpServers:\n  erp:\n    url: http://erp.example/mcp\n    transport: websocket\n', 'mcpServers.erp.transport: Invalid option: expected one of "streamable-http"|"sse"'],
    ['mcpServers:\n  erp:\n    url: https://user:pw@erp.example/mcp\n', 'mcpServers.erp.url: transport.url must not carry credentials; put them in transport.headers'],
    ['mcpServers:\n  erp:\n    url: https://erp.example/mcp\n    headers: { "Bad Name": x }\n', 'mcpServers.erp.headers: header name "Bad Name" is not a valid HTTP header name'],
    ['mcpServers:\n  erp: {}\n', 'mcpServers.erp: give either command (a stdio server) or url (an HTTP server)'],
    ['mcpServers:\n  erp:\n    command: node\n    url: http://x.example/mcp\n', 'mcpServers.erp: give either command (a stdio server) or url (an HTTP server)'],
    ['mcpServers:\n  erp:\n    command: node\n    headers: { a: b }\n', 'mcpServers.erp.headers: only for an HTTP server (url)'],
    ['mcpServers:\n  erp:\n    url: http://x.example/mcp\n    args: [a]\n', 'mcpServers.erp.args: only for a stdio server (command)'],
    ['mcpServers:\n  erp:\n    command: node\n    args: [1]\n', 'mcpServers.erp.args[0]: Invalid input: expected string, received number'],
    ['mcpServers:\n  erp:\n    command: node\n    exposeToMCP: true\n', 'mcpServers.erp: Unrecognized key: "exposeToMCP"'],
    ['mcpServers:\n  "bad id":\n    command: node\n', 'mcpServers.bad id: source id must be 1–32 of [A-Za-z0-9_-]'],
    ['catalogs:\n  pc:\n    catalogUrl: http://127.0.0.1/tools\n', 'catalogs.pc.invokeUrl: required (an absolute http: or https: URL)'],
    ['agents:\n  travel:\n    url: https://a.example\n    deadlineMs: -1\n', 'agents.travel.deadlineMs: Too small: expected number to be >0'],
    ['skills:\n  dirs: skills\n', 'skills.dirs: Invalid input: expected array, received string'],
    ['precedence: [[native], [skills]]\n', 'precedence[0][0]: expected skills, agent, mcp or catalog (native is always first)'],
    ['precedence: [[skills], [skills, mcp]]\n', 'precedence: source kind skills appears twice'],
    ['policies:\n  rest: { allow: weather }\n', "policies.rest.allow: expected '*' or a list of tool names"],
    ['policies:\n  rest: { allow: [], allowSources: [erp] }\n', 'policies.rest.allowSources[0]: expected a source key kind:id or kind:* (kind native, mcp, catalog, agent or skills)'],
    ['tools: {}\n', 'Unrecognized key: "tools"'],
    ['[1, 2]\n', 'Invalid input: expected object, received array'],
  ])('refuses %j naming the key path', (text, message) => {
    expect(problem(text)).toBe(`tools config ${FILE}: ${message}`);
  });

  it('refuses a source id given twice in one section, in YAML and in JSON, naming it', () => {
    expect(problem('mcpServers:\n  erp:\n    command: a\n  erp:\n    command: b\n')).toBe(`tools config ${FILE}: mcpServers.erp: given twice`);
    expect(problem('{"catalogs": {"pc": {}, "pc": {}}}')).toBe(`tools config ${FILE}: catalogs.pc: given twice`);
    // One id in two kinds is two sources (mcp:erp and catalog:erp).
    expect(parseToolsConfig('mcpServers: { erp: { command: a } }\ncatalogs: { erp: { catalogUrl: "http://h/t", invokeUrl: "http://h/i" } }\n', FILE, {}).precedence.sourceOrder).toEqual(['mcp:erp', 'catalog:erp']);
  });

  it('names every unset ${VAR} with its key path, never a value', () => {
    const text = 'mcpServers:\n  erp:\n    url: https://erp.example/mcp\n    headers: { Authorization: "Bearer ${ERP_TOKEN}" }\ncatalogs:\n  pc:\n    catalogUrl: http://h/t\n    invokeUrl: http://h/i\n    token: ${PC_TOKEN}\n';
    expect(problem(text, { PC_TOKEN: 'x' })).toBe(`tools config ${FILE}: mcpServers.erp.headers.Authorization: environment variable ERP_TOKEN is not set`);
    expect(problem(text, {}).split('\n')).toEqual([
      `tools config ${FILE}: mcpServers.erp.headers.Authorization: environment variable ERP_TOKEN is not set`,
      `tools config ${FILE}: catalogs.pc.token: environment variable PC_TOKEN is not set`,
    ]);
  });

  it('leaves ${…} alone outside secrets (URLs, arguments)', () => {
    const config = parseToolsConfig('mcpServers:\n  a:\n    command: node\n    args: ["${HOME}"]\n', FILE, {});
    expect(config.mcpServers[0].options.transport).toEqual({ type: 'stdio', command: 'node', args: ['${HOME}'] });
  });

  it('refuses YAML it cannot parse, saying where', () => {
    expect(problem('mcpServers:\n  erp: [unclosed\n')).toMatch(new RegExp(`^tools config ${FILE}: not valid YAML or JSON: `));
  });
});

describe('loadToolsConfig', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mobileclaw-tools-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a file relative to cwd; its relative paths are from its own folder', () => {
    writeFileSync(join(dir, 'tools.yaml'), 'skills:\n  dirs: [my-skills]\n');
    expect(loadToolsConfig('tools.yaml', {}, dir)).toMatchObject({ file: join(dir, 'tools.yaml'), skillsDirs: [join(dir, 'my-skills')] });
  });

  it('names a file that cannot be read', () => {
    expect(() => loadToolsConfig(join(dir, 'missing.yaml'), {})).toThrow(new ToolsConfigError(join(dir, 'missing.yaml'), [{ path: '', message: 'cannot be read (ENOENT)' }]).message);
  });
});
