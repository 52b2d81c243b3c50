import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SimulatedPhone } from '@mobileclaw/simulator';
import { GatewayProcess, type Json } from '../support/gateway-process';
import { SseClient } from '../support/sse-client';

/**
 * Restart safety: the gateway process is killed with SIGKILL in the middle of a task and
 * started again on the same data directory. Finished tasks, recorded steps and events survive; the
 * unfinished tasks are `interrupted`; no event is lost or duplicated.
 */
const TOKEN = 'restart-test-device-token-0123456789';

const startGatewayProcess = (dataDir: string): Promise<GatewayProcess> => GatewayProcess.start({ MOBILECLAW_DATA_DIR: dataDir, MOBILECLAW_SIM: 'off', MOBILECLAW_DEVICE_TOKEN: TOKEN });

const api = (child: GatewayProcess, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> => child.api(method, path, body);

async function allEvents(child: GatewayProcess, taskId: string): Promise<Json[]> {
  const stream = await SseClient.open(child.url(`/api/tasks/${taskId}/events`));
  await stream.ended;
  return stream.json();
}

describe('restart safety (SIGKILL mid-task)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mobileclaw-restart-'));
  const children: GatewayProcess[] = [];
  let phone: SimulatedPhone | undefined;

  afterAll(async () => {
    await phone?.stop();
    for (const child of children) await child.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps finished tasks, steps and events, and marks unfinished tasks interrupted', async () => {
    const first = await startGatewayProcess(dataDir);
    children.push(first);
    phone = new SimulatedPhone({ host: '127.0.0.1', port: first.devicePort, token: TOKEN, deviceId: 'phone-1', reconnect: false });
    const online = new Promise<void>((ready) => phone!.once('welcome', () => ready()));
    await phone.start();
    await online;

    // A task that finishes before the crash.
    const done = await api(first, 'POST', '/api/tasks', { deviceId: 'phone-1', goal: 'Turn on Bluetooth' });
    expect(done.status).toBe(202);
    const doneEvents = await allEvents(first, done.body.taskId);
    expect(doneEvents[doneEvents.length - 1].type).toBe('task.completed');
    const doneTask = (await api(first, 'GET', `/api/tasks/${done.body.taskId}`)).body;

    // A task killed mid-step: the phone stops answering after the first action, then the process dies.
    const running = await api(first, 'POST', '/api/tasks', { deviceId: 'phone-1', goal: 'Turn on Wi-Fi' });
    const stream = await SseClient.open(first.url(`/api/tasks/${running.body.taskId}/events`));
    await stream.next((e) => e.event === 'step.acted');
    phone.faults.neverReply = true;
    await stream.next((e) => e.event === 'step.started' && JSON.parse(e.data).data.index === 1);
    const queued = await api(first, 'POST', '/api/tasks', { deviceId: 'phone-1', goal: 'Go home' });
    expect(queued.body.status).toBe('queued');
    const beforeKill = (await api(first, 'GET', `/api/tasks/${running.body.taskId}`)).body;
    const eventsBeforeKill = stream.json();
    await first.kill();
    await phone.stop();

    const second = await startGatewayProcess(dataDir);
    children.push(second);
    const after = (await api(second, 'GET', `/api/tasks/${running.body.taskId}`)).body;
    expect(after).toMatchObject({ status: 'interrupted', error: { code: 'INTERRUPTED' }, stepCount: beforeKill.stepCount });
    expect(after.steps).toEqual(beforeKill.steps);
    const replayed = await allEvents(second, running.body.taskId);
    expect(replayed.slice(0, eventsBeforeKill.length)).toEqual(eventsBeforeKill);
    expect(replayed.slice(eventsBeforeKill.length).map((e: Json) => e.type)).toEqual(['task.interrupted']);
    expect(replayed.map((e: Json) => e.id)).toEqual(replayed.map((_: Json, i: number) => i + 1));

    expect((await api(second, 'GET', `/api/tasks/${queued.body.taskId}`)).body).toMatchObject({ status: 'interrupted' });
    expect((await api(second, 'GET', `/api/tasks/${done.body.taskId}`)).body).toEqual(doneTask);
    expect(await allEvents(second, done.body.taskId)).toEqual(doneEvents);
    const list = (await api(second, 'GET', '/api/tasks?deviceId=phone-1')).body.tasks.map((t: Json) => [t.goal, t.status]);
    expect(list).toEqual([
      ['Go home', 'interrupted'],
      ['Turn on Wi-Fi', 'interrupted'],
      ['Turn on Bluetooth', 'completed'],
    ]);
  }, 60_000);
});
