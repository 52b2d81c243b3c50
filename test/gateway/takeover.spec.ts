import type { RunningGateway } from '@mobileclaw/gateway';
import { findScreenNode, type ScreenNode } from '../support/screen-nodes';
import { SseClient } from '../support/sse-client';
import { gatewayUrl, testGateways, waitOnline } from '../support/test-gateways';

const streams: SseClient[] = [];
// Registered first so that streams close before their gateways do.
afterEach(() => {
  for (const s of streams.splice(0)) s.close();
});
const gateways = testGateways('mobileclaw-takeover-');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- response JSON that tests index freely
type Json = any;

async function api(gw: RunningGateway, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(gatewayUrl(gw, path), {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function open(gw: RunningGateway, path: string): Promise<SseClient> {
  const stream = await SseClient.open(gatewayUrl(gw, path));
  streams.push(stream);
  return stream;
}

/** The centre (device px) of the first node, depth-first, that `match` accepts on the phone's current screen (read with `ui_tree`, which a takeover leaves open to all). */
async function centreOf(gw: RunningGateway, match: (node: ScreenNode) => boolean): Promise<{ x: number; y: number }> {
  const { bounds } = await findScreenNode(gatewayUrl(gw, ''), 'sim-1', match);
  return { x: Math.round((bounds[0] + bounds[2]) / 2), y: Math.round((bounds[1] + bounds[3]) / 2) };
}

const ADA = { holderId: 'page-ada', holder: 'Ada' };

describe('takeover over REST (real gateway, simulated phone, rule-based planner)', () => {
  it('pauses a running task, refuses everyone else, records the person\'s taps as human steps, and completes after the hand back', async () => {
    const gw = await gateways.start();
    await waitOnline(gw, 'sim-1');
    const phone = gw.simulator!;
    const devices = await open(gw, '/api/devices/events');
    await devices.next((e) => e.event === 'devices');

    const created = await api(gw, 'POST', '/api/tasks', { deviceId: 'sim-1', goal: 'Turn on Wi-Fi' });
    expect(created.status).toBe(202);
    const taskId: string = created.body.taskId;
    const events = await open(gw, `/api/tasks/${taskId}/events`);
    await events.next((e) => e.event === 'step.observed');

    const taken = await api(gw, 'POST', '/api/devices/sim-1/takeover', ADA);
    expect(taken).toEqual({ status: 200, body: { deviceId: 'sim-1', holder: 'Ada', since: expect.any(String), expiresAt: expect.any(String), leaseMs: 30_000, taskId } });
    const since: string = taken.body.since;
    expect(Date.parse(taken.body.expiresAt) - Date.parse(since)).toBe(30_000);

    // The task waits at once, saying why and for whom.
    const paused = await api(gw, 'GET', `/api/tasks/${taskId}`);
    expect(paused.body).toMatchObject({ status: 'input_required', takeover: { reason: 'a person took over', holder: 'Ada', since } });
    const takenOver = await events.next((e) => e.event === 'task.taken_over');
    expect(JSON.parse(takenOver.data).data).toEqual({ status: 'input_required', takeover: { reason: 'a person took over', holder: 'Ada', since } });
    expect((await api(gw, 'GET', '/api/devices/sim-1')).body.controller).toEqual({ holder: 'Ada', since, expiresAt: taken.body.expiresAt });
    const controllerEvent = await devices.next((e) => e.event === 'device.controller');
    expect(JSON.parse(controllerEvent.data)).toMatchObject({ deviceId: 'sim-1', controller: { holder: 'Ada', since }, reason: 'taken' });

    // A second person sees who holds the phone; other controllers are refused and send nothing.
    const second = await api(gw, 'POST', '/api/devices/sim-1/takeover', { holderId: 'page-bob', holder: 'Bob' });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ code: 'DEVICE_CONTROLLED', title: 'A person controls this device', deviceId: 'sim-1', controller: { holder: 'Ada', since }, detail: `Ada controls sim-1 since ${since}; try again once they hand it back` });
    const command = await api(gw, 'POST', '/api/devices/sim-1/commands', { command: 'home' });
    expect(command.status).toBe(409);
    expect(command.body.code).toBe('DEVICE_CONTROLLED');
    const foreign = await api(gw, 'POST', '/api/devices/sim-1/takeover/actions', { holderId: 'page-bob', type: 'home' });
    expect(foreign.body.code).toBe('DEVICE_CONTROLLED');
    const offScreen = await api(gw, 'POST', '/api/devices/sim-1/takeover/actions', { holderId: 'page-ada', type: 'tap', x: 1080, y: 10 });
    expect(offScreen.status).toBe(400);
    expect(offScreen.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'x', message: 'x must be within the screen: 0 ≤ x < 1080 px (it is 1080)' }] });
    const mixed = await api(gw, 'POST', '/api/devices/sim-1/takeover/actions', { holderId: 'page-ada', type: 'home', text: 'x' });
    expect(mixed.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'text', message: 'text is not allowed for home' }] });

    // The person goes home, opens Settings and taps the Wi-Fi switch: three human steps of the task.
    const home = await api(gw, 'POST', '/api/devices/sim-1/takeover/actions', { holderId: 'page-ada', type: 'home' });
    expect(home.status).toBe(200);
    expect(home.body).toMatchObject({ taskId, stepIndex: expect.any(Number), result: { command: 'home', status: 'success' } });
    const settings = await centreOf(gw, (n) => n.text === 'Settings');
    const openSettings = await api(gw, 'POST', '/api/devices/sim-1/takeover/actions', { holderId: 'page-ada', type: 'tap', ...settings });
    expect(openSettings.body.result.command).toBe('click');
    expect(phone.ui.state.screen).toBe('settings');
    const wifi = await centreOf(gw, (n) => n.class === 'android.widget.Switch' && n.desc === 'Wi-Fi');
    const tap = await api(gw, 'POST', '/api/devices/sim-1/takeover/actions', { holderId: 'page-ada', type: 'tap', ...wifi });
    expect(tap.status).toBe(200);
    expect(phone.ui.state.wifi).toBe(true);
    expect([openSettings.body.stepIndex, tap.body.stepIndex]).toEqual([home.body.stepIndex + 1, home.body.stepIndex + 2]);

    const whilePaused = await api(gw, 'GET', `/api/tasks/${taskId}`);
    expect(whilePaused.body.status).toBe('input_required');
    const humanSteps = whilePaused.body.steps.filter((s: Json) => s.actor === 'human');
    expect(humanSteps.map((s: Json) => [s.index, s.holder, s.plan.action, s.result.status])).toEqual([
      [home.body.stepIndex, 'Ada', { command: 'home' }, 'success'],
      [home.body.stepIndex + 1, 'Ada', { command: 'click', ...settings }, 'success'],
      [home.body.stepIndex + 2, 'Ada', { command: 'click', ...wifi }, 'success'],
    ]);
    expect(humanSteps[2].plan.reasoning).toBe('by Ada');
    // Each has the screenshot of the screen it was taken on, like an agent step.
    const image = await fetch(gatewayUrl(gw, humanSteps[2].observation.screenshotUrl));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');

    const handedBack = await fetch(gatewayUrl(gw, '/api/devices/sim-1/takeover?holderId=page-ada'), { method: 'DELETE' });
    expect(handedBack.status).toBe(200);
    expect(await handedBack.json()).toEqual({ holder: 'Ada', since, expiresAt: expect.any(String) });
    await events.ended;
    const types = events.events.map((e) => e.event);
    expect(types.indexOf('task.handed_back')).toBeGreaterThan(types.indexOf('task.taken_over'));
    expect(types.at(-1)).toBe('task.completed');
    const released = await devices.next((e) => e.event === 'device.controller' && JSON.parse(e.data).controller === null);
    expect(JSON.parse(released.data)).toMatchObject({ deviceId: 'sim-1', reason: 'handed_back' });

    const done = await api(gw, 'GET', `/api/tasks/${taskId}`);
    expect(done.body).toMatchObject({ status: 'completed' });
    expect(done.body.takeover).toBeUndefined();
    expect((await api(gw, 'GET', '/api/devices/sim-1')).body.controller).toBeUndefined();
    // Everyone may act again.
    expect((await api(gw, 'POST', '/api/devices/sim-1/commands', { command: 'home' })).status).toBe(200);
    const again = await api(gw, 'DELETE', '/api/devices/sim-1/takeover?holderId=page-ada');
    expect(again.body.code).toBe('CONTROL_NOT_HELD');
  }, 60_000);

  it('frees the phone when it disconnects', async () => {
    const gw = await gateways.start();
    await waitOnline(gw, 'sim-1');
    expect((await api(gw, 'POST', '/api/devices/sim-1/takeover', ADA)).status).toBe(200);
    const devices = await open(gw, '/api/devices/events');
    await devices.next((e) => e.event === 'devices');
    await gw.simulator!.stop();
    const released = await devices.next((e) => e.event === 'device.controller');
    expect(JSON.parse(released.data)).toMatchObject({ deviceId: 'sim-1', controller: null, reason: 'disconnected' });
    expect((await api(gw, 'GET', '/api/devices/sim-1')).body.controller).toBeUndefined();
  }, 60_000);
});
