import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_TASK_CASE_OPTIONS } from '@mobileclaw/case-tasks';
import { CLUSTER_TASK_LEASE_MS, loadGatewayConfig, validateGatewayEnvironment } from './gateway-config';

/** The message `validateGatewayEnvironment` throws for `env`, or '' when it accepts it. */
function errorOf(env: Record<string, unknown>): string {
  try {
    validateGatewayEnvironment(env);
    return '';
  } catch (err) {
    return (err as Error).message;
  }
}

describe('gateway configuration of planning deadlines', () => {
  const llm = { MOBILECLAW_LLM_BASE_URL: 'http://127.0.0.1:8000/v1', MOBILECLAW_LLM_MODEL: 'qwen-vl-max' };

  it('reads MOBILECLAW_PLANNING_TIMEOUT_MS, MOBILECLAW_LLM_TIMEOUT_MS and MOBILECLAW_LLM_MAX_RETRIES', () => {
    const config = loadGatewayConfig(
      validateGatewayEnvironment({ ...llm, MOBILECLAW_PLANNING_TIMEOUT_MS: '90000', MOBILECLAW_LLM_TIMEOUT_MS: '20000', MOBILECLAW_LLM_MAX_RETRIES: '1' }),
      '/srv',
    );
    expect(config.planningTimeoutMs).toBe(90_000);
    expect(config.llm).toMatchObject({ timeoutMs: 20_000, maxRetries: 1 });
  });

  it('defaults the planning deadline to 5 minutes and leaves the LLM request settings to the planner', () => {
    const config = loadGatewayConfig(validateGatewayEnvironment({ ...llm, MOBILECLAW_PLANNING_TIMEOUT_MS: '' }), '/srv');
    expect(config.planningTimeoutMs).toBe(300_000);
    expect(config.llm).toEqual({ baseUrl: llm.MOBILECLAW_LLM_BASE_URL, model: 'qwen-vl-max', vision: false });
  });

  it('refuses out-of-range values, naming the variable', () => {
    for (const value of ['999', '3600001', 'soon']) {
      expect(() => validateGatewayEnvironment({ MOBILECLAW_PLANNING_TIMEOUT_MS: value })).toThrow(/MOBILECLAW_PLANNING_TIMEOUT_MS/);
    }
    expect(() => validateGatewayEnvironment({ ...llm, MOBILECLAW_LLM_TIMEOUT_MS: '500' })).toThrow(
      'Invalid MobileClaw configuration:\n  - MOBILECLAW_LLM_TIMEOUT_MS must be an integer from 1000 to 600000 (ms), got "500"',
    );
    expect(() => validateGatewayEnvironment({ ...llm, MOBILECLAW_LLM_MAX_RETRIES: '11' })).toThrow(
      'Invalid MobileClaw configuration:\n  - MOBILECLAW_LLM_MAX_RETRIES must be an integer from 0 to 10, got "11"',
    );
  });
});

describe('gateway configuration of the settle wait', () => {
  it('reads MOBILECLAW_TAKEOVER_LEASE_MS (default 30 s) and refuses a lease too short to renew', () => {
    expect(loadGatewayConfig(validateGatewayEnvironment({}), '/srv').takeoverLeaseMs).toBe(30_000);
    expect(loadGatewayConfig(validateGatewayEnvironment({ MOBILECLAW_TAKEOVER_LEASE_MS: '60000' }), '/srv').takeoverLeaseMs).toBe(60_000);
    expect(() => validateGatewayEnvironment({ MOBILECLAW_TAKEOVER_LEASE_MS: '500' })).toThrow('MOBILECLAW_TAKEOVER_LEASE_MS must not be less than 3000');
  });

  it('reads MOBILECLAW_SETTLE_TIMEOUT_MS and MOBILECLAW_SETTLE_POLL_MS; 0 turns settling off', () => {
    expect(loadGatewayConfig(validateGatewayEnvironment({ MOBILECLAW_SETTLE_TIMEOUT_MS: '1500', MOBILECLAW_SETTLE_POLL_MS: '100' }), '/srv')).toMatchObject({ settleTimeoutMs: 1500, settlePollMs: 100 });
    expect(loadGatewayConfig(validateGatewayEnvironment({ MOBILECLAW_SETTLE_TIMEOUT_MS: '0' }), '/srv')).toMatchObject({ settleTimeoutMs: 0, settlePollMs: 200 });
  });

  it('defaults to a wait of at most 2 s with a read every 200 ms', () => {
    expect(loadGatewayConfig(validateGatewayEnvironment({ MOBILECLAW_SETTLE_TIMEOUT_MS: '', MOBILECLAW_SETTLE_POLL_MS: '' }), '/srv')).toMatchObject({ settleTimeoutMs: 2000, settlePollMs: 200 });
  });

  it('refuses out-of-range values, naming the variable', () => {
    for (const value of ['-1', '30001', '1.5', 'soon']) {
      expect(() => validateGatewayEnvironment({ MOBILECLAW_SETTLE_TIMEOUT_MS: value })).toThrow(/MOBILECLAW_SETTLE_TIMEOUT_MS/);
    }
    for (const value of ['0', '9', '5001']) {
      expect(() => validateGatewayEnvironment({ MOBILECLAW_SETTLE_POLL_MS: value })).toThrow(/MOBILECLAW_SETTLE_POLL_MS/);
    }
    expect(() => validateGatewayEnvironment({ MOBILECLAW_SETTLE_POLL_MS: '0' })).toThrow('Invalid MobileClaw configuration:\n  - MOBILECLAW_SETTLE_POLL_MS: MOBILECLAW_SETTLE_POLL_MS must not be less than 10');
  });
});

