import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningGateway } from '@mobileclaw/gateway';
import { startEmbeddingsServer } from '@mobileclaw/embeddings-openai/testing';
import { gatewayUrl, testGateways, waitOnline } from '../support/test-gateways';

/**
 * The agent's memory on a real gateway (in-process) with its embedded simulated phone `sim-1`, the
 * rule-based planner and no embeddings endpoint: the REST API over the real files and index, the
 * files as the truth (a person's section found at start-up), and tasks that remember ("remember that
 * mom is Alice") and use what they remembered ("send 'hi' to mom" reaches Alice); then with a local
 * embeddings endpoint: semantic search on, and lexical when the endpoint is down.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers read freely
type Json = any;

const gateways = testGateways('mobileclaw-memory-');
const SIM = 'device:sim-1';

/** The record id the contract gives: `mem_` + 24 hex of SHA-256 of `scope\nlayer\ncontentHash`. */
function recordId(scope: string, layer: string, text: string): string {
  const sha = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');
  const contentHash = sha(text.normalize('NFKC').replace(/\s+/gu, ' ').trim().toLowerCase());
  return `mem_${sha(`${scope}\n${layer}\n${contentHash}`).slice(0, 24)}`;
}

async function call(gw: RunningGateway, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(gatewayUrl(gw, path), {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

const search = (gw: RunningGateway, scope: string, q: string) => call(gw, 'GET', `/api/memory?${new URLSearchParams({ scope, q }).toString()}`);

/** Runs a task on sim-1 to its end (its event stream ends with it) and answers it with its steps. */
async function runTask(gw: RunningGateway, goal: string): Promise<Json> {
  const started = await call(gw, 'POST', '/api/tasks', { deviceId: 'sim-1', goal });
  expect(started.status).toBe(202);
  await (await fetch(gatewayUrl(gw, `/api/tasks/${started.body.taskId}/events`))).text();
  return (await call(gw, 'GET', `/api/tasks/${started.body.taskId}`)).body;
}

const today = () => new Date().toISOString().slice(0, 10);
const memoryFile = (gw: RunningGateway, file: string) => readFileSync(join(gw.config.dataDir, 'memory', file), 'utf8');

describe('the memory API on a gateway', () => {
  it('remembers into today\'s file, finds it with its score parts, and forgets it from the file and the index', async () => {
    const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
    const text = 'Office Wi-Fi is ACME-5G';
    const id = recordId(SIM, 'daily', text);
    const file = `device/sim-1/${today()}.md`;

    const stored = await call(gw, 'POST', '/api/memory', { scope: SIM, text, category: 'fact' });
    expect(stored.status).toBe(201);
    expect(stored.body.records).toEqual([
      { id, scope: SIM, layer: 'daily', text, category: 'fact', priority: 5, createdAt: expect.stringMatching(new RegExp(`^${today()}T`)), source: { file, line: 3 }, contentHash: expect.stringMatching(/^[0-9a-f]{64}$/), embedding: 'none' },
    ]);
    expect(memoryFile(gw, file).split('\n')).toEqual([`# ${today()}`, '', expect.stringMatching(/^## \d\d:\d\d · fact · p5$/), '', text, '', '']);

    const found = await search(gw, SIM, 'office Wi-Fi');
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ scope: SIM, query: 'office Wi-Fi', semantic: 'off', notice: expect.stringContaining('lexical search only') });
    expect(found.body.hits).toEqual([
      {
        layer: 'daily',
        id,
        text,
        category: 'fact',
        priority: 5,
        source: { file, line: 3 },
        createdAt: stored.body.records[0].createdAt,
        ageDays: expect.any(Number),
        score: expect.any(Number),
        parts: { lexical: 1, semantic: null, relevance: 1, decay: expect.any(Number) },
      },
    ]);
    const [hit] = found.body.hits;
    // A memory seconds old has hardly decayed (half-life 30 days), and its score is relevance × decay.
    expect(hit.ageDays).toBeGreaterThanOrEqual(0);
    expect(hit.ageDays).toBeLessThan(0.01);
    expect(hit.parts.decay).toBeGreaterThan(0.999);
    expect(hit.score).toBeCloseTo(hit.parts.relevance * hit.parts.decay, 10);
    // Another scope finds nothing of it.
    expect((await search(gw, 'context:trip', 'office Wi-Fi')).body.hits).toEqual([]);
    expect((await call(gw, 'GET', `/api/memory/${id}`)).body).toEqual(stored.body.records[0]);
    expect((await call(gw, 'GET', `/api/memory/records?scope=${SIM}&layer=daily`)).body).toEqual({ records: stored.body.records, total: 1 });
    expect((await call(gw, 'GET', `/api/memory/records?scope=${SIM}&layer=curated`)).body).toEqual({ records: [], total: 0 });

    const forgotten = await call(gw, 'DELETE', `/api/memory/${id}`);
    expect(forgotten).toEqual({ status: 200, body: { deleted: stored.body.records } });
    expect(memoryFile(gw, file)).not.toContain(text);
    expect((await search(gw, SIM, 'office Wi-Fi')).body.hits).toEqual([]);
    expect(await call(gw, 'GET', `/api/memory/${id}`)).toMatchObject({ status: 404, body: { code: 'MEMORY_NOT_FOUND' } });
    expect(await call(gw, 'DELETE', `/api/memory/${id}`)).toMatchObject({ status: 404, body: { code: 'MEMORY_NOT_FOUND' } });
  }, 60_000);

  it('writes a memory of priority 8 or a curated category to MEMORY.md too, and forgets both', async () => {
    const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
    const text = 'Prefers dark mode in every app';
    const stored = await call(gw, 'POST', '/api/memory', { scope: SIM, text, category: 'preference' });
    expect(stored.status).toBe(201);
    expect(stored.body.records.map((r: Json) => [r.id, r.layer, r.source])).toEqual([
      [recordId(SIM, 'daily', text), 'daily', { file: `device/sim-1/${today()}.md`, line: 3 }],
      [recordId(SIM, 'curated', text), 'curated', { file: 'device/sim-1/MEMORY.md', line: 3 }],
    ]);
    expect(memoryFile(gw, 'device/sim-1/MEMORY.md').split('\n').slice(0, 5)).toEqual(['# Long-term memory', '', `## preference · p5 · ${today()}`, '', text]);
    // The same text again is the same records, not new sections.
    expect((await call(gw, 'POST', '/api/memory', { scope: SIM, text: `  ${text.toUpperCase()} `, category: 'preference' })).body.records.map((r: Json) => r.id).sort()).toEqual(stored.body.records.map((r: Json) => r.id).sort());
    expect(memoryFile(gw, 'device/sim-1/MEMORY.md').match(/^## /gm)).toHaveLength(1);

    const hits = (await search(gw, SIM, 'dark mode')).body.hits;
    expect(hits.map((h: Json) => [h.layer, h.text])).toEqual(expect.arrayContaining([['curated', text], ['daily', text]]));
    expect(hits.find((h: Json) => h.layer === 'curated').parts.decay).toBe(1);
    expect((await call(gw, 'GET', '/api/memory/status')).body).toEqual({ semantic: 'off', summarizer: 'rule-based', records: 2, missingEmbeddings: 0 });

    const forgotten = await call(gw, 'DELETE', `/api/memory/${recordId(SIM, 'curated', text)}`);
    expect(forgotten.body.deleted.map((r: Json) => r.layer).sort()).toEqual(['curated', 'daily']);
    expect(memoryFile(gw, 'device/sim-1/MEMORY.md')).not.toContain(text);
    expect(memoryFile(gw, `device/sim-1/${today()}.md`)).not.toContain(text);
    expect((await search(gw, SIM, 'dark mode')).body.hits).toEqual([]);
  }, 60_000);

  it('finds a section a person wrote in MEMORY.md before start-up, as a note of priority 9', async () => {
    const dataDir = gateways.dataDir();
    mkdirSync(join(dataDir, 'memory', 'device', 'sim-1'), { recursive: true });
    writeFileSync(join(dataDir, 'memory', 'device', 'sim-1', 'MEMORY.md'), '# Long-term memory\n\nWritten by hand.\n\n## Coffee\n\nFlat white, no sugar.\n');
    const gw = await gateways.start({ MOBILECLAW_SIM: 'off', MOBILECLAW_DATA_DIR: dataDir });
    const hits = (await search(gw, SIM, 'flat white')).body.hits;
    expect(hits).toEqual([expect.objectContaining({ layer: 'curated', id: recordId(SIM, 'curated', 'Flat white, no sugar.'), text: 'Flat white, no sugar.', category: 'note', priority: 9, source: { file: 'device/sim-1/MEMORY.md', line: 5 } })]);
  }, 60_000);

  it('refuses a bad scope, query, k, layer or body with 400 VALIDATION_FAILED', async () => {
    const gw = await gateways.start({ MOBILECLAW_SIM: 'off' });
    for (const path of ['/api/memory?scope=device:sim-1', '/api/memory?scope=user:bob&q=mom', '/api/memory?scope=device:sim-1&q=mom&k=0', '/api/memory?scope=device:sim-1&q=mom&k=51', '/api/memory/records?scope=device:sim-1&layer=session', '/api/memory/session']) {
      expect({ path, ...(await call(gw, 'GET', path)) }).toMatchObject({ path, status: 400, body: { code: 'VALIDATION_FAILED' } });
    }
    for (const body of [{ scope: SIM, text: '' }, { scope: SIM, text: 'x'.repeat(4001) }, { scope: SIM, text: 'x', priority: 11 }, { scope: SIM, text: 'x', category: 'Not Valid' }, { scope: 'sim-1', text: 'x' }]) {
      expect(await call(gw, 'POST', '/api/memory', body)).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    }
    expect(await call(gw, 'POST', '/api/memory/flush', {})).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    expect(await call(gw, 'POST', '/api/memory/organize', { scope: 'nobody' })).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    expect((await call(gw, 'GET', '/api/memory/status')).body.records).toBe(0);
  }, 60_000);
});

describe('semantic memory search with an embeddings endpoint', () => {
  it('adds cosine similarity to the score parts, and falls back to lexical search while the endpoint is down', async () => {
    const server = await startEmbeddingsServer({ apiKey: 'sk-embeddings-test-0123456789' });
    try {
      const gw = await gateways.start({ MOBILECLAW_SIM: 'off', MOBILECLAW_EMBEDDINGS_BASE_URL: server.baseUrl, MOBILECLAW_EMBEDDINGS_API_KEY: 'sk-embeddings-test-0123456789' });
      expect((await call(gw, 'GET', '/api/memory/status')).body).toEqual({ semantic: 'on', embeddingModel: 'text-embedding-3-small', summarizer: 'rule-based', records: 0, missingEmbeddings: 0 });
      const stored = await call(gw, 'POST', '/api/memory', { scope: SIM, text: 'Office Wi-Fi is ACME-5G' });
      expect(stored.body.records.map((r: Json) => r.embedding)).toEqual(['present']);
      expect(server.requests.map((r) => [r.model, r.input])).toEqual([['text-embedding-3-small', ['Office Wi-Fi is ACME-5G']]]);

      const found = (await search(gw, SIM, 'office Wi-Fi')).body;
      expect(found.semantic).toBe('on');
      expect(found.notice).toBeUndefined();
      const [hit] = found.hits;
      expect(hit.parts.lexical).toBe(1);
      // The local server's embedding is a bag of hashed words: sharing 3 of 4 words is well above the minimum of 0.35.
      expect(hit.parts.semantic).toBeGreaterThan(0.35);
      expect(hit.parts.relevance).toBeCloseTo(0.3 * hit.parts.lexical + 0.7 * hit.parts.semantic, 10);

      server.down = true;
      const degraded = (await search(gw, SIM, 'office Wi-Fi')).body;
      expect(degraded).toMatchObject({ semantic: 'degraded', notice: expect.stringContaining('lexical search only') });
      expect(degraded.hits.map((h: Json) => [h.text, h.parts.lexical, h.parts.semantic])).toEqual([['Office Wi-Fi is ACME-5G', 1, null]]);
      // A memory remembered meanwhile is stored all the same, its embedding missing (retried later), and found lexically.
      const meanwhile = await call(gw, 'POST', '/api/memory', { scope: SIM, text: 'Mom is Alice' });
      expect(meanwhile).toMatchObject({ status: 201, body: { records: [{ embedding: 'missing' }] } });
      expect((await call(gw, 'GET', '/api/memory/status')).body).toMatchObject({ records: 2, missingEmbeddings: 1 });
      expect((await search(gw, SIM, 'mom')).body.hits.map((h: Json) => h.text)).toEqual(['Mom is Alice']);
    } finally {
      await server.close();
    }
  }, 60_000);
});

describe('memory in tasks on the simulated phone', () => {
  it('remembers that mom is Alice, then sends "hi" to mom: Alice\'s conversation gets it', async () => {
    const gw = await gateways.start();
    await waitOnline(gw, 'sim-1');

    const remember = await runTask(gw, 'remember that mom is Alice');
    expect(remember.status).toBe('completed');
    expect(remember.steps[0].plan).toMatchObject({ type: 'tool_call', name: 'memory_store' });
    expect(remember.steps[0].result).toMatchObject({ status: 'success' });
    const stored = (await search(gw, SIM, 'mom')).body.hits.filter((h: Json) => h.layer !== 'session');
    expect(stored).toEqual([expect.objectContaining({ layer: 'daily', text: 'mom is Alice', category: 'contact', priority: 6, source: { file: `device/sim-1/${today()}.md`, line: 3 } })]);

    const send = await runTask(gw, "send 'hi' to mom");
    expect(send.status).toBe('completed');
    expect(gw.simulator!.ui.state.conversations['Alice']?.at(-1)).toEqual({ from: 'me', text: 'hi' });

    // Both tasks are the phone's session: goals first among their turns.
    const session = (await call(gw, 'GET', `/api/memory/session?scope=${SIM}`)).body.turns;
    expect(session.filter((t: Json) => t.role === 'user').map((t: Json) => t.text)).toEqual(['remember that mom is Alice', "send 'hi' to mom"]);
    expect(session.map((t: Json) => t.taskId)).toEqual(expect.arrayContaining([remember.taskId, send.taskId]));
  }, 90_000);

  it('gives a phone the memory tools for its own scope, without approval and without a scope argument', async () => {
    const gw = await gateways.start();
    await waitOnline(gw, 'sim-1');
    const phone = gw.simulator!;
    const catalog = await phone.toolsCatalog();
    expect(catalog.filter((tool) => tool.name.startsWith('memory_')).map((tool) => [tool.name, tool.kind, tool.needsApproval])).toEqual([
      ['memory_search', 'OBSERVATION', false],
      ['memory_store', 'ACTION', false],
    ]);
    expect(catalog.some((tool) => tool.name.startsWith('phone_'))).toBe(false);
    // A scope argument names another phone: the phone's own scope wins.
    const stored = await phone.invokeTool('memory_store', { text: 'The garage code is on the fridge', scope: 'device:other-phone' });
    expect(stored.content).toMatchObject({ stored: [{ layer: 'daily', source: { file: `device/sim-1/${today()}.md`, line: 3 } }] });
    expect((await search(gw, SIM, 'garage code')).body.hits.map((h: Json) => h.text)).toEqual(['The garage code is on the fridge']);
    expect((await search(gw, 'device:other-phone', 'garage code')).body.hits).toEqual([]);
    const found = await phone.invokeTool('memory_search', { query: 'garage' });
    expect(found.content).toMatchObject({ hits: [{ layer: 'daily', text: 'The garage code is on the fridge' }], semantic: 'off' });
  }, 60_000);

  it('flushes the session into the daily memory and organizes the long-term one, answering what each did', async () => {
    const gw = await gateways.start();
    await waitOnline(gw, 'sim-1');
    expect(await call(gw, 'POST', '/api/memory/flush', { scope: SIM })).toEqual({ status: 200, body: { turns: 0, stored: [] } });
    expect((await runTask(gw, 'remember my office Wi-Fi is ACME-5G')).status).toBe('completed');
    const turns = (await call(gw, 'GET', `/api/memory/session?scope=${SIM}`)).body.turns.length;
    expect(turns).toBeGreaterThan(0);

    const flushed = await call(gw, 'POST', '/api/memory/flush', { scope: SIM });
    expect(flushed.status).toBe(200);
    expect(flushed.body.turns).toBe(turns);
    expect(flushed.body.stored.every((r: Json) => r.layer === 'daily' && r.priority <= 7)).toBe(true);
    expect((await call(gw, 'GET', `/api/memory/session?scope=${SIM}`)).body.turns).toEqual([]);
    // What the task stored is searchable by the words of the goal.
    expect((await search(gw, SIM, 'ACME-5G')).body.hits.map((h: Json) => h.text)).toEqual(expect.arrayContaining([expect.stringContaining('office Wi-Fi is ACME-5G')]));

    const organized = await call(gw, 'POST', '/api/memory/organize', { scope: SIM });
    expect(organized.status).toBe(200);
    expect(organized.body.days).toBe(1);
    expect(organized.body.stored.every((r: Json) => r.priority >= 9)).toBe(true);
    expect(await call(gw, 'POST', '/api/memory/organize', { scope: 'context:never-used' })).toEqual({ status: 200, body: { days: 0, stored: [] } });
  }, 90_000);
});
