import { createHash } from 'node:crypto';
import type { SimulatedPhone } from '@mobileclaw/simulator';
import type { GatewayProcess, Json } from '../support/gateway-process';
import { SseClient } from '../support/sse-client';
import { connectPhone, startGatewayCluster, type GatewayCluster } from './gateway-cluster';

/**
 * Three gateway processes A, B and C on one PostgreSQL database (and one nats-server): the agent's
 * memory — its documents and their index — is the database's, so what is remembered through one
 * instance is found, and forgotten, through every other.
 */
// Three gateway processes, a nats-server, PostgreSQL and a phone share this machine's cores with the
// other spec files: starts may take seconds under load (a budget, not a speed check).
jest.setTimeout(60_000);

let cluster: GatewayCluster;
let a: GatewayProcess;
let b: GatewayProcess;
let c: GatewayProcess;
const phones: SimulatedPhone[] = [];

beforeAll(async () => {
  cluster = await startGatewayCluster('cluster_memory', ['gw-a', 'gw-b', 'gw-c']);
  [a, b, c] = ['gw-a', 'gw-b', 'gw-c'].map((id) => cluster.gateways.get(id)!);
}, 120_000);

afterAll(async () => {
  for (const phone of phones) await phone.stop();
  await cluster?.stop();
}, 60_000);

/** The record id the contract gives: `mem_` + 24 hex of SHA-256 of `scope\nlayer\ncontentHash`. */
function recordId(scope: string, layer: string, text: string): string {
  const sha = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');
  const contentHash = sha(text.normalize('NFKC').replace(/\s+/gu, ' ').trim().toLowerCase());
  return `mem_${sha(`${scope}\n${layer}\n${contentHash}`).slice(0, 24)}`;
}

const search = (gateway: GatewayProcess, scope: string, q: string) => gateway.api('GET', `/api/memory?${new URLSearchParams({ scope, q }).toString()}`);
/** The stored (daily and curated) hits of a search, without the instance's own session layer. */
const storedHits = async (gateway: GatewayProcess, scope: string, q: string): Promise<Json[]> =>
  ((await search(gateway, scope, q)).body.hits as Json[]).filter((hit) => hit.layer !== 'session');
const today = () => new Date().toISOString().slice(0, 10);

