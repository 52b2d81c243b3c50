import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveLlmPlannerOptions, startGateway, type RunningGateway } from '@mobileclaw/gateway';
import { SseClient } from '../support/sse-client';

/**
 * The gateway both evaluations run their goals through: the real one, in-process (HTTP API, SQLite
 * store in a temporary directory, the configured planner), and the few HTTP calls they make to it.
 */

/** A running evaluation gateway; `close()` stops it and removes its data directory. */
export interface EvalGateway {
  gateway: RunningGateway;
  /** `rule-based`, or `llm:<model>`: the planner the gateway records on tasks. */
  planner: string;
  close(): Promise<void>;
}

const TERMINAL_EVENTS = new Set(['task.completed', 'task.failed', 'task.canceled', 'task.interrupted']);

/** Name of the planner `env` configures, as the gateway records it on tasks. */
export function configuredPlanner(env: Record<string, string | undefined>): string {
  const llm = resolveLlmPlannerOptions(env);
  return llm ? `llm:${llm.model}` : 'rule-based';
}

/**
 * The settle wait for phones replaying a recorded screen, in ms (`MOBILECLAW_SETTLE_*`): such a
 * screen changes at once (a tapped field takes the focus) or never, so the wait only has to see two
 * equal trees (one 100 ms pause) or run out soon. A longer wait would observe the very same tree, so
 * no run can be judged differently (an action without effect, a false completion) for it; with the
 * default 2 000 ms every action on a recorded screen costs 2 s.
 */
export const REPLAY_SETTLE_SETTINGS: Readonly<Record<string, string>> = { MOBILECLAW_SETTLE_TIMEOUT_MS: '300', MOBILECLAW_SETTLE_POLL_MS: '100' };

/**
 * Starts a gateway on free ports with no built-in simulator and the planner `env` selects
 * (`MOBILECLAW_LLM_*`, see `resolveLlmPlannerOptions`; otherwise the rule-based one); `settings`
 * (gateway variables such as {@link REPLAY_SETTLE_SETTINGS}) are passed on as they are.
 * @throws Error when the gateway cannot start (the data directory is removed again).
 */
export async function startEvalGateway(env: Record<string, string | undefined>, settings: Readonly<Record<string, string>> = {}): Promise<EvalGateway> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mobileclaw-eval-'));
  try {
    const gateway = await startGateway({
      ...Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith('MOBILECLAW_LLM_'))),
      ...settings,
      MOBILECLAW_HTTP_PORT: '0',
      MOBILECLAW_DEVICE_PORT: '0',
      MOBILECLAW_DATA_DIR: dataDir,
      MOBILECLAW_LOG_LEVEL: 'silent',
      MOBILECLAW_SIM: 'off',
      // A token of our own: the gateway would otherwise generate one and announce it on stdout.
      MOBILECLAW_DEVICE_TOKEN: randomBytes(24).toString('base64url'),
    });
    return {
      gateway,
      planner: configuredPlanner(env),
      close: async () => {
        try {
          await gateway.close();
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
      },
    };
  } catch (err) {
    rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Runs `work` on `given`, or on a gateway started for it (from `env` and `settings`, see
 * {@link startEvalGateway}) and stopped after it, whatever the outcome.
 * @throws whatever `work` or the gateway's start throws.
 */
export async function withEvalGateway<T>(
  env: Record<string, string | undefined>,
  given: RunningGateway | undefined,
  work: (gateway: RunningGateway) => Promise<T>,
  settings: Readonly<Record<string, string>> = {},
): Promise<T> {
  if (given !== undefined) return work(given);
  const own = await startEvalGateway(env, settings);
  try {
    return await work(own.gateway);
  } finally {
    await own.close();
  }
}

/**
 * One JSON call to the gateway's REST API; resolves to the parsed body (`undefined` when empty).
 * @throws Error naming the method, path, status and body when the answer is not 2xx.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON
export async function gatewayApi(gateway: RunningGateway, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`http://127.0.0.1:${gateway.httpPort}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * Reads a task's event stream until the task ends, answering each approval request with `approve`.
 * A task still running after `timeoutMs` is canceled (a watchdog, not a pacing).
 * @returns how many approvals were requested.
 * @throws Error when the event stream cannot be opened.
 */
export async function followTask(gateway: RunningGateway, taskId: string, options: { approve: boolean; timeoutMs: number }): Promise<number> {
  const stream = await SseClient.open(`http://127.0.0.1:${gateway.httpPort}/api/tasks/${taskId}/events`);
  const watchdog = setTimeout(() => void gatewayApi(gateway, 'POST', `/api/tasks/${taskId}/cancel`).catch(() => undefined), options.timeoutMs);
  try {
    if (stream.status !== 200) throw new Error(`GET /api/tasks/${taskId}/events answered ${stream.status}`);
    let approvals = 0;
    let lastId = 0;
    for (;;) {
      const event = await Promise.race([
        stream.next((e) => Number(e.id) > lastId && (e.event === 'task.input_required' || TERMINAL_EVENTS.has(e.event))),
        stream.ended.then(() => undefined),
      ]);
      if (event === undefined || TERMINAL_EVENTS.has(event.event)) return approvals;
      lastId = Number(event.id);
      approvals++;
      await gatewayApi(gateway, 'POST', `/api/tasks/${taskId}/approval`, { approve: options.approve });
    }
  } finally {
    clearTimeout(watchdog);
    stream.close();
  }
}

/**
 * Runs `work` on every item, at most `limit` at a time; results in input order.
 * @throws RangeError when `limit` is not a positive integer.
 */
export async function mapConcurrently<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency must be a positive integer, got ${limit}`);
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** `value` rounded to `decimals` places. */
export function round(value: number, decimals: number): number {
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}
