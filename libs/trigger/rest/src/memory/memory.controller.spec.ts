import { Module, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { NEVER } from 'rxjs';
import { MobileClawError, MobileClawService, TaskRepository, type MemoryCandidate, type MemoryRecord, type MemoryScope, type MemorySearchResult, type SessionTurn, type StoredMemoryLayer } from '@mobileclaw/domain';
import { TakeoverService, TaskService } from '@mobileclaw/case-tasks';
import { MemoryService, type MemoryOrigin, type MemorySearchOptions, type MemoryStatus } from '@mobileclaw/case-memory';
import { GatewayApiModule } from '../gateway-api.module';
import type { GatewayApiOptions } from '../http/api-token.guard';

const AT = '2026-12-02T09:30:00.000Z';

function record(id: string, scope: MemoryScope, layer: StoredMemoryLayer, text: string, line = 3): MemoryRecord {
  const day = AT.slice(0, 10);
  return {
    id,
    scope,
    layer,
    text,
    category: 'fact',
    priority: 5,
    createdAt: AT,
    source: { file: `device/sim-1/${layer === 'daily' ? `${day}.md` : 'MEMORY.md'}`, line },
    contentHash: 'a'.repeat(64),
    embedding: 'none',
  };
}

/** A memory service answering from a fixed table, recording what each route asked of it. */
class StubMemoryService extends MemoryService {
  readonly calls: unknown[][] = [];
  readonly records = new Map<string, MemoryRecord>([['mem_000000000000000000000001', record('mem_000000000000000000000001', 'device:sim-1', 'daily', 'Mom is Alice')]]);
  turns: SessionTurn[] = [{ role: 'user', text: 'remember that mom is Alice', at: AT, taskId: 'task-1' }];

  constructor() {
    // The stub never reaches the ports: every method the controller calls is overridden.
    super(undefined as never, undefined as never, undefined as never, undefined as never);
  }

  // No files to watch, no embeddings to retry.
  override async onModuleInit(): Promise<void> {}
  override onModuleDestroy(): void {}

  override async search(scope: MemoryScope, query: string, options: MemorySearchOptions = {}): Promise<MemorySearchResult> {
    this.calls.push(['search', scope, query, options.k, options.signal instanceof AbortSignal]);
    const hit = this.records.get('mem_000000000000000000000001')!;
    return {
      scope,
      query,
      hits: [{ layer: 'daily', id: hit.id, text: hit.text, category: 'fact', priority: 5, source: hit.source, createdAt: AT, ageDays: 0.5, score: 0.98, parts: { lexical: 1, semantic: null, relevance: 1, decay: 0.98 } }],
      semantic: 'off',
      notice: 'no embeddings endpoint configured (MOBILECLAW_EMBEDDINGS_BASE_URL): lexical search only',
    };
  }

  override async remember(scope: MemoryScope, candidate: MemoryCandidate, origin: MemoryOrigin): Promise<MemoryRecord[]> {
    this.calls.push(['remember', scope, candidate, origin]);
    if (candidate.text.trim() === '') throw new MobileClawError('VALIDATION_FAILED', 'memory text must not be blank');
    return [record('mem_000000000000000000000002', scope, 'daily', candidate.text, 7), record('mem_000000000000000000000003', scope, 'curated', candidate.text, 2)];
  }

  override async get(id: string): Promise<MemoryRecord> {
    const found = this.records.get(id);
    if (!found) throw new MobileClawError('MEMORY_NOT_FOUND', `no memory ${JSON.stringify(id.slice(0, 80))}`);
    return found;
  }

  override async list(scope: MemoryScope, layer: StoredMemoryLayer, page: { limit: number; offset: number }): Promise<{ records: MemoryRecord[]; total: number }> {
    this.calls.push(['list', scope, layer, page]);
    return { records: [...this.records.values()].filter((r) => r.scope === scope && r.layer === layer), total: 1 };
  }

  override async forget(id: string): Promise<MemoryRecord[]> {
    const found = await this.get(id);
    this.records.delete(id);
    return [found];
  }

  override sessionTurns(scope: MemoryScope): SessionTurn[] {
    this.calls.push(['sessionTurns', scope]);
    return this.turns;
  }

  override async flush(scope: MemoryScope, signal?: AbortSignal): Promise<{ turns: number; stored: MemoryRecord[] }> {
    this.calls.push(['flush', scope, signal instanceof AbortSignal]);
    if (scope === 'context:down') throw new MobileClawError('PLANNER_ERROR', 'the model did not answer');
    return { turns: 1, stored: [record('mem_000000000000000000000004', scope, 'daily', 'Mom is Alice')] };
  }

  override async organize(scope: MemoryScope, signal?: AbortSignal): Promise<{ days: number; stored: MemoryRecord[] }> {
    this.calls.push(['organize', scope, signal instanceof AbortSignal]);
    return { days: 2, stored: [] };
  }

  override async status(): Promise<MemoryStatus> {
    return { semantic: 'off', summarizer: 'rule-based', records: 1, missingEmbeddings: 0 };
  }
}

async function start(memory: MemoryService | undefined, options: GatewayApiOptions = {}): Promise<{ app: INestApplication; base: string }> {
  @Module({
    providers: [
      { provide: MobileClawService, useValue: { events$: NEVER, listDevices: async () => [] } },
      { provide: TaskService, useValue: {} },
      { provide: TakeoverService, useValue: {} },
      { provide: TaskRepository, useValue: {} },
      ...(memory ? [{ provide: MemoryService, useValue: memory }] : []),
    ],
    exports: [MobileClawService, TaskService, TakeoverService, TaskRepository, ...(memory ? [MemoryService] : [])],
  })
  class PortsModule {}
  const moduleRef = await Test.createTestingModule({ imports: [{ module: PortsModule, global: true }, GatewayApiModule.forRoot(options)] }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  await app.listen(0, '127.0.0.1');
  return { app, base: `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}` };
}

async function call(url: string, init: { method?: string; body?: unknown; token?: string } = {}): Promise<{ status: number; type: string | null; body: Record<string, unknown> }> {
  const headers: Record<string, string> = {
    ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    ...(init.token === undefined ? {} : { authorization: `Bearer ${init.token}` }),
  };
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body === undefined ? {} : { body: typeof init.body === 'string' ? init.body : JSON.stringify(init.body) }),
  });
  return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as Record<string, unknown> };
}

