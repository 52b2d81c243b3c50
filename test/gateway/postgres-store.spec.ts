import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningGateway } from '@mobileclaw/gateway';
import { PostgresDatabase, PostgresTaskRepository } from '@mobileclaw/store-postgres';
import { startPostgresServer, type PostgresServer } from '@mobileclaw/store-postgres/testing';
import { GatewayProcess } from '../support/gateway-process';
import { SseClient } from '../support/sse-client';
import { gatewayUrl, testGateways, waitOnline } from '../support/test-gateways';

/**
 * `MOBILECLAW_DATABASE_URL`: real gateways whose tasks, steps, events and screenshots live in a real
 * PostgreSQL server, shared by instances, as is the agent's memory (no SQLite file in the data directory).
 */
const streams: SseClient[] = [];
afterEach(() => {
  for (const s of streams.splice(0)) s.close();
});
const gateways = testGateways('mobileclaw-pg-gateway-');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON that tests index freely
type Json = any;

async function get(gw: RunningGateway, path: string): Promise<{ status: number; body: Json }> {
  const res = await fetch(gatewayUrl(gw, path));
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** Every event of a task's stream, to its end (a finished task's stream replays the store and ends). */
async function allEvents(gw: RunningGateway, taskId: string): Promise<{ id: string | undefined; event: string | undefined }[]> {
  const stream = await SseClient.open(gatewayUrl(gw, `/api/tasks/${taskId}/events`));
  streams.push(stream);
  await stream.ended;
  return stream.events.map((e) => ({ id: e.id, event: e.event }));
}

describe('gateway with MOBILECLAW_DATABASE_URL (real PostgreSQL)', () => {
  let server: PostgresServer;
  beforeAll(async () => {
    server = await startPostgresServer();
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('keeps a task, its steps, events and screenshots in PostgreSQL, where another instance reads them', async () => {
    const url = await server.createDatabase('shared_tasks');
    const a = await gateways.start({ MOBILECLAW_DATABASE_URL: url });
    await waitOnline(a, 'sim-1');
    const created = await fetch(gatewayUrl(a, '/api/tasks'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ deviceId: 'sim-1', goal: 'Turn on Wi-Fi' }) });
    expect(created.status).toBe(202);
    const { taskId } = (await created.json()) as { taskId: string };
    const eventsOnA = await allEvents(a, taskId);
    expect(eventsOnA.at(-1)?.event).toBe('task.completed');
    const task = await get(a, `/api/tasks/${taskId}`);
    expect(task.body).toMatchObject({ taskId, status: 'completed' });

    // Another instance on the same database, without a phone and with a data directory of its own.
    const b = await gateways.start({ MOBILECLAW_DATABASE_URL: url, MOBILECLAW_SIM: 'off' });
    expect(await get(b, `/api/tasks/${taskId}`)).toEqual({ status: 200, body: task.body });
    expect(await allEvents(b, taskId)).toEqual(eventsOnA);
    const screenshot = await fetch(gatewayUrl(b, `/api/tasks/${taskId}/steps/0/screenshot`));
    expect(screenshot.status).toBe(200);
    expect(screenshot.headers.get('content-type')).toMatch(/^image\//);

    // The store itself holds it, with gap-free event ids.
    const database = PostgresDatabase.open({ url });
    try {
      const repository = new PostgresTaskRepository(database);
      expect((await repository.getTask(taskId))?.status).toBe('completed');
      expect((await repository.listEvents(taskId)).map((event) => event.id)).toEqual(eventsOnA.map((_, i) => i + 1));
    } finally {
      await database.close();
    }
    // Tasks and the memory are both in PostgreSQL: the data directory has no SQLite file at all.
    expect(existsSync(join(a.config.dataDir, 'mobileclaw.db'))).toBe(false);
  });

  it('fails the start with one error naming MOBILECLAW_DATABASE_URL, never its password, when the server cannot be reached', async () => {
    const closed = createServer();
    await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((done) => closed.close(() => done()));
    const start = gateways.start({ MOBILECLAW_DATABASE_URL: `postgres://mobileclaw:s3cret-password@127.0.0.1:${port}/tasks`, MOBILECLAW_SIM: 'off' });
    await expect(start).rejects.toThrow(
      new RegExp(`^cannot reach or migrate the PostgreSQL database of MOBILECLAW_DATABASE_URL \\(127\\.0\\.0\\.1:${port}/tasks\\): the PostgreSQL store failed \\(ECONNREFUSED\\): .*ECONNREFUSED 127\\.0\\.0\\.1:${port} — is the server running and the database created\\?$`),
    );
    await expect(start).rejects.not.toThrow(/s3cret-password/);
    // The `mobileclaw` process prints that error as its one line: no stack, no framework log lines.
    const dataDir = mkdtempSync(join(tmpdir(), 'mobileclaw-pg-start-'));
    try {
      const output = await GatewayProcess.failedStart({ MOBILECLAW_DATA_DIR: dataDir, MOBILECLAW_DATABASE_URL: `postgres://mobileclaw:s3cret-password@127.0.0.1:${port}/tasks`, MOBILECLAW_SIM: 'off' });
      expect(output).toMatch(new RegExp(`^mobileclaw: cannot reach or migrate the PostgreSQL database of MOBILECLAW_DATABASE_URL \\(127\\.0\\.0\\.1:${port}/tasks\\): [^\\n]* — is the server running and the database created\\?\\n$`));
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('is not ready while PostgreSQL is down, and ready again once it is back, without a restart', async () => {
    const url = await server.createDatabase('readiness');
    const gw = await gateways.start({ MOBILECLAW_DATABASE_URL: url, MOBILECLAW_SIM: 'off' });
    expect(await get(gw, '/health/ready')).toMatchObject({ status: 200, body: { info: { 'tasks-store': { status: 'up' } } } });
    await server.kill();
    const down = await get(gw, '/health/ready');
    expect(down.status).toBe(503);
    expect(down.body.error['tasks-store']).toMatchObject({ status: 'down' });
    await server.restart();
    expect(await get(gw, '/health/ready')).toMatchObject({ status: 200, body: { info: { 'tasks-store': { status: 'up' } } } });
  });
});
