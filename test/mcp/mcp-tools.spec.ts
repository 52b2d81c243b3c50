import sharp from 'sharp';
import type { ActionFrame } from '@mobileclaw/protocol';
import { testGateways } from '../support/test-gateways';
import { connectClient, elementLine, textOf, type Era, type Json } from './mcp-client';

const gateways = testGateways('mobileclaw-mcp-');

/** The bounds `[l, t, r, b]` of every element line of a get_screen text (screen px when it has no image). */
function boundsOf(text: string): [number, number, number, number][] {
  return [...text.matchAll(/bounds=\((\d+),(\d+),(\d+),(\d+)\)/g)].map((m) => [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])]);
}

/** A point (on a 20 px grid) inside no element of `before` and inside some element of `after`. */
function emptyPoint(before: string, after: string): [number, number] {
  const inside = (all: [number, number, number, number][], x: number, y: number) => all.some(([l, t, r, b]) => x >= l && x < r && y >= t && y < b);
  const [was, now] = [boundsOf(before), boundsOf(after)];
  for (let y = 10; y < 2400; y += 20) for (let x = 10; x < 1080; x += 20) if (!inside(was, x, y) && inside(now, x, y)) return [x, y];
  throw new Error('no point empty before and covered after');
}

const TOOLS = ['get_screen', 'input_text', 'list_apps', 'list_devices', 'long_press', 'open_app', 'press_back', 'press_home', 'run_task', 'swipe', 'tap'];