describe('the memory API', () => {
  let app: INestApplication;
  let base: string;
  let memory: StubMemoryService;

  beforeAll(async () => {
    memory = new StubMemoryService();
    ({ app, base } = await start(memory));
  });
  afterAll(() => app.close());
  beforeEach(() => {
    memory.calls.length = 0;
  });

  it('GET /api/memory searches the scope with the query and k, answering the hits with their score parts', async () => {
    const answer = await call(`${base}/api/memory?scope=${encodeURIComponent('device:sim-1')}&q=mom&k=5`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      scope: 'device:sim-1',
      query: 'mom',
      hits: [
        {
          layer: 'daily',
          id: 'mem_000000000000000000000001',
          text: 'Mom is Alice',
          category: 'fact',
          priority: 5,
          source: { file: 'device/sim-1/2026-12-02.md', line: 3 },
          createdAt: AT,
          ageDays: 0.5,
          score: 0.98,
          parts: { lexical: 1, semantic: null, relevance: 1, decay: 0.98 },
        },
      ],
      semantic: 'off',
      notice: 'no embeddings endpoint configured (MOBILECLAW_EMBEDDINGS_BASE_URL): lexical search only',
    });
    expect(memory.calls).toEqual([['search', 'device:sim-1', 'mom', 5, true]]);
    // Without k, the service's per-layer limits apply.
    await call(`${base}/api/memory?scope=context:c-7&q=wifi`);
    expect(memory.calls[1]).toEqual(['search', 'context:c-7', 'wifi', undefined, true]);
  });

  it('takes a conversation scope as long as a task\'s contextId (256 characters), and no longer', async () => {
    const longest = `context:${'c'.repeat(256)}`;
    expect((await call(`${base}/api/memory?scope=${longest}&q=mom`)).status).toBe(200);
    expect(memory.calls).toEqual([['search', longest, 'mom', undefined, true]]);
    expect((await call(`${base}/api/memory?scope=${longest}c&q=mom`)).status).toBe(400);
  });

  it.each([
    ['no q', 'scope=device:sim-1', 'q'],
    ['an empty q', 'scope=device:sim-1&q=', 'q'],
    ['no scope', 'q=mom', 'scope'],
    ['a scope of another kind', 'scope=user:bob&q=mom', 'scope'],
    ['a scope without an id', 'scope=device:&q=mom', 'scope'],
    ['k = 0', 'scope=device:sim-1&q=mom&k=0', 'k'],
    ['k = 51', 'scope=device:sim-1&q=mom&k=51', 'k'],
    ['k not a number', 'scope=device:sim-1&q=mom&k=three', 'k'],
    ['an unknown parameter', 'scope=device:sim-1&q=mom&layer=daily', 'layer'],
  ])('GET /api/memory with %s is 400 VALIDATION_FAILED naming the field, and searches nothing', async (_case, query, field) => {
    const answer = await call(`${base}/api/memory?${query}`);
    expect({ status: answer.status, type: answer.type, code: answer.body['code'] }).toEqual({ status: 400, type: expect.stringMatching(/^application\/problem\+json/), code: 'VALIDATION_FAILED' });
    expect((answer.body['errors'] as { field: string }[]).map((e) => e.field)).toContain(field);
    expect(memory.calls).toEqual([]);
  });

  it('GET /api/memory/records lists a layer page by page, 50 newest by default', async () => {
    const answer = await call(`${base}/api/memory/records?scope=device:sim-1&layer=daily`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ records: [memory.records.get('mem_000000000000000000000001')], total: 1 });
    await call(`${base}/api/memory/records?scope=device:sim-1&layer=curated&limit=10&offset=20`);
    expect(memory.calls).toEqual([
      ['list', 'device:sim-1', 'daily', { limit: 50, offset: 0 }],
      ['list', 'device:sim-1', 'curated', { limit: 10, offset: 20 }],
    ]);
  });

  it.each([
    ['the session layer', 'scope=device:sim-1&layer=session', 'layer'],
    ['no layer', 'scope=device:sim-1', 'layer'],
    ['limit 201', 'scope=device:sim-1&layer=daily&limit=201', 'limit'],
    ['a negative offset', 'scope=device:sim-1&layer=daily&offset=-1', 'offset'],
    ['a bad scope', 'scope=sim-1&layer=daily', 'scope'],
  ])('GET /api/memory/records with %s is 400', async (_case, query, field) => {
    const answer = await call(`${base}/api/memory/records?${query}`);
    expect([answer.status, answer.body['code']]).toEqual([400, 'VALIDATION_FAILED']);
    expect((answer.body['errors'] as { field: string }[]).map((e) => e.field)).toContain(field);
    expect(memory.calls).toEqual([]);
  });

  it('GET /api/memory/status and /api/memory/session answer the service\'s values', async () => {
    expect(await call(`${base}/api/memory/status`)).toMatchObject({ status: 200, body: { semantic: 'off', summarizer: 'rule-based', records: 1, missingEmbeddings: 0 } });
    expect(await call(`${base}/api/memory/session?scope=context:c-7`)).toMatchObject({ status: 200, body: { turns: [{ role: 'user', text: 'remember that mom is Alice', at: AT, taskId: 'task-1' }] } });
    expect(memory.calls).toEqual([['sessionTurns', 'context:c-7']]);
    expect((await call(`${base}/api/memory/session`)).status).toBe(400);
  });

  it('GET /api/memory/:id answers the record, or 404 MEMORY_NOT_FOUND', async () => {
    expect(await call(`${base}/api/memory/mem_000000000000000000000001`)).toMatchObject({ status: 200, body: { id: 'mem_000000000000000000000001', text: 'Mom is Alice' } });
    const missing = await call(`${base}/api/memory/mem_ffffffffffffffffffffffff`);
    expect(missing).toMatchObject({ status: 404, body: { code: 'MEMORY_NOT_FOUND', detail: 'no memory "mem_ffffffffffffffffffffffff"', instance: '/api/memory/mem_ffffffffffffffffffffffff' } });
  });

  it('POST /api/memory remembers with the caller\'s category and priority, 201 with the records', async () => {
    const answer = await call(`${base}/api/memory`, { method: 'POST', body: { scope: 'device:sim-1', text: 'Mom is Alice', category: 'contact', priority: 8 } });
    expect(answer.status).toBe(201);
    expect((answer.body['records'] as MemoryRecord[]).map((r) => [r.id, r.layer, r.source])).toEqual([
      ['mem_000000000000000000000002', 'daily', { file: 'device/sim-1/2026-12-02.md', line: 7 }],
      ['mem_000000000000000000000003', 'curated', { file: 'device/sim-1/MEMORY.md', line: 2 }],
    ]);
    expect(memory.calls).toEqual([['remember', 'device:sim-1', { text: 'Mom is Alice', category: 'contact', priority: 8 }, 'api']]);
    await call(`${base}/api/memory`, { method: 'POST', body: { scope: 'context:c-7', text: 'Office Wi-Fi is ACME-5G' } });
    expect(memory.calls[1]).toEqual(['remember', 'context:c-7', { text: 'Office Wi-Fi is ACME-5G' }, 'api']);
  });

  it.each([
    ['no text', { scope: 'device:sim-1' }, 'text'],
    ['an empty text', { scope: 'device:sim-1', text: '' }, 'text'],
    ['a text over 4,000 characters', { scope: 'device:sim-1', text: 'x'.repeat(4001) }, 'text'],
    ['a bad scope', { scope: 'phone:sim-1', text: 'Mom is Alice' }, 'scope'],
    ['a category with capitals', { scope: 'device:sim-1', text: 'Mom is Alice', category: 'Contact' }, 'category'],
    ['priority 0', { scope: 'device:sim-1', text: 'Mom is Alice', priority: 0 }, 'priority'],
    ['priority 11', { scope: 'device:sim-1', text: 'Mom is Alice', priority: 11 }, 'priority'],
    ['a fractional priority', { scope: 'device:sim-1', text: 'Mom is Alice', priority: 5.5 }, 'priority'],
    ['an unknown field', { scope: 'device:sim-1', text: 'Mom is Alice', layer: 'curated' }, 'layer'],
    ['an array body', [], ''],
  ])('POST /api/memory with %s is 400 and stores nothing', async (_case, body, field) => {
    const answer = await call(`${base}/api/memory`, { method: 'POST', body });
    expect([answer.status, answer.body['code']]).toEqual([400, 'VALIDATION_FAILED']);
    expect((answer.body['errors'] as { field: string }[]).map((e) => e.field)).toContain(field);
    expect(memory.calls).toEqual([]);
  });

  it('POST /api/memory passes the service\'s own refusal on as problem details', async () => {
    const answer = await call(`${base}/api/memory`, { method: 'POST', body: { scope: 'device:sim-1', text: '   ' } });
    expect(answer).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', detail: 'memory text must not be blank' } });
  });

  it('DELETE /api/memory/:id answers what it removed; a second time is 404', async () => {
    memory.records.set('mem_000000000000000000000009', record('mem_000000000000000000000009', 'device:sim-1', 'daily', 'Old Wi-Fi password is hunter2'));
    const answer = await call(`${base}/api/memory/mem_000000000000000000000009`, { method: 'DELETE' });
    expect(answer.status).toBe(200);
    expect((answer.body['deleted'] as MemoryRecord[]).map((r) => r.id)).toEqual(['mem_000000000000000000000009']);
    expect(await call(`${base}/api/memory/mem_000000000000000000000009`, { method: 'DELETE' })).toMatchObject({ status: 404, body: { code: 'MEMORY_NOT_FOUND' } });
  });

  it('POST /api/memory/flush and /organize answer 200 with what was stored; a failing summariser is 502', async () => {
    const flushed = await call(`${base}/api/memory/flush`, { method: 'POST', body: { scope: 'device:sim-1' } });
    expect(flushed.status).toBe(200);
    expect(flushed.body['turns']).toBe(1);
    expect((flushed.body['stored'] as MemoryRecord[]).map((r) => r.text)).toEqual(['Mom is Alice']);
    expect(await call(`${base}/api/memory/organize`, { method: 'POST', body: { scope: 'device:sim-1' } })).toEqual({ status: 200, type: expect.stringMatching(/^application\/json/), body: { days: 2, stored: [] } });
    expect(memory.calls).toEqual([
      ['flush', 'device:sim-1', true],
      ['organize', 'device:sim-1', true],
    ]);
    expect(await call(`${base}/api/memory/flush`, { method: 'POST', body: { scope: 'context:down' } })).toMatchObject({ status: 502, body: { code: 'PLANNER_ERROR' } });
    expect(await call(`${base}/api/memory/organize`, { method: 'POST', body: {} })).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    expect(await call(`${base}/api/memory/flush`, { method: 'POST', body: { scope: 'device:sim-1', force: true } })).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
  });
});