describe('gateway configuration of the MCP conformance fixtures', () => {
  it('leaves them off unless MOBILECLAW_MCP_CONFORMANCE_FIXTURES is on', () => {
    expect(loadGatewayConfig(validateGatewayEnvironment({}), '/srv').mcp.conformanceFixtures).toBe(false);
    expect(loadGatewayConfig(validateGatewayEnvironment({ MOBILECLAW_MCP_CONFORMANCE_FIXTURES: '' }), '/srv').mcp.conformanceFixtures).toBe(false);
    expect(loadGatewayConfig(validateGatewayEnvironment({ MOBILECLAW_MCP_CONFORMANCE_FIXTURES: 'off' }), '/srv').mcp.conformanceFixtures).toBe(false);
    expect(loadGatewayConfig(validateGatewayEnvironment({ MOBILECLAW_MCP_CONFORMANCE_FIXTURES: 'on' }), '/srv').mcp.conformanceFixtures).toBe(true);
  });

  it('refuses any other value, naming the variable', () => {
    expect(() => validateGatewayEnvironment({ MOBILECLAW_MCP_CONFORMANCE_FIXTURES: 'yes' })).toThrow(/MOBILECLAW_MCP_CONFORMANCE_FIXTURES/);
  });
});

describe('gateway configuration of the ADB bridge', () => {
  it('is off by default; auto follows MOBILECLAW_ADB_SERVER, else ADB_SERVER_SOCKET, else 127.0.0.1:5037', () => {
    expect(loadGatewayConfig(validateGatewayEnvironment({ ADB_SERVER_SOCKET: 'localfilesystem:/x' }), '/srv').adb).toBeUndefined();
    expect(loadGatewayConfig(validateGatewayEnvironment({ MOBILECLAW_ADB: 'auto' }), '/srv').adb).toEqual({ server: { host: '127.0.0.1', port: 5037 } });
    expect(loadGatewayConfig(validateGatewayEnvironment({ MOBILECLAW_ADB: 'auto', ADB_SERVER_SOCKET: 'tcp:10.0.0.2:5038' }), '/srv').adb).toEqual({ server: { host: '10.0.0.2', port: 5038 } });
    expect(loadGatewayConfig(validateGatewayEnvironment({ MOBILECLAW_ADB: 'auto', ADB_SERVER_SOCKET: 'tcp:5038', MOBILECLAW_ADB_SERVER: '[::1]:15037' }), '/srv').adb).toEqual({
      server: { host: '::1', port: 15037 },
    });
    expect(loadGatewayConfig(validateGatewayEnvironment({ MOBILECLAW_ADB: 'auto', MOBILECLAW_ADB_SERVER: ':15037' }), '/srv').adb).toEqual({ server: { host: '127.0.0.1', port: 15037 } });
  });

  it('refuses other values, naming the variable', () => {
    expect(() => validateGatewayEnvironment({ MOBILECLAW_ADB: 'on' })).toThrow(/MOBILECLAW_ADB must be one of the following values: auto, off/);
    expect(() => validateGatewayEnvironment({ MOBILECLAW_ADB_SERVER: '5037' })).toThrow('Invalid MobileClaw configuration:\n  - MOBILECLAW_ADB_SERVER must be host:port (port 1-65535), got "5037"');
    expect(() => validateGatewayEnvironment({ MOBILECLAW_ADB: 'auto', MOBILECLAW_ADB_SERVER: 'h:70000' })).toThrow(/MOBILECLAW_ADB_SERVER must be host:port/);
    expect(() => validateGatewayEnvironment({ MOBILECLAW_ADB: 'auto', ADB_SERVER_SOCKET: 'localfilesystem:/x' })).toThrow(/ADB_SERVER_SOCKET must be tcp:<port> or tcp:<host>:<port>/);
  });
});

