import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MobileClawClient, type MobileClawClientOptions } from '@mobileclaw/client';
import type { RunningGateway } from '@mobileclaw/gateway';
import { SseClient } from './sse-client';
import { TcpProxy } from './tcp-proxy';
import { gatewayUrl, testGateways, waitOnline } from './test-gateways';

export interface ClientSdkHarness {
  /** A real gateway on free ports whose simulated phone sim-1 is online; `extra` overrides the env. */
  start(extra?: Record<string, string>): Promise<RunningGateway>;
  /** A client with short recovery pauses (creation 20/40/80 ms, stream 20/40/80/160 ms) and a store directory of its own (or `storeDir`). */
  newClient(baseUrl: string, extra?: Partial<MobileClawClientOptions>): MobileClawClient;
  /** A fresh store directory, removed after the spec file. */
  storeDir(): string;
  /** A TCP proxy in front of the gateway's HTTP port, closed after the test. */
  proxyTo(gw: RunningGateway): Promise<TcpProxy>;
}

/**
 * Gateways, clients and proxies for a spec file of the client SDK: call at its top level. Clients
 * are closed and proxies stopped after each test, before their gateways; store directories are
 * removed after the file.
 */
export function clientSdkHarness(prefix: string): ClientSdkHarness {
  const proxies: TcpProxy[] = [];
  const clients: MobileClawClient[] = [];
  const storeDirs: string[] = [];
  // Registered before testGateways' own hooks, so that clients and proxies go before their gateways do.
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    for (const proxy of proxies.splice(0)) await proxy.close();
  });
  afterAll(() => {
    for (const dir of storeDirs) rmSync(dir, { recursive: true, force: true });
  });
  const gateways = testGateways(prefix);
  const storeDir = (): string => {
    const dir = mkdtempSync(join(tmpdir(), 'mobileclaw-client-store-'));
    storeDirs.push(dir);
    return dir;
  };
  return {
    storeDir,
    async start(extra = {}) {
      const gw = await gateways.start(extra);
      await waitOnline(gw, 'sim-1');
      return gw;
    },
    newClient(baseUrl, extra = {}) {
      const client = new MobileClawClient({ baseUrl, storeDir: extra.storeDir ?? storeDir(), creationRetry: { delaysMs: [20, 40, 80] }, streamRecovery: { delaysMs: [20, 40, 80, 160] }, ...extra });
      clients.push(client);
      return client;
    },
    async proxyTo(gw) {
      const proxy = await TcpProxy.start(gw.httpPort);
      proxies.push(proxy);
      return proxy;
    },
  };
}

/** The gateway event types the SDK shows the app (one app event each). */
export const SHOWN_TYPES = ['task.accepted', 'task.queued', 'task.started', 'task.resumed', 'task.taken_over', 'task.handed_back', 'step.planned', 'step.acted', 'task.input_required', 'task.completed', 'task.failed', 'task.canceled', 'task.interrupted'];

/** The ids of the task's stored events the app must have seen, from a fresh replay of its stream (a tool call's `task.input_required` is the SDK's to answer, not shown). */
export async function storedShownIds(gw: RunningGateway, taskId: string): Promise<number[]> {
  const replay = await SseClient.open(gatewayUrl(gw, `/api/tasks/${taskId}/events`));
  await replay.ended;
  return replay.events.filter((e) => SHOWN_TYPES.includes(e.event) && !(e.event === 'task.input_required' && 'toolCall' in (JSON.parse(e.data) as { data: object }).data)).map((e) => Number(e.id));
}

/** The gateway's task id of an invocation (what the app never needs; tests check the gateway with it). */
export async function taskIdOf(client: MobileClawClient, invocationRef: string): Promise<string> {
  return (await client.get(invocationRef)).taskRef!;
}

/** The gateway's tasks of a conversation (`GET /api/tasks?contextId=`), newest first. */
export async function tasksOf(gw: RunningGateway, conversationId: string): Promise<{ taskId: string; goal: string }[]> {
  const res = await fetch(gatewayUrl(gw, `/api/tasks?contextId=${encodeURIComponent(conversationId)}`));
  return ((await res.json()) as { tasks: { taskId: string; goal: string }[] }).tasks;
}