describe('the memory API with scoped API tokens', () => {
  const FULL = 'api-token-0123456789';
  const KIOSK = 'kiosk-token-0123456789';
  const CRM = 'crm-token-0123456789';
  let app: INestApplication;
  let base: string;
  let memory: StubMemoryService;

  beforeAll(async () => {
    memory = new StubMemoryService();
    memory.records.set('mem_000000000000000000000005', record('mem_000000000000000000000005', 'context:crm-7', 'daily', 'Prefers calls after 6 pm'));
    ({ app, base } = await start(memory, {
      apiToken: FULL,
      scopedTokens: [
        { name: 'kiosk', token: KIOSK, scopes: ['device:sim-1'] },
        { name: 'crm', token: CRM, scopes: ['context:crm-*'] },
      ],
    }));
  });
  afterAll(() => app.close());
  beforeEach(() => {
    memory.calls.length = 0;
  });

  it('lets a scoped token search, list, read the session of, remember, flush and organize the scopes it names', async () => {
    expect((await call(`${base}/api/memory?scope=device:sim-1&q=mom`, { token: KIOSK })).status).toBe(200);
    expect((await call(`${base}/api/memory/records?scope=context:crm-7&layer=daily`, { token: CRM })).body['records']).toEqual([memory.records.get('mem_000000000000000000000005')]);
    expect((await call(`${base}/api/memory/session?scope=device:sim-1`, { token: KIOSK })).status).toBe(200);
    expect((await call(`${base}/api/memory`, { method: 'POST', body: { scope: 'context:crm-8', text: 'Call back Monday' }, token: CRM })).status).toBe(201);
    expect((await call(`${base}/api/memory/flush`, { method: 'POST', body: { scope: 'device:sim-1' }, token: KIOSK })).status).toBe(200);
    expect((await call(`${base}/api/memory/organize`, { method: 'POST', body: { scope: 'context:crm-7' }, token: CRM })).status).toBe(200);
    expect(memory.calls.map((c) => [c[0], c[1]])).toEqual([
      ['search', 'device:sim-1'],
      ['list', 'context:crm-7'],
      ['sessionTurns', 'device:sim-1'],
      ['remember', 'context:crm-8'],
      ['flush', 'device:sim-1'],
      ['organize', 'context:crm-7'],
    ]);
  });

  it.each([
    ['GET', '/api/memory?scope=device:sim-2&q=mom', undefined, 'device:sim-2'],
    ['GET', '/api/memory?scope=context:sim-1&q=mom', undefined, 'context:sim-1'],
    ['GET', '/api/memory/records?scope=device:sim-10&layer=daily', undefined, 'device:sim-10'],
    ['GET', '/api/memory/session?scope=context:crm-7', undefined, 'context:crm-7'],
    ['POST', '/api/memory', { scope: 'context:crm-7', text: 'Mom is Alice' }, 'context:crm-7'],
    ['POST', '/api/memory/flush', { scope: 'device:other' }, 'device:other'],
    ['POST', '/api/memory/organize', { scope: 'device:other' }, 'device:other'],
  ])('answers a scoped token %s %s outside its scopes 403 TOKEN_SCOPE_FORBIDDEN, and asks the service nothing', async (method, path, body, scope) => {
    const answer = await call(`${base}${path}`, { method, body, token: KIOSK });
    expect({ status: answer.status, code: answer.body['code'], detail: answer.body['detail'] }).toEqual({
      status: 403,
      code: 'TOKEN_SCOPE_FORBIDDEN',
      detail: `the API token "kiosk" does not reach the memory scope "${scope}"`,
    });
    expect(memory.calls).toEqual([]);
  });

  it('answers a memory of another scope 404 MEMORY_NOT_FOUND, as an id that does not exist, and deletes nothing', async () => {
    const other = await call(`${base}/api/memory/mem_000000000000000000000005`, { token: KIOSK });
    const unknown = await call(`${base}/api/memory/mem_ffffffffffffffffffffffff`, { token: KIOSK });
    expect([other.status, other.body['code'], unknown.status, unknown.body['code']]).toEqual([404, 'MEMORY_NOT_FOUND', 404, 'MEMORY_NOT_FOUND']);
    expect(other.body['detail']).toBe('no memory "mem_000000000000000000000005"');
    expect(await call(`${base}/api/memory/mem_000000000000000000000005`, { method: 'DELETE', token: KIOSK })).toMatchObject({ status: 404, body: { code: 'MEMORY_NOT_FOUND' } });
    expect(memory.records.has('mem_000000000000000000000005')).toBe(true);
    expect(await call(`${base}/api/memory/mem_000000000000000000000005`, { token: CRM })).toMatchObject({ status: 200, body: { text: 'Prefers calls after 6 pm' } });
  });

  it('lets a scoped token delete a memory of its scope', async () => {
    memory.records.set('mem_00000000000000000000000a', record('mem_00000000000000000000000a', 'device:sim-1', 'daily', 'Old PIN hint'));
    const answer = await call(`${base}/api/memory/mem_00000000000000000000000a`, { method: 'DELETE', token: KIOSK });
    expect(answer.status).toBe(200);
    expect(memory.records.has('mem_00000000000000000000000a')).toBe(false);
  });

  it('keeps the status of the whole memory for the API token', async () => {
    expect(await call(`${base}/api/memory/status`, { token: CRM })).toMatchObject({ status: 403, body: { code: 'TOKEN_SCOPE_FORBIDDEN' } });
    expect(await call(`${base}/api/memory/status`, { token: FULL })).toMatchObject({ status: 200, body: { records: 1 } });
  });

  it('lets the API token reach every scope, and refuses a wrong token 401', async () => {
    expect((await call(`${base}/api/memory?scope=context:crm-7&q=calls`, { token: FULL })).status).toBe(200);
    expect((await call(`${base}/api/memory/mem_000000000000000000000005`, { token: FULL })).status).toBe(200);
    expect(await call(`${base}/api/memory?scope=device:sim-1&q=mom`, { token: 'kiosk-token-01234567890' })).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
    expect(await call(`${base}/api/memory?scope=device:sim-1&q=mom`)).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } });
  });

  it('answers a scoped token 403 TOKEN_SCOPE_FORBIDDEN on every other route', async () => {
    expect(await call(`${base}/api/devices`, { token: KIOSK })).toMatchObject({ status: 403, body: { code: 'TOKEN_SCOPE_FORBIDDEN' } });
    expect(await call(`${base}/api/tasks`, { method: 'POST', body: { goal: 'open Settings' }, token: CRM })).toMatchObject({ status: 403, body: { code: 'TOKEN_SCOPE_FORBIDDEN' } });
    expect((await call(`${base}/api/devices`, { token: FULL })).status).toBe(200);
  });
});

describe('the memory API on a gateway without memory', () => {
  it('answers 404 NOT_FOUND on every route', async () => {
    const { app, base } = await start(undefined);
    try {
      expect(await call(`${base}/api/memory?scope=device:sim-1&q=mom`)).toMatchObject({ status: 404, body: { code: 'NOT_FOUND', detail: 'memory is not enabled on this gateway' } });
      expect(await call(`${base}/api/memory`, { method: 'POST', body: { scope: 'device:sim-1', text: 'x' } })).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    } finally {
      await app.close();
    }
  });
});