describe('gateway configuration of operability (logs, metrics, listener retry, shutdown)', () => {
  const load = (env: Record<string, string>, tty: boolean) => loadGatewayConfig(validateGatewayEnvironment(env), '/srv', tty);

  it('logs JSON lines, pretty ones on a terminal, unless MOBILECLAW_LOG_FORMAT says', () => {
    expect(load({}, false).logFormat).toBe('json');
    expect(load({}, true).logFormat).toBe('pretty');
    expect(load({ MOBILECLAW_LOG_FORMAT: 'pretty' }, false).logFormat).toBe('pretty');
    expect(load({ MOBILECLAW_LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
    expect(() => validateGatewayEnvironment({ MOBILECLAW_LOG_FORMAT: 'text' })).toThrow('Invalid MobileClaw configuration:\n  - MOBILECLAW_LOG_FORMAT: MOBILECLAW_LOG_FORMAT must be one of the following values: json, pretty');
  });

  it('defaults: no device labels on metrics, a taken device port tried every 5 s, 10 s to shut down', () => {
    expect(load({}, false)).toMatchObject({ metricsDeviceLabels: false, deviceListenRetryMs: 5000, shutdownTimeoutMs: 10_000 });
    expect(load({ MOBILECLAW_METRICS_DEVICE_LABELS: 'on', MOBILECLAW_DEVICE_LISTEN_RETRY_MS: '250', MOBILECLAW_SHUTDOWN_TIMEOUT_MS: '30000' }, false)).toMatchObject({
      metricsDeviceLabels: true,
      deviceListenRetryMs: 250,
      shutdownTimeoutMs: 30_000,
    });
    expect(() => validateGatewayEnvironment({ MOBILECLAW_SHUTDOWN_TIMEOUT_MS: '50' })).toThrow('MOBILECLAW_SHUTDOWN_TIMEOUT_MS must not be less than 100');
    expect(() => validateGatewayEnvironment({ MOBILECLAW_METRICS_DEVICE_LABELS: 'yes' })).toThrow(/MOBILECLAW_METRICS_DEVICE_LABELS/);
  });
});

describe('gateway configuration of phones over WebSocket', () => {
  it('serves /ws/device unless MOBILECLAW_DEVICE_WS is off', () => {
    const deviceWs = (value?: string) => loadGatewayConfig(validateGatewayEnvironment(value === undefined ? {} : { MOBILECLAW_DEVICE_WS: value }), '/srv').deviceWs;
    expect([undefined, '', 'on', 'true', '1'].map(deviceWs)).toEqual([true, true, true, true, true]);
    expect(['off', 'false', '0'].map(deviceWs)).toEqual([false, false, false]);
  });

  it('refuses any other value, naming the variable', () => {
    expect(() => validateGatewayEnvironment({ MOBILECLAW_DEVICE_WS: 'maybe' })).toThrow(
      'Invalid MobileClaw configuration:\n  - MOBILECLAW_DEVICE_WS: MOBILECLAW_DEVICE_WS must be one of the following values: on, off, true, false, 1, 0',
    );
  });
});

describe('gateway configuration of the hosts served without an API token', () => {
  it('reads MOBILECLAW_ALLOWED_HOSTS, comma-separated (none by default)', () => {
    const allowedHosts = (value?: string) => loadGatewayConfig(validateGatewayEnvironment(value === undefined ? {} : { MOBILECLAW_ALLOWED_HOSTS: value }), '/srv').allowedHosts;
    expect(allowedHosts()).toEqual([]);
    expect(allowedHosts('')).toEqual([]);
    expect(allowedHosts(' phone-gw.lan, 192.168.1.5 ,[fd00::7],')).toEqual(['phone-gw.lan', '192.168.1.5', '[fd00::7]']);
  });

  it('refuses an entry that is not a host name, naming the variable', () => {
    expect(() => validateGatewayEnvironment({ MOBILECLAW_ALLOWED_HOSTS: 'ok.lan, http://gw.lan/' })).toThrow(
      'Invalid MobileClaw configuration:\n  - MOBILECLAW_ALLOWED_HOSTS: "http://gw.lan/" is not a host name (no scheme or path; IPv6 in brackets)',
    );
    expect(() => validateGatewayEnvironment({ MOBILECLAW_ALLOWED_HOSTS: 'fd00::7' })).toThrow('MOBILECLAW_ALLOWED_HOSTS: "fd00::7" is not a host name');
  });

  it('refuses a device token longer than the pairing QR code can hold', () => {
    expect(() => validateGatewayEnvironment({ MOBILECLAW_DEVICE_TOKEN: 'x'.repeat(513) })).toThrow('MOBILECLAW_DEVICE_TOKEN must be at most 512 characters (the pairing QR code holds it)');
    expect(() => validateGatewayEnvironment({ MOBILECLAW_DEVICE_TOKEN: 'x'.repeat(512) })).not.toThrow();
  });
});

describe('gateway configuration of the API token', () => {
  /** The start-up error for `token`, or undefined when it is accepted. */
  const refusal = (token: string): string | undefined => {
    try {
      validateGatewayEnvironment({ MOBILECLAW_API_TOKEN: token });
      return undefined;
    } catch (err) {
      return (err as Error).message;
    }
  };

  it('accepts any visible ASCII token of at least 16 characters', () => {
    expect(refusal('api-token-0123456789')).toBeUndefined();
    expect(refusal('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')).toBeUndefined();
  });

  it('refuses a token an Authorization header cannot carry, without quoting it', () => {
    const spaces = 'Invalid MobileClaw configuration:\n  - MOBILECLAW_API_TOKEN: MOBILECLAW_API_TOKEN must be visible ASCII characters without spaces (as an Authorization header carries it)';
    for (const token of ['api-token-0123456789 ', ' api-token-0123456789', 'api token 0123456789', 'api-token-0123456789\t', 'api-token-0123456789é', 'api-token-01234567\u200b89']) {
      expect(refusal(token)).toBe(spaces);
    }
  });

  it('refuses a short token, naming both problems of a short token with a space', () => {
    expect(refusal('short-token')).toBe('Invalid MobileClaw configuration:\n  - MOBILECLAW_API_TOKEN: MOBILECLAW_API_TOKEN must be at least 16 characters');
    expect(refusal('short token')?.split('\n')).toEqual([
      'Invalid MobileClaw configuration:',
      '  - MOBILECLAW_API_TOKEN: MOBILECLAW_API_TOKEN must be visible ASCII characters without spaces (as an Authorization header carries it)',
      '  - MOBILECLAW_API_TOKEN: MOBILECLAW_API_TOKEN must be at least 16 characters',
    ]);
  });
});

describe('gateway configuration of the tool-result deadline', () => {
  it('reads MOBILECLAW_TOOL_RESULT_TIMEOUT_MS, 5 minutes by default, and refuses values out of range', () => {
    expect(loadGatewayConfig(validateGatewayEnvironment({ MOBILECLAW_TOOL_RESULT_TIMEOUT_MS: '1500' }), '/srv').toolResultTimeoutMs).toBe(1500);
    expect(loadGatewayConfig(validateGatewayEnvironment({}), '/srv').toolResultTimeoutMs).toBe(300_000);
    for (const value of ['99', '86400001', 'later']) {
      expect(() => validateGatewayEnvironment({ MOBILECLAW_TOOL_RESULT_TIMEOUT_MS: value })).toThrow(/MOBILECLAW_TOOL_RESULT_TIMEOUT_MS/);
    }
  });
});

describe('gateway configuration of skills folders', () => {
  it('reads MOBILECLAW_SKILLS_DIRS as path-delimited folders in order, relative ones from the working directory', () => {
    const { delimiter } = jest.requireActual<typeof import('node:path')>('node:path');
    const config = loadGatewayConfig(validateGatewayEnvironment({ MOBILECLAW_SKILLS_DIRS: ['/opt/skills', ' team/skills ', ''].join(delimiter) }), '/srv');
    expect(config.skillsDirs).toEqual(['/opt/skills', '/srv/team/skills']);
    expect(loadGatewayConfig(validateGatewayEnvironment({}), '/srv').skillsDirs).toEqual([]);
  });
});

describe('gateway configuration of the tool registry', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mobileclaw-gateway-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('has no tools config by default and keeps tool call records 7 days', () => {
    const config = loadGatewayConfig(validateGatewayEnvironment({}), dir);
    expect(config.tools).toBeUndefined();
    expect(config.toolCallRetentionMs).toBe(604_800_000);
  });

  it('reads MOBILECLAW_TOOLS_CONFIG once, relative to the working directory, with ${VAR}s from the environment', () => {
    writeFileSync(join(dir, 'tools.yaml'), 'catalogs:\n  pc:\n    catalogUrl: http://127.0.0.1:9/tools\n    invokeUrl: http://127.0.0.1:9/tools/invoke\n    token: ${PC_TOKEN}\n');
    const env = validateGatewayEnvironment({ MOBILECLAW_TOOLS_CONFIG: 'tools.yaml', PC_TOKEN: 'pc-token-1', MOBILECLAW_TOOL_CALL_RETENTION_MS: '86400000' });
    const config = loadGatewayConfig(env, dir);
    expect(config.tools).toMatchObject({ file: join(dir, 'tools.yaml'), catalogs: [{ options: { id: 'pc', token: 'pc-token-1' }, exposeToMcp: false }] });
    expect(config.toolCallRetentionMs).toBe(86_400_000);
  });

  it('refuses a bad tools config at start-up, naming the file and the key path', () => {
    writeFileSync(join(dir, 'tools.yaml'), 'mcpServers:\n  erp:\n    url: nope\n');
    expect(() => loadGatewayConfig(validateGatewayEnvironment({ MOBILECLAW_TOOLS_CONFIG: join(dir, 'tools.yaml') }), dir)).toThrow(
      `Invalid MobileClaw configuration:\n  - tools config ${join(dir, 'tools.yaml')}: mcpServers.erp.url: Invalid URL (absolute http: or https: expected)`,
    );
    expect(() => loadGatewayConfig(validateGatewayEnvironment({ MOBILECLAW_TOOLS_CONFIG: 'absent.yaml' }), dir)).toThrow(`tools config ${join(dir, 'absent.yaml')}: cannot be read (ENOENT)`);
  });

  it('refuses a retention under a minute, naming the variable', () => {
    expect(() => validateGatewayEnvironment({ MOBILECLAW_TOOL_CALL_RETENTION_MS: '1000' })).toThrow(/MOBILECLAW_TOOL_CALL_RETENTION_MS/);
  });
});

describe('gateway configuration of the memory', () => {
  it('defaults to lexical search, a flush every 50 turns, a 30-day half-life and a minimum semantic score of 0.35', () => {
    expect(loadGatewayConfig(validateGatewayEnvironment({}), '/srv').memory).toEqual({ embeddings: undefined, flushThreshold: 50, halfLifeDays: 30, minSemanticScore: 0.35 });
  });

  it('reads the embeddings endpoint (model text-embedding-3-small unless set) and the memory settings', () => {
    const config = loadGatewayConfig(
      validateGatewayEnvironment({
        MOBILECLAW_EMBEDDINGS_BASE_URL: 'http://127.0.0.1:8081/v1/',
        MOBILECLAW_EMBEDDINGS_API_KEY: 'sk-embeddings-secret',
        MOBILECLAW_MEMORY_FLUSH_THRESHOLD: '20',
        MOBILECLAW_MEMORY_HALF_LIFE_DAYS: '7.5',
        MOBILECLAW_MEMORY_MIN_SEMANTIC_SCORE: '0.5',
      }),
      '/srv',
    );
    expect(config.memory).toEqual({
      embeddings: { baseUrl: 'http://127.0.0.1:8081/v1', apiKey: 'sk-embeddings-secret', model: 'text-embedding-3-small' },
      flushThreshold: 20,
      halfLifeDays: 7.5,
      minSemanticScore: 0.5,
    });
    expect(loadGatewayConfig(validateGatewayEnvironment({ MOBILECLAW_EMBEDDINGS_BASE_URL: 'https://api.example.org/v1', MOBILECLAW_EMBEDDINGS_MODEL: 'bge-m3' }), '/srv').memory.embeddings).toEqual({
      baseUrl: 'https://api.example.org/v1',
      model: 'bge-m3',
    });
  });

  it.each([
    ['MOBILECLAW_EMBEDDINGS_BASE_URL', 'not a url', 'MOBILECLAW_EMBEDDINGS_BASE_URL must be an http(s) URL'],
    ['MOBILECLAW_EMBEDDINGS_BASE_URL', 'ftp://host/v1', 'MOBILECLAW_EMBEDDINGS_BASE_URL must be an http(s) URL'],
    ['MOBILECLAW_MEMORY_FLUSH_THRESHOLD', '1', 'MOBILECLAW_MEMORY_FLUSH_THRESHOLD must not be less than 2'],
    ['MOBILECLAW_MEMORY_FLUSH_THRESHOLD', '2.5', 'MOBILECLAW_MEMORY_FLUSH_THRESHOLD must be an integer number'],
    ['MOBILECLAW_MEMORY_HALF_LIFE_DAYS', '0', 'MOBILECLAW_MEMORY_HALF_LIFE_DAYS must not be less than 0.01'],
    ['MOBILECLAW_MEMORY_HALF_LIFE_DAYS', 'month', 'MOBILECLAW_MEMORY_HALF_LIFE_DAYS must be a number'],
    ['MOBILECLAW_MEMORY_MIN_SEMANTIC_SCORE', '1.5', 'MOBILECLAW_MEMORY_MIN_SEMANTIC_SCORE must not be greater than 1'],
    ['MOBILECLAW_MEMORY_MIN_SEMANTIC_SCORE', '-0.1', 'MOBILECLAW_MEMORY_MIN_SEMANTIC_SCORE must not be less than 0'],
  ])('refuses %s=%j, naming the variable', (name, value, message) => {
    expect(() => validateGatewayEnvironment({ [name]: value })).toThrow(message);
  });

  it('refuses an API key or model without an endpoint, and never shows the key', () => {
    let thrown: unknown;
    try {
      validateGatewayEnvironment({ MOBILECLAW_EMBEDDINGS_API_KEY: 'sk-embeddings-secret' });
    } catch (err) {
      thrown = err;
    }
    expect((thrown as Error).message).toBe(
      'Invalid MobileClaw configuration:\n  - MOBILECLAW_EMBEDDINGS_API_KEY is set but MOBILECLAW_EMBEDDINGS_BASE_URL is not: set the endpoint too (or neither)',
    );
    expect(() => validateGatewayEnvironment({ MOBILECLAW_EMBEDDINGS_MODEL: 'bge-m3' })).toThrow('MOBILECLAW_EMBEDDINGS_MODEL is set but MOBILECLAW_EMBEDDINGS_BASE_URL is not');
    // A bad endpoint beside a key: the message names the endpoint, not the key's value.
    expect(() => validateGatewayEnvironment({ MOBILECLAW_EMBEDDINGS_BASE_URL: 'nope', MOBILECLAW_EMBEDDINGS_API_KEY: 'sk-embeddings-secret' })).toThrow(/^(?![\s\S]*sk-embeddings-secret)[\s\S]*MOBILECLAW_EMBEDDINGS_BASE_URL/);
  });
});

describe('gateway configuration of the task database', () => {
  it('keeps tasks in SQLite in the data directory unless MOBILECLAW_DATABASE_URL names a PostgreSQL database', () => {
    expect(loadGatewayConfig(validateGatewayEnvironment({}), '/srv').databaseUrl).toBeUndefined();
    for (const url of ['postgres://mobileclaw:secret@db.internal:5432/mobileclaw', 'postgresql://127.0.0.1/tasks?sslmode=require']) {
      expect(loadGatewayConfig(validateGatewayEnvironment({ MOBILECLAW_DATABASE_URL: url }), '/srv').databaseUrl).toBe(url);
    }
  });

  it('refuses a URL that is not postgres:// with a host at start, never showing its value (it may hold a password)', () => {
    for (const url of ['mysql://root:hunter2-secret@db/x', 'postgres:///tasks', 'hunter2-secret']) {
      let message = '';
      try {
        validateGatewayEnvironment({ MOBILECLAW_DATABASE_URL: url });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toBe(
        'Invalid MobileClaw configuration:\n  - MOBILECLAW_DATABASE_URL must be a postgres:// or postgresql:// URL with a host, e.g. postgres://mobileclaw:secret@db.internal:5432/mobileclaw',
      );
    }
  });
});

describe('gateway configuration of several instances', () => {

  it('runs as the single instance `local` with the task workflow’s lease unless NATS or PostgreSQL is configured', () => {
    const config = loadGatewayConfig(validateGatewayEnvironment({}), '/srv');
    expect(config).toMatchObject({ natsUrl: undefined, instanceId: 'local', taskLeaseMs: DEFAULT_TASK_CASE_OPTIONS.leaseMs });
  });

  it('gives a shared instance a stable id from the host name and the data directory, distinct per data directory, and a 30 s lease', () => {
    const nats = { MOBILECLAW_NATS_URL: 'nats://127.0.0.1:4222' };
    const a = loadGatewayConfig(validateGatewayEnvironment({ ...nats, MOBILECLAW_DATA_DIR: 'gw-a' }), '/srv');
    const again = loadGatewayConfig(validateGatewayEnvironment({ ...nats, MOBILECLAW_DATA_DIR: '/srv/gw-a' }), '/elsewhere');
    const b = loadGatewayConfig(validateGatewayEnvironment({ ...nats, MOBILECLAW_DATA_DIR: 'gw-b' }), '/srv');
    const host = hostname().replace(/[^A-Za-z0-9._-]/g, '-');
    expect(a.instanceId).toBe(`${host}-${createHash('sha256').update('/srv/gw-a').digest('hex').slice(0, 8)}`);
    expect(again.instanceId).toBe(a.instanceId);
    expect(b.instanceId).not.toBe(a.instanceId);
    expect(a).toMatchObject({ natsUrl: 'nats://127.0.0.1:4222', taskLeaseMs: CLUSTER_TASK_LEASE_MS });
    expect(CLUSTER_TASK_LEASE_MS).toBe(30_000);
    const pg = loadGatewayConfig(validateGatewayEnvironment({ MOBILECLAW_DATABASE_URL: 'postgres://db.internal/mc', MOBILECLAW_DATA_DIR: 'gw-a' }), '/srv');
    expect(pg.instanceId).toBe(a.instanceId);
  });

  it('takes MOBILECLAW_INSTANCE_ID and MOBILECLAW_TASK_LEASE_MS as given', () => {
    const config = loadGatewayConfig(
      validateGatewayEnvironment({ MOBILECLAW_NATS_URL: 'nats-1:4222,nats://nats-2:4222', MOBILECLAW_INSTANCE_ID: 'gw-eu.1', MOBILECLAW_TASK_LEASE_MS: '5000' }),
      '/srv',
    );
    expect(config).toMatchObject({ natsUrl: 'nats-1:4222,nats://nats-2:4222', instanceId: 'gw-eu.1', taskLeaseMs: 5000 });
  });

  it('refuses a NATS URL that is not a server list, an instance id with other characters and a lease outside 3 s–24 h', () => {
    const natsMessage = 'Invalid MobileClaw configuration:\n  - MOBILECLAW_NATS_URL must be one or more comma-separated nats://host:port URLs (or host:port), e.g. nats://nats.internal:4222';
    for (const url of ['http://nats:4222', 'nats://:4222', 'nats://nats:4222/path', 'nats://a:4222,,nats://b:4222']) expect(errorOf({ MOBILECLAW_NATS_URL: url })).toBe(natsMessage);
    // TLS is per connection: all servers tls:// (TLS required) or none.
    const mixedTls = 'Invalid MobileClaw configuration:\n  - MOBILECLAW_NATS_URL mixes tls:// and plain URLs: use tls:// (TLS required) for every server or for none';
    for (const url of ['tls://a:4222,nats://b:4222', 'tls://a:4222, b:4222']) expect(errorOf({ MOBILECLAW_NATS_URL: url })).toBe(mixedTls);
    expect(errorOf({ MOBILECLAW_NATS_URL: 'tls://a:4222, tls://b:4222' })).toBe('');
    expect(errorOf({ MOBILECLAW_INSTANCE_ID: 'gw a' })).toBe('Invalid MobileClaw configuration:\n  - MOBILECLAW_INSTANCE_ID: "gw a" must be 1–128 characters of [A-Za-z0-9._-]');
    expect(errorOf({ MOBILECLAW_INSTANCE_ID: 'x'.repeat(129) })).toContain('MOBILECLAW_INSTANCE_ID');
    expect(errorOf({ MOBILECLAW_TASK_LEASE_MS: '2999' })).toContain('MOBILECLAW_TASK_LEASE_MS');
    expect(errorOf({ MOBILECLAW_TASK_LEASE_MS: '3000' })).toBe('');
  });
});

describe('gateway configuration of scoped API tokens', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'mobileclaw-gateway-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('has none by default', () => {
    expect(loadGatewayConfig(validateGatewayEnvironment({}), dir).scopedTokens).toEqual([]);
  });

  it('reads MOBILECLAW_SCOPED_TOKENS once, relative to the working directory, with ${VAR}s from the environment', () => {
    writeFileSync(join(dir, 'tokens.yaml'), 'tokens:\n  - name: crm\n    token: ${CRM_TOKEN}\n    scopes: [context:crm-*]\n');
    const env = validateGatewayEnvironment({ MOBILECLAW_API_TOKEN: 'api-token-0123456789', MOBILECLAW_SCOPED_TOKENS: 'tokens.yaml', CRM_TOKEN: 'crm-token-0123456789' });
    expect(loadGatewayConfig(env, dir).scopedTokens).toEqual([{ name: 'crm', token: 'crm-token-0123456789', scopes: ['context:crm-*'] }]);
  });

  it('refuses scoped tokens without the API token: an open API would restrict nothing', () => {
    expect(() => validateGatewayEnvironment({ MOBILECLAW_SCOPED_TOKENS: 'tokens.yaml' })).toThrow(
      'Invalid MobileClaw configuration:\n  - MOBILECLAW_SCOPED_TOKENS needs MOBILECLAW_API_TOKEN: without it the API is open to every local caller, and a scoped token would restrict nothing',
    );
  });

  it('refuses a bad file at start-up, naming the file and the key path', () => {
    writeFileSync(join(dir, 'tokens.yaml'), 'tokens:\n  - name: crm\n    token: api-token-0123456789\n    scopes: [context:crm-*]\n');
    const env = validateGatewayEnvironment({ MOBILECLAW_API_TOKEN: 'api-token-0123456789', MOBILECLAW_SCOPED_TOKENS: 'tokens.yaml' });
    expect(() => loadGatewayConfig(env, dir)).toThrow(`Invalid MobileClaw configuration:\n  - scoped tokens ${join(dir, 'tokens.yaml')}: tokens[0].token: is the same token as MOBILECLAW_API_TOKEN`);
  });
});