describe('memory shared by a cluster of three gateway processes', () => {
  it('says at start-up that the memory is in the PostgreSQL database', () => {
    for (const gateway of [a, b, c]) expect(gateway.log).toContain('memory in the PostgreSQL database (shared by every instance)');
  });

  it('finds on B and C, with the same id, a memory remembered through A; forgetting it through C makes it gone on A', async () => {
    const scope = 'context:family';
    const text = 'My office Wi-Fi is ACME-5G';
    const id = recordId(scope, 'daily', text);
    const stored = await a.api('POST', '/api/memory', { scope, text, category: 'fact' });
    expect(stored.status).toBe(201);
    expect(stored.body.records).toEqual([
      expect.objectContaining({ id, scope, layer: 'daily', text, category: 'fact', priority: 5, source: { file: `context/family/${today()}.md`, line: 3 } }),
    ]);

    for (const gateway of [b, c]) {
      const found = await search(gateway, scope, 'office Wi-Fi');
      expect(found.status).toBe(200);
      expect(found.body.hits.map((hit: Json) => [hit.id, hit.layer, hit.text])).toEqual([[id, 'daily', text]]);
      expect((await gateway.api('GET', `/api/memory/${id}`)).body).toEqual(stored.body.records[0]);
    }
    // Remembered again through B: the same record, no second section.
    const again = await b.api('POST', '/api/memory', { scope, text: `  ${text.toUpperCase()}`, category: 'fact' });
    expect(again.body.records.map((record: Json) => record.id)).toEqual([id]);
    expect((await c.api('GET', `/api/memory/records?scope=${scope}&layer=daily`)).body).toEqual({ records: stored.body.records, total: 1 });

    expect(await c.api('DELETE', `/api/memory/${id}`)).toEqual(expect.objectContaining({ status: 200, body: { deleted: stored.body.records } }));
    expect(await a.api('GET', `/api/memory/${id}`)).toMatchObject({ status: 404, body: { code: 'MEMORY_NOT_FOUND' } });
    expect(await a.api('DELETE', `/api/memory/${id}`)).toMatchObject({ status: 404, body: { code: 'MEMORY_NOT_FOUND' } });
    for (const gateway of [a, b]) expect((await search(gateway, scope, 'office Wi-Fi')).body.hits).toEqual([]);
  });

  it('keeps every one of memories remembered through A, B and C at once in one scope, each found everywhere', async () => {
    const scope = 'device:crowd';
    const texts = Array.from({ length: 9 }, (_, i) => `crowd fact number ${i}`);
    const gateways = [a, b, c];
    const answers = await Promise.all(texts.map((text, i) => gateways[i % 3].api('POST', '/api/memory', { scope, text, category: 'fact' })));
    expect(answers.map((answer) => answer.status)).toEqual(texts.map(() => 201));
    const expected = texts.map((text) => recordId(scope, 'daily', text)).sort();
    for (const gateway of gateways) {
      const listed = (await gateway.api('GET', `/api/memory/records?scope=${scope}&layer=daily&limit=50`)).body;
      expect(listed.records.map((record: Json) => record.id).sort()).toEqual(expected);
      expect(listed.total).toBe(texts.length);
    }
    // Every section is in the one daily document, at a line of its own.
    const lines = answers.map((answer) => answer.body.records[0].source.line);
    expect(new Set(lines).size).toBe(texts.length);
  });

  it('finds on B and C what the task "remember that mom is Alice" remembered on A', async () => {
    const phone = await connectPhone('mem-phone', [a], { seenBy: [a, b, c] });
    phones.push(phone);
    const created = await a.api('POST', '/api/tasks', { deviceId: 'mem-phone', goal: 'remember that mom is Alice' });
    expect(created.status).toBe(202);
    const events = await SseClient.open(a.url(`/api/tasks/${created.body.taskId}/events`));
    await events.ended;
    const task = (await a.api('GET', `/api/tasks/${created.body.taskId}`)).body;
    expect(task.status).toBe('completed');
    expect(task.steps[0].plan).toMatchObject({ type: 'tool_call', name: 'memory_store' });

    const scope = 'device:mem-phone';
    const id = recordId(scope, 'daily', 'mom is Alice');
    for (const gateway of [b, c]) {
      expect(await storedHits(gateway, scope, 'mom')).toEqual([
        expect.objectContaining({ id, layer: 'daily', text: 'mom is Alice', category: 'contact', priority: 6, source: { file: `device/mem-phone/${today()}.md`, line: 3 } }),
      ]);
    }
  });

  it("flushes the session of A's tasks into the shared memory when A stops: B finds it", async () => {
    const scope = 'device:mem-phone';
    const created = await a.api('POST', '/api/tasks', { deviceId: 'mem-phone', goal: 'Turn on Wi-Fi' });
    expect(created.status).toBe(202);
    await (await SseClient.open(a.url(`/api/tasks/${created.body.taskId}/events`))).ended;
    // Until the flush, the task's turns are in A's session layer only.
    expect(await storedHits(b, scope, 'Wi-Fi')).toEqual([]);

    await a.stop();
    expect(a.log).toMatch(/flushed \d+ session turn\(s\) of 1 scope\(s\) at shutdown/);
    expect(a.log).not.toContain('could not flush');
    expect(await storedHits(b, scope, 'Wi-Fi')).toEqual([
      expect.objectContaining({ layer: 'daily', category: 'task', priority: 3, text: expect.stringMatching(/^Turn on Wi-Fi → /), source: { file: `device/mem-phone/${today()}.md`, line: expect.any(Number) } }),
    ]);
  });
});
