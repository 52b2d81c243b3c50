import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGateway, type RunningGateway } from '@mobileclaw/gateway';
import { SimulatedPhone } from '@mobileclaw/simulator';
import { createSkillsFolderSource } from '@mobileclaw/skills-folder';
import { parseUiHierarchyXml } from '@mobileclaw/ui-hierarchy';
import { SseClient } from '../support/sse-client';
import { emptyMemorySummary, isMemorySummaryRequest, toolCallCompletion } from '../support/chat-completions';

/**
 * Skills learned from tasks, on a real gateway with its embedded simulated phone (`sim-1`) and a
 * second simulated phone showing a recorded sign-up form: tasks planned by the LLM planner against a
 * local Chat Completions server that counts its requests, saved as SKILL.md skills, and replayed.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- request and answer JSON read freely
type Json = any;

const SECRET = 's3cret-Hunter2';

function answer(name: string, args: Record<string, unknown>): Json {
  return toolCallCompletion(name, args, 'fake-vl');
}

/** The fake model: reads the goal, the element lines and the steps so far, and answers as a tool-calling model would. */
function decide(body: Json): Json {
  const user = body.messages.filter((m: Json) => m.role === 'user').pop();
  const text: string = typeof user.content === 'string' ? user.content : user.content.find((p: Json) => p.type === 'text').text;
  const goal = /^Goal: (.*)$/m.exec(text)![1]!;
  const lines = text.split('\n').filter((line) => /^\[\d+\] /.test(line));
  const indexOf = (line: string): number => Number(/^\[(\d+)\]/.exec(line)![1]);
  const typing = /^type (.+) into the address bar$/.exec(goal);
  if (typing) {
    const bar = lines.find((line) => line.includes('id=com.android.chrome:id/url_bar'));
    if (!bar) return answer('open_app', { reasoning: 'the address bar is in the browser', package: 'com.android.chrome' });
    if (bar.includes(`EditText ${JSON.stringify(typing[1])}`)) return answer('done', { reasoning: 'the bar shows it', summary: `The address bar shows ${typing[1]}.` });
    if (!/ focused/.test(bar)) return answer('tap', { reasoning: 'focus the address bar', element_index: indexOf(bar) });
    return answer('type_text', { reasoning: 'type the text', text: typing[1], clear: true, element_index: indexOf(bar) });
  }
  if (goal === 'Turn on Wi-Fi') {
    const wifi = lines.find((line) => line.includes('desc="Wi-Fi"'));
    if (!wifi) return answer('open_app', { reasoning: 'Wi-Fi lives in Settings', package: 'com.android.settings' });
    if (/ unchecked/.test(wifi)) return answer('tap', { reasoning: 'the Wi-Fi switch is off', element_index: indexOf(wifi) });
    return answer('done', { reasoning: 'the switch is on', summary: 'Wi-Fi is on.' });
  }
  const signIn = /^sign up as (\S+) with password (\S+)$/.exec(goal);
  if (signIn) {
    // Tap the mail field, type, tap the password field, type, then bring the app to the front (the
    // recorded screen shows no typed text: an action whose effect shows before done), done.
    const done = (text.match(/^#\d+ /gm) ?? []).length;
    const field = lines.find((line) => line.includes(done < 2 ? 'label="Mail Address"' : 'label="Password"'));
    if (done === 4) return answer('open_app', { reasoning: 'back to the form', package: 'jp.co.app.android' });
    if (done === 5 || !field) return answer('done', { reasoning: 'both fields are filled', summary: 'Filled in.' });
    if (done % 2 === 0) return answer('tap', { reasoning: 'focus the field', element_index: indexOf(field) });
    // No element_index: the recorded screen does not report the focus (the tapped field gets the text).
    return answer('type_text', { reasoning: 'type', text: done < 2 ? signIn[1] : signIn[2], clear: true });
  }
  return answer('fail', { reasoning: 'unknown goal', reason: `cannot do ${goal}` });
}

describe('learned skills: save a task as a SKILL.md skill, replay it without a model', () => {
  const requests: Json[] = [];
  let model: Server;
  let gateway: RunningGateway;
  let form: SimulatedPhone;
  const dataDir = mkdtempSync(join(tmpdir(), 'mobileclaw-learned-'));
  /** A second skills root holding a skill `weather-report`: a learned skill may not take its name. */
  const extraSkills = join(dataDir, 'extra-skills');
  const url = (path: string): string => `http://127.0.0.1:${gateway.httpPort}${path}`;
  const post = async (path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const res = await fetch(url(path), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
    return { status: res.status, body: await res.json() };
  };
  /** Waits for the task's event stream to end and returns the task with its steps. */
  const finished = async (taskId: string): Promise<Json> => {
    const stream = await SseClient.open(url(`/api/tasks/${taskId}/events`));
    await stream.ended;
    return (await fetch(url(`/api/tasks/${taskId}`))).json();
  };
  const run = async (deviceId: string, goal: string): Promise<Json> => {
    const { status, body } = await post('/api/tasks', { deviceId, goal });
    expect(status).toBe(202);
    return finished(body.taskId);
  };
  const urlBar = (): Json => {
    const find = (nodes: Json[]): Json => nodes.map((n) => (n.id === 'url_bar' || n.resourceId === 'com.android.chrome:id/url_bar' ? n : find(n.children ?? []))).find(Boolean);
    return find(gateway.simulator!.ui.uiTree().nodes);
  };

  beforeAll(async () => {
    model = createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (raw += chunk));
      req.on('end', () => {
        const body = JSON.parse(raw);
        res.writeHead(200, { 'content-type': 'application/json' });
        // The gateway summarises its sessions into memory when it stops: those requests keep nothing.
        if (isMemorySummaryRequest(body)) return void res.end(JSON.stringify(emptyMemorySummary()));
        requests.push(body);
        res.end(JSON.stringify(decide(body)));
      });
    });
    await new Promise<void>((resolve) => model.listen(0, '127.0.0.1', resolve));
    mkdirSync(join(extraSkills, 'weather-report'), { recursive: true });
    writeFileSync(join(extraSkills, 'weather-report', 'SKILL.md'), '---\nname: weather-report\ndescription: Read the weather.\n---\nOpen the weather app.\n');
    gateway = await startGateway({
      MOBILECLAW_SKILLS_DIRS: extraSkills,
      MOBILECLAW_HTTP_PORT: '0',
      MOBILECLAW_DEVICE_PORT: '0',
      MOBILECLAW_DATA_DIR: dataDir,
      MOBILECLAW_LOG_LEVEL: 'silent',
      MOBILECLAW_LLM_BASE_URL: `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`,
      MOBILECLAW_LLM_API_KEY: 'sk-test-key',
      MOBILECLAW_LLM_MODEL: 'fake-vl',
      // The recorded form never changes on screen: each step would wait the whole settle time for a change.
      MOBILECLAW_SETTLE_TIMEOUT_MS: '300',
      MOBILECLAW_SETTLE_POLL_MS: '50',
    });
    const devices = await SseClient.open(url('/api/devices/events'));
    const online = (id: string) => devices.next((e) => (e.event === 'device.connected' && JSON.parse(e.data).deviceId === id) || (e.event === 'devices' && JSON.parse(e.data).devices.some((d: Json) => d.deviceId === id)));
    await online('sim-1');
    const recording = parseUiHierarchyXml(readFileSync(join(__dirname, '../fixtures/screens/signup-form-textfields.xml'), 'utf8'));
    form = new SimulatedPhone({ host: '127.0.0.1', port: gateway.devicePort, token: gateway.deviceToken, deviceId: 'form-1', reconnect: false, replay: recording });
    await form.start();
    await online('form-1');
    devices.close();
  });

  afterAll(async () => {
    await form?.stop();
    await gateway.close();
    model.closeAllConnections();
    await new Promise((resolve) => model.close(resolve));
    rmSync(dataDir, { recursive: true, force: true });
  });

  let learned: Json;

  it('saves a completed task as a SKILL.md folder: each target by what identifies it on screen, the typed text a parameter', async () => {
    learned = await run('sim-1', 'type hello into the address bar');
    expect(learned).toMatchObject({ status: 'completed', planner: 'llm:fake-vl', stepCount: 4 });
    expect(learned.steps.map((s: Json) => s.plan.action?.command ?? s.plan.type)).toEqual(['open', 'click', 'input', 'done']);

    const saved = await post(`/api/tasks/${learned.taskId}/skill`, { name: 'browser-address' });
    const location = join(dataDir, 'skills', 'browser-address', 'SKILL.md');
    const parameter = { name: 'search_or_type_web_address', description: 'Text typed into EditText "Search or type web address" (step 3).', example: 'hello' };
    expect(saved).toEqual({ status: 201, body: { skill: { name: 'browser-address', description: 'type {{search_or_type_web_address}} into the address bar', location: 'workspace:browser-address/SKILL.md', parameters: [parameter], steps: 3 } } });

    const text = readFileSync(location, 'utf8');
    const learnedAt = /learnedAt: (.*)/.exec(text)![1];
    expect(Date.parse(learnedAt!)).toBeGreaterThanOrEqual(Date.parse(learned.endedAt));
    expect(text).toBe(`---
name: browser-address
description: type {{search_or_type_web_address}} into the address bar
metadata:
  mobileclaw:
    inputSchema:
      type: object
      properties:
        search_or_type_web_address:
          type: string
          description: Text typed into EditText "Search or type web address" (step 3).
          examples: [ hello ]
    learned:
      from:
        taskId: ${learned.taskId}
        goal: type {{search_or_type_web_address}} into the address bar
        planner: llm:fake-vl
        deviceId: sim-1
        learnedAt: ${learnedAt}
      parameters:
        - name: search_or_type_web_address
          description: Text typed into EditText "Search or type web address" (step 3).
          example: hello
      steps:
        - action: { command: open, app: com.android.chrome }
          package: com.google.android.apps.nexuslauncher
        - action: { command: click, x: 435, y: 147 }
          package: com.android.chrome
          target:
            type: EditText
            label: Search or type web address
            resourceId: com.android.chrome:id/url_bar
            package: com.android.chrome
            bounds: [ 21, 84, 849, 210 ]
            editable: true
        - action: { command: input, text: "{{search_or_type_web_address}}", clear: true }
          package: com.android.chrome
          target:
            type: EditText
            label: Search or type web address
            resourceId: com.android.chrome:id/url_bar
            package: com.android.chrome
            bounds: [ 21, 84, 849, 210 ]
            editable: true
      final:
        package: com.android.chrome
        evidence:
          type: EditText
          text: "{{search_or_type_web_address}}"
          label: Search or type web address
          resourceId: com.android.chrome:id/url_bar
          package: com.android.chrome
          bounds: [ 21, 84, 849, 210 ]
          editable: true
---

# browser-address

Learned from task \`${learned.taskId}\` ("type {{search_or_type_web_address}} into the address bar"), planned by \`llm:fake-vl\` on \`sim-1\`, ${learnedAt}.

## Parameters

- \`search_or_type_web_address\`: Text typed into EditText "Search or type web address" (step 3). Example: \`hello\`.

## Steps

1. Open the app \`com.android.chrome\`.
2. Tap EditText "Search or type web address" (id com.android.chrome:id/url_bar) in \`com.android.chrome\`.
3. Type \`{{search_or_type_web_address}}\` into EditText "Search or type web address" (id com.android.chrome:id/url_bar), replacing its text.
4. Check that the final screen of \`com.android.chrome\` shows EditText "Search or type web address" (id com.android.chrome:id/url_bar) showing \`{{search_or_type_web_address}}\`.

## Replay

\`POST /api/skills/browser-address/replay\` with \`{"deviceId":"<device id>","arguments":{"search_or_type_web_address":"hello"}}\` runs these steps without a model.
Each step runs only when its element is on screen (same app, class, resource id, description, label and naming text),
on the element's current position; where a screen differs, the task hands over to the planner and says so.
Replay reads \`metadata.mobileclaw.learned\` above: edit the steps there; this list describes them.
`);

    // The skills folder source lists it like any skill a person wrote.
    const source = createSkillsFolderSource({ dataDir });
    const listed = await source.list();
    await source.close();
    expect(listed.map((t) => ({ name: t.name, description: t.description, mode: t.mode }))).toEqual([
      { name: 'browser-address', description: 'type {{search_or_type_web_address}} into the address bar', mode: 'SKILL' },
    ]);
  });

  it('replays it with another text on the simulated phone: the same goal reached with no model call', async () => {
    await post('/api/devices/sim-1/commands', { command: 'home' });
    const before = requests.length;
    const started = await post('/api/skills/browser-address/replay', { deviceId: 'sim-1', arguments: { search_or_type_web_address: 'world' } });
    expect(started).toMatchObject({ status: 202, body: { planner: 'replay:browser-address', goal: 'type world into the address bar', deviceId: 'sim-1' } });
    const task = await finished(started.body.taskId);
    expect(task).toMatchObject({ status: 'completed', stepCount: 4, summary: 'Replayed the learned skill "browser-address" (3 steps); the final screen shows what it showed when learned.' });
    expect(task.steps.map((s: Json) => s.plan.reasoning)).toEqual([
      'Replaying step 1 of 3 of the learned skill "browser-address" (no planner call).',
      'Replaying step 2 of 3 of the learned skill "browser-address" (no planner call).',
      'Replaying step 3 of 3 of the learned skill "browser-address" (no planner call).',
      task.summary,
    ]);
    expect(task.steps[2].plan.action).toEqual({ command: 'input', text: 'world', clear: true });
    expect(requests.length - before).toBe(0);
    expect(urlBar().text).toBe('world');
  });

  it('hands over to the planner when a screen differs from the learned one, and says so in the step', async () => {
    expect(gateway.simulator!.ui.state.wifi).toBe(false);
    const wifi = await run('sim-1', 'Turn on Wi-Fi');
    expect(wifi).toMatchObject({ status: 'completed' });
    expect((await post(`/api/tasks/${wifi.taskId}/skill`, { name: 'wifi-on', description: 'Turns Wi-Fi on in Settings.' })).status).toBe(201);

    // Wi-Fi is on now: the learned tap on the switch found it off, so the screen differs at step 2.
    await post('/api/devices/sim-1/commands', { command: 'home' });
    const before = requests.length;
    const started = await post('/api/skills/wifi-on/replay', { deviceId: 'sim-1' });
    const task = await finished(started.body.taskId);
    expect(task).toMatchObject({ status: 'completed', planner: 'replay:wifi-on', summary: 'Wi-Fi is on.', stepCount: 2 });
    expect(task.steps[0].plan.reasoning).toBe('Replaying step 1 of 2 of the learned skill "wifi-on" (no planner call).');
    expect(task.steps[1].plan).toMatchObject({
      type: 'done',
      reasoning: 'screen differs from step 2: expected Switch "Wi-Fi" (id com.android.settings:id/switch_widget) unchecked, but it is checked — handing over to the planner (llm:fake-vl). the switch is on',
    });
    expect(requests.length - before).toBe(1);
    expect(gateway.simulator!.ui.state.wifi).toBe(true);
  });

  it('never writes a text typed into a password field: the skill takes it as a secret parameter of each replay', async () => {
    const task = await run('form-1', `sign up as alice@example.org with password ${SECRET}`);
    expect(task).toMatchObject({ status: 'completed' });
    expect(task.steps.map((s: Json) => s.plan.action?.command ?? s.plan.type)).toEqual(['click', 'input', 'click', 'input', 'open', 'done']);
    expect(task.steps[3].plan.target).toMatchObject({ type: 'EditText', label: 'Password', password: true });
    expect(task.steps[3].plan.target.text).toBeUndefined();

    const saved = await post(`/api/tasks/${task.taskId}/skill`, {});
    expect(saved.status).toBe(201);
    expect(saved.body.skill).toMatchObject({
      name: 'sign-up-as-mail-address-with-password-password',
      description: 'sign up as {{mail_address}} with password {{password}}',
      parameters: [
        { name: 'mail_address', description: 'Text typed into EditText "Mail Address" (step 2).', example: 'alice@example.org' },
        { name: 'password', description: 'Text typed into the password field EditText "Password" (step 4).', secret: true },
      ],
    });
    expect(saved.body.skill.parameters[1]).not.toHaveProperty('example');
    const text = readFileSync(join(dataDir, 'skills', saved.body.skill.name, 'SKILL.md'), 'utf8');
    expect(text).toContain('action: { command: input, text: "{{password}}", clear: true }');
    expect(text.toLowerCase()).not.toContain(SECRET.toLowerCase());

    // A replay must be given the secret; given it, types it where it was typed, with no model call.
    const refused = await post(`/api/skills/${saved.body.skill.name}/replay`, { deviceId: 'form-1' });
    expect(refused).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', errors: [{ field: 'arguments.password' }] } });
    const before = requests.length;
    const started = await post(`/api/skills/${saved.body.skill.name}/replay`, { deviceId: 'form-1', arguments: { password: 'other-Secret9' } });
    expect(started.body.goal).toBe('sign up as alice@example.org with password {{password}}');
    const replayed = await finished(started.body.taskId);
    expect(replayed).toMatchObject({ status: 'completed', stepCount: 6 });
    expect(replayed.steps.slice(0, 5).map((s: Json) => s.plan.action)).toEqual([
      { command: 'click', x: 540, y: 422 },
      { command: 'input', text: 'alice@example.org', clear: true },
      { command: 'click', x: 540, y: 697 },
      { command: 'input', text: 'other-Secret9', clear: true },
      { command: 'open', app: 'jp.co.app.android' },
    ]);
    expect(requests.length - before).toBe(0);
  });

  it('answers the documented errors', async () => {
    expect(await post('/api/tasks/no-such-task/skill', {})).toMatchObject({ status: 404, body: { code: 'TASK_NOT_FOUND' } });
    expect(await post(`/api/tasks/${learned.taskId}/skill`, { name: 'browser-address' })).toMatchObject({ status: 409, body: { code: 'SKILL_EXISTS' } });
    // A tool of another root (or any source) keeps its name: the workspace skill would hide it from every caller.
    expect(await post(`/api/tasks/${learned.taskId}/skill`, { name: 'weather-report' })).toMatchObject({
      status: 409,
      body: { code: 'SKILL_EXISTS', detail: 'a tool named weather-report exists already (skills:workspace/weather-report); choose another name' },
    });
    expect(existsSync(join(dataDir, 'skills', 'weather-report'))).toBe(false);
    expect(await post(`/api/tasks/${learned.taskId}/skill`, { name: 'Browser Address' })).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', errors: [{ field: 'name' }] } });
    const failed = await run('sim-1', 'fly to the moon');
    expect(failed).toMatchObject({ status: 'failed' });
    expect(await post(`/api/tasks/${failed.taskId}/skill`, {})).toMatchObject({ status: 409, body: { code: 'TASK_STATE_CONFLICT' } });
    expect(await post('/api/skills/no-such-skill/replay', { deviceId: 'sim-1' })).toMatchObject({ status: 404, body: { code: 'TOOL_NOT_FOUND' } });
    expect(await post('/api/skills/browser-address/replay', { deviceId: 'no-such-phone' })).toMatchObject({ status: 404, body: { code: 'DEVICE_NOT_FOUND' } });
    expect(await post('/api/skills/browser-address/replay', {})).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
    expect(await post('/api/skills/browser-address/replay', { deviceId: 'sim-1', arguments: { nope: 'x' } })).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', errors: [{ field: 'arguments.nope' }] } });
  });
});