describe('gateway configuration problems', () => {
  it('lists every problem at once, whichever check finds it', () => {
    expect(
      errorOf({ MOBILECLAW_LOG_LEVEL: 'loud', MOBILECLAW_HTTP_PORT: '99999', MOBILECLAW_DATABASE_URL: 'notaurl', MOBILECLAW_NATS_URL: 'http://nats', MOBILECLAW_HTTP_HOST: '0.0.0.0' }),
    ).toBe(
      [
        'Invalid MobileClaw configuration:',
        '  - MOBILECLAW_HTTP_PORT: MOBILECLAW_HTTP_PORT must not be greater than 65535',
        '  - MOBILECLAW_LOG_LEVEL: MOBILECLAW_LOG_LEVEL must be one of the following values: fatal, error, warn, info, debug, trace, silent',
        '  - MOBILECLAW_NATS_URL must be one or more comma-separated nats://host:port URLs (or host:port), e.g. nats://nats.internal:4222',
        '  - MOBILECLAW_DATABASE_URL must be a postgres:// or postgresql:// URL with a host, e.g. postgres://mobileclaw:secret@db.internal:5432/mobileclaw',
        '  - MOBILECLAW_HTTP_HOST=0.0.0.0 exposes the API beyond this machine: set MOBILECLAW_API_TOKEN too',
      ].join('\n'),
    );
  });

  it('says only that a value is not a number when it is not one, not which range it misses', () => {
    expect(() => validateGatewayEnvironment({ MOBILECLAW_HTTP_PORT: 'abc' })).toThrow(/^Invalid MobileClaw configuration:\n {2}- MOBILECLAW_HTTP_PORT: MOBILECLAW_HTTP_PORT must be an integer number$/);
  });
});