describe.each<Era>(['modern', 'legacy'])('MCP over Streamable HTTP (%s revision)', (era) => {
  it('lists the phone tools with annotations, and the phones', async () => {
    const gw = await gateways.start();
    const client = await connectClient(gw, era);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(era === 'legacy' ? [...TOOLS, 'select_device'].sort() : TOOLS);
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName['get_screen'].annotations).toMatchObject({ readOnlyHint: true });
    expect(byName['tap'].annotations).toMatchObject({ readOnlyHint: false });
    expect(byName['tap'].inputSchema.properties).toHaveProperty('frameId');
    const listed: Json = await client.callTool({ name: 'list_devices', arguments: {} });
    expect(listed.isError).toBeFalsy();
    expect(listed.structuredContent.devices).toEqual([expect.objectContaining({ deviceId: 'sim-1', status: 'online', screen: expect.objectContaining({ width: 1080, height: 2400 }) })]);
    await client.close();
  });

  it('returns a bounded JPEG and every element, then taps Settings by element index', async () => {
    const gw = await gateways.start();
    const client = await connectClient(gw, era);
    const screen: Json = await client.callTool({ name: 'get_screen', arguments: {} });
    expect(screen.isError).toBeFalsy();
    const image = (screen.content as Json[]).find((c) => c.type === 'image');
    expect(image.mimeType).toBe('image/jpeg');
    expect(image.data).not.toMatch(/^data:/);
    const jpeg = Buffer.from(image.data, 'base64');
    const meta = await sharp(jpeg).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'jpeg', width: 706, height: 1568 });
    expect(jpeg.length).toBeLessThanOrEqual(600 * 1024);
    expect(image.data.length).toBeLessThanOrEqual(800 * 1024);
    expect(screen.structuredContent).toMatchObject({ deviceId: 'sim-1', screen: { width: 1080, height: 2400 }, image: { width: 706, height: 1568, bytes: jpeg.length } });
    const frameId = screen.structuredContent.frameId as string;
    expect(frameId).toMatch(/^sim-1@\d+$/);
    const text = textOf(screen);
    expect(text).toContain(`frameId: ${frameId}`);

    const actions: ActionFrame[] = [];
    gw.simulator!.on('action', (a) => actions.push(a));
    const settings = elementLine(text, 'Settings');
    const tapped: Json = await client.callTool({ name: 'tap', arguments: { frameId, element: settings.index } });
    expect(tapped.isError).toBeFalsy();
    const click = actions.find((a) => a.command === 'click')!;
    expect(click).toMatchObject({ x: tapped.structuredContent.point[0], y: tapped.structuredContent.point[1] });
    const after: Json = await client.callTool({ name: 'get_screen', arguments: { includeImage: false } });
    expect(after.structuredContent.foregroundPackage).toBe('com.android.settings');
    await client.close();
  });

  it('maps a tap on the downscaled image to exact device pixels', async () => {
    const gw = await gateways.start();
    const client = await connectClient(gw, era);
    const screen: Json = await client.callTool({ name: 'get_screen', arguments: { maxLongSide: 800 } });
    const { width, height } = screen.structuredContent.image;
    expect(Math.max(width, height)).toBe(800);
    const settings = elementLine(textOf(screen), 'Settings');
    const actions: ActionFrame[] = [];
    gw.simulator!.on('action', (a) => actions.push(a));
    const tapped: Json = await client.callTool({ name: 'tap', arguments: { frameId: screen.structuredContent.frameId, x: settings.cx, y: settings.cy } });
    expect(tapped.isError).toBeFalsy();
    const click = actions.find((a) => a.command === 'click')!;
    // Each axis scales by screen / image and rounds to the nearest device pixel.
    expect(click).toMatchObject({ x: Math.round((settings.cx * 1080) / width), y: Math.round((settings.cy * 2400) / height) });
    expect(tapped.structuredContent.element.text).toBe('Settings');
    await client.close();
  });

  it('refuses an element of a screen that has changed with STALE_FRAME, sending nothing', async () => {
    const gw = await gateways.start();
    const client = await connectClient(gw, era);
    const home: Json = await client.callTool({ name: 'get_screen', arguments: { includeImage: false } });
    const settings = elementLine(textOf(home), 'Settings');
    await client.callTool({ name: 'tap', arguments: { frameId: home.structuredContent.frameId, element: settings.index } });
    const actions: ActionFrame[] = [];
    gw.simulator!.on('action', (a) => actions.push(a));
    const stale: Json = await client.callTool({ name: 'tap', arguments: { frameId: home.structuredContent.frameId, element: settings.index } });
    expect(stale.isError).toBe(true);
    expect(stale.structuredContent.error.code).toBe('STALE_FRAME');
    expect(textOf(stale)).toMatch(/^STALE_FRAME: element \[\d+\] \w+ "Settings" of frame sim-1@\d+ is no longer on the screen/);
    expect(actions.filter((a) => a.command === 'click')).toEqual([]);
    const unknown: Json = await client.callTool({ name: 'tap', arguments: { frameId: 'sim-1@999999', element: 0 } });
    expect(unknown.structuredContent.error.code).toBe('STALE_FRAME');
    await client.close();
  });

  it('refuses a point of an old frame that was on no element once something is there (STALE_FRAME, nothing sent)', async () => {
    const gw = await gateways.start();
    const client = await connectClient(gw, era);
    const home: Json = await client.callTool({ name: 'get_screen', arguments: { includeImage: false } });
    await client.callTool({ name: 'open_app', arguments: { app: 'com.android.settings' } });
    const settings: Json = await client.callTool({ name: 'get_screen', arguments: { includeImage: false } });
    // A point on nothing in the home frame that an element of the Settings screen covers now.
    const empty = emptyPoint(textOf(home), textOf(settings));
    const actions: ActionFrame[] = [];
    gw.simulator!.on('action', (a) => actions.push(a));
    const stale: Json = await client.callTool({ name: 'tap', arguments: { frameId: home.structuredContent.frameId, x: empty[0], y: empty[1], approved: true } });
    expect(stale.structuredContent.error.code).toBe('STALE_FRAME');
    expect(textOf(stale)).toMatch(new RegExp(`^STALE_FRAME: the point \\(${empty[0]},${empty[1]}\\) in screen px was on no element in frame sim-1@\\d+; now a \\w+ .* is there`));
    expect(actions.filter((a) => a.command === 'click' || a.command === 'long_press')).toEqual([]);
    await client.close();
  });

  it('answers arguments that fail the schema with VALIDATION_FAILED and field errors, keeping the advertised constraints', async () => {
    const gw = await gateways.start();
    const client = await connectClient(gw, era);
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((t) => [t.name, t.inputSchema as Json]));
    expect(byName['tap']).toMatchObject({ additionalProperties: false, properties: { x: { type: 'number', minimum: 0 }, frameId: { maxLength: 200 } } });
    expect(byName['run_task']).toMatchObject({ additionalProperties: false, required: ['goal'], properties: { goal: { minLength: 1, maxLength: 2000 } } });
    expect(byName['open_app'].properties.app).toMatchObject({ maxLength: 255, pattern: expect.any(String) });
    expect(byName['list_devices']).toMatchObject({ type: 'object', properties: {}, additionalProperties: false });
    const actions: ActionFrame[] = [];
    gw.simulator!.on('action', (a) => actions.push(a));

    const tap: Json = await client.callTool({ name: 'tap', arguments: { x: -1, y: 5 } });
    expect(tap.isError).toBe(true);
    expect(tap.structuredContent.error).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'invalid arguments for tap: x: Too small: expected number to be >=0',
      retryable: false,
      fieldErrors: [{ field: 'x', message: 'Too small: expected number to be >=0' }],
    });
    expect(textOf(tap)).toBe('VALIDATION_FAILED: invalid arguments for tap: x: Too small: expected number to be >=0. Fix the arguments and call again.');
    const goal: Json = await client.callTool({ name: 'run_task', arguments: { goal: '' } });
    expect(goal.structuredContent.error).toMatchObject({ code: 'VALIDATION_FAILED', retryable: false, fieldErrors: [{ field: 'goal', message: expect.stringMatching(/>=1 characters/) }] });
    const nested: Json = await client.callTool({ name: 'swipe', arguments: { from: { x: 1, y: 'a' }, to: { x: 1, y: 2, z: 3 } } });
    expect(nested.structuredContent.error.fieldErrors.map((f: Json) => f.field)).toEqual(['from.y', 'z']);
    const extra: Json = await client.callTool({ name: 'list_devices', arguments: { verbose: true } });
    expect(extra.structuredContent.error.fieldErrors).toEqual([{ field: 'verbose', message: 'unknown argument; list_devices takes no arguments' }]);

    // Unbounded input is refused before it reaches the phone, and never echoed whole.
    const huge: Json = await client.callTool({ name: 'open_app', arguments: { app: `com.${'a'.repeat(1_000_000)}` } });
    expect(huge.structuredContent.error).toMatchObject({ code: 'VALIDATION_FAILED', fieldErrors: [{ field: 'app', message: 'Too big: expected string to have <=255 characters' }] });
    const longKey = 'k'.repeat(100_000);
    const unknownKey: Json = await client.callTool({ name: 'press_home', arguments: { [longKey]: 1 } });
    expect(unknownKey.structuredContent.error.fieldErrors).toEqual([{ field: `${'k'.repeat(64)}…`, message: 'unknown argument; press_home takes deviceId' }]);
    for (const result of [huge, unknownKey]) expect(JSON.stringify(result).length).toBeLessThan(2000);
    expect(actions).toEqual([]);
    await client.close();
  });

  it('says once what to do next: STALE_FRAME, an app that is not installed, several phones', async () => {
    const gw = await gateways.start();
    const client = await connectClient(gw, era);
    const listed: Json = await client.callTool({ name: 'list_devices', arguments: {} });
    const sim = listed.structuredContent.devices[0];
    expect(sim.model.startsWith(sim.manufacturer)).toBe(true);
    expect(textOf(listed)).toBe(`sim-1: online, ${sim.model}, Android ${sim.android}, 1080×2400 px`);
    const stale: Json = await client.callTool({ name: 'tap', arguments: { frameId: 'sim-1@999999', element: 0 } });
    expect(textOf(stale)).toBe(`STALE_FRAME: ${stale.structuredContent.error.message}.`);
    expect(textOf(stale).match(/new screen/g)).toHaveLength(1);
    const missing: Json = await client.callTool({ name: 'open_app', arguments: { app: 'com.example.nothere' } });
    expect(missing.structuredContent.error).toMatchObject({ code: 'DEVICE_ERROR', deviceCode: 'APP_NOT_FOUND' });
    expect(textOf(missing)).toMatch(/\(phone code APP_NOT_FOUND\)\. The package name may be wrong: call press_home, then get_screen to find the app's icon on the launcher, and tap it\.$/);
    await client.close();
  });

  it('answers failures as tool results with the stable code and a next step', async () => {
    const gw = await gateways.start();
    const client = await connectClient(gw, era);
    const missing: Json = await client.callTool({ name: 'get_screen', arguments: { deviceId: 'no-such-phone' } });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent.error).toMatchObject({ code: 'DEVICE_NOT_FOUND', retryable: false });
    expect(textOf(missing)).toContain('list_devices');
    const noTarget: Json = await client.callTool({ name: 'tap', arguments: {} });
    expect(noTarget.structuredContent.error.code).toBe('VALIDATION_FAILED');
    const apps: Json = await client.callTool({ name: 'list_apps', arguments: {} });
    expect(apps.structuredContent.error.code).toBe('NOT_SUPPORTED');
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });

  it('asks the client to approve the sensitive step of run_task, then finishes the task', async () => {
    const gw = await gateways.start();
    const client = await connectClient(gw, era, { elicitation: true });
    const questions: string[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      questions.push(request.params.message);
      return { action: 'accept', content: { approve: true } };
    });
    // A message to someone who is not a contact: the planner asks before tapping Send.
    const done: Json = await client.callTool({ name: 'run_task', arguments: { goal: "send 'hi there' to Nina" } });
    expect(done.isError).toBeFalsy();
    expect(done.structuredContent.status).toBe('completed');
    expect(questions).toEqual([expect.stringMatching(/^The task on the phone wants to click \(\d+,\d+\): .*Nina.*\. Approve\?$/)]);
    await client.close();
  }, 60_000);

  it('types Unicode byte-exact and says the field holds it', async () => {
    const gw = await gateways.start();
    const client = await connectClient(gw, era);
    const opened: Json = await client.callTool({ name: 'open_app', arguments: { app: 'com.android.chrome' } });
    expect(opened.structuredContent).toMatchObject({ verified: true, foregroundPackage: 'com.android.chrome' });
    const screen: Json = await client.callTool({ name: 'get_screen', arguments: { includeImage: false } });
    const field = elementLine(textOf(screen), / EditText .*editable/);
    await client.callTool({ name: 'tap', arguments: { frameId: screen.structuredContent.frameId, element: field.index } });
    const text = 'Wi‑Fi 网络 🚀 e\u0301';
    const typed: Json = await client.callTool({ name: 'input_text', arguments: { text, clear: true } });
    expect(typed.isError).toBeFalsy();
    expect(typed.structuredContent).toMatchObject({ holdsText: true, fieldText: text });
    expect(textOf(typed)).toContain('The focused field now holds the text.');
    await client.close();
  });

  it('offers each phone screen and task timelines as resources', async () => {
    const gw = await gateways.start();
    const client = await connectClient(gw, era);
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toEqual(['mobileclaw://devices/sim-1/screen']);
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(['mobileclaw://devices/{deviceId}/screen', 'mobileclaw://tasks/{taskId}']);
    const screen = await client.readResource({ uri: 'mobileclaw://devices/sim-1/screen' });
    const [image, text] = screen.contents as Json[];
    expect(image.mimeType).toBe('image/jpeg');
    expect((await sharp(Buffer.from(image.blob, 'base64')).metadata()).width).toBe(706);
    expect(text.text).toMatch(/^frameId: sim-1@\d+\n/);
    await expect(client.readResource({ uri: 'mobileclaw://devices/nope/screen' })).rejects.toMatchObject({ code: -32602 });
    await expect(client.readResource({ uri: 'mobileclaw://tasks/no-such-task' })).rejects.toMatchObject({ code: -32602 });
    // An id of any length is quoted back cut, not whole.
    const long = await client.readResource({ uri: `mobileclaw://tasks/${'t'.repeat(10_000)}` }).catch((err: Json) => err);
    expect(long.code).toBe(-32602);
    expect(JSON.stringify({ message: long.message, data: long.data }).length).toBeLessThan(1000);
    await client.close();
  });
});

describe('MCP multi-round requestState (2026-07-28)', () => {
  it('refuses a run_task retry whose requestState this gateway did not seal (-32602)', async () => {
    const gw = await gateways.start();
    const client = await connectClient(gw, 'modern', { elicitation: true });
    const forged = { name: 'run_task', arguments: { goal: 'open Settings' }, requestState: JSON.stringify({ taskId: 'someone-elses-task' }), inputResponses: { approval: { action: 'accept', content: { approve: true } } } };
    await expect(client.callTool(forged)).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});
