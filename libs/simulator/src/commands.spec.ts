import sharp from 'sharp';
import { runCommand, type CommandReply } from './commands';
import { PhoneUi } from './phone-ui';
import { escapeXml } from './svg-renderer';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function data(reply: CommandReply): Record<string, unknown> {
  if (reply.status !== 'success') throw new Error(`expected success, got ${JSON.stringify(reply)}`);
  return reply.data;
}

/** A phone clock that reads `start`, then `end`, then fails the test if read again. */
function phoneClock(start: number, end: number): jest.Mock<number, []> {
  return jest
    .fn<number, []>()
    .mockReturnValueOnce(start)
    .mockReturnValueOnce(end)
    .mockImplementation(() => {
      throw new Error('the phone clock was read more than twice');
    });
}

afterEach(() => jest.restoreAllMocks());

describe('screenshot', () => {
  it('is a real 1080x2400 PNG of the current screen, with a frame id, the screen geometry and the phone’s capture time', async () => {
    // The phone reads its clock once before drawing and once after encoding: captureMs is that span,
    // to the microsecond. (How fast that is, is the benchmark's business, not a unit test's.)
    const clock = phoneClock(1000, 1012.3456);
    const ui = new PhoneUi({ clock });
    const shot = data(await runCommand(ui, { command: 'screenshot' }));
    expect(clock).toHaveBeenCalledTimes(2);
    expect(shot['captureMs']).toBe(12.346);
    expect(shot).toMatchObject({ mime: 'image/png', width: 1080, height: 2400, screen: { width: 1080, height: 2400, rotation: 0 } });
    expect(typeof shot['frameId']).toBe('string');
    const png = Buffer.from(shot['base64'] as string, 'base64');
    expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
    const meta = await sharp(png).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 1080, height: 2400 });
  });

  it('draws the state: the Wi-Fi switch changes pixels when toggled', async () => {
    const ui = new PhoneUi();
    ui.open('com.android.settings');
    const grab = async () => Buffer.from(data(await runCommand(ui, { command: 'screenshot' }))['base64'] as string, 'base64');
    const tree = data(await runCommand(ui, { command: 'ui_tree' })) as unknown as ReturnType<PhoneUi['uiTree']>;
    const sw = JSON.stringify(tree).includes('switch_widget');
    expect(sw).toBe(true);
    const centre = ui.centreOf((n) => n.class === 'android.widget.Switch' && n.desc === 'Wi-Fi');
    if (!centre) throw new Error('no switch');
    const pixel = async (png: Buffer) => {
      const { data: raw, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
      const at = (centre.y * info.width + centre.x + 20) * info.channels;
      return [...raw.subarray(at, at + 3)];
    };
    const off = await pixel(await grab());
    ui.click(centre.x, centre.y);
    const on = await pixel(await grab());
    expect(on).not.toEqual(off);
  });

  it('JPEG with maxWidth 540 is scaled to 540 px wide', async () => {
    const ui = new PhoneUi();
    const shot = data(await runCommand(ui, { command: 'screenshot', format: 'jpeg', quality: 70, maxWidth: 540 }));
    expect(shot).toMatchObject({ mime: 'image/jpeg', width: 540, height: 1200, screen: { width: 1080, height: 2400 } });
    const jpeg = Buffer.from(shot['base64'] as string, 'base64');
    expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(await sharp(jpeg).metadata()).toMatchObject({ format: 'jpeg', width: 540, height: 1200 });
  });

  it('renders any text, including characters XML cannot carry', async () => {
    const ui = new PhoneUi();
    ui.open('com.android.chrome');
    const field = ui.centreOf((n) => n.editable);
    if (!field) throw new Error('no field');
    ui.click(field.x, field.y);
    ui.input('<svg> & "x" \u0000\u0007 \ud800 👋 مرحبا');
    const shot = data(await runCommand(ui, { command: 'screenshot', maxWidth: 2000 }));
    expect(shot['width']).toBe(1080);
    expect(escapeXml('a<b>&"\'\u0001')).toBe('a&lt;b&gt;&amp;&quot;&apos;\ufffd');
  });

  it('a landscape screenshot is 2400x1080', async () => {
    const ui = new PhoneUi();
    ui.rotate(3);
    const shot = data(await runCommand(ui, { command: 'screenshot' }));
    expect(shot).toMatchObject({ width: 2400, height: 1080, screen: { width: 2400, height: 1080, rotation: 3 } });
  });
});

describe('ui_tree', () => {
  it('carries the frame id, the screen and the time the phone took to build the tree', async () => {
    // Read once before building the tree and once after: captureMs is that span, to the microsecond.
    const clock = phoneClock(500, 502.0004);
    const ui = new PhoneUi({ clock });
    const tree = data(await runCommand(ui, { command: 'ui_tree' }));
    expect(clock).toHaveBeenCalledTimes(2);
    expect(Object.keys(tree).sort()).toEqual(['captureMs', 'frameId', 'nodes', 'screen']);
    expect(tree['captureMs']).toBe(2);
  });
});

describe('runCommand', () => {
  it('answers STALE_FRAME for a frameId taken before a rotation, and accepts a fresh one', async () => {
    const ui = new PhoneUi();
    const { frameId } = data(await runCommand(ui, { command: 'screenshot', maxWidth: 270 })) as { frameId: string };
    expect(data(await runCommand(ui, { command: 'click', x: 5, y: 5, frameId }))).toEqual({ hit: null });
    ui.rotate(1);
    const stale = await runCommand(ui, { command: 'click', x: 5, y: 5, frameId });
    expect(stale).toMatchObject({ status: 'error', error: { code: 'STALE_FRAME' } });
    const fresh = data(await runCommand(ui, { command: 'ui_tree' })) as { frameId: string };
    expect(await runCommand(ui, { command: 'click', x: 2000, y: 500, frameId: fresh.frameId })).toMatchObject({ status: 'success' });
    expect(await runCommand(ui, { command: 'back', frameId: 'made-up' })).toMatchObject({ status: 'error', error: { code: 'STALE_FRAME' } });
  });

  it.each([
    [{ command: 'click', x: '540', y: 10 }, 'INVALID_ARGUMENT'],
    [{ command: 'click', y: 10 }, 'INVALID_ARGUMENT'],
    [{ command: 'click', x: Number.NaN, y: 10 }, 'INVALID_ARGUMENT'],
    [{ command: 'long_press', x: 1, y: 1, durationMs: -5 }, 'INVALID_ARGUMENT'],
    [{ command: 'swipe', x1: 1, y1: 1, x2: 1 }, 'INVALID_ARGUMENT'],
    [{ command: 'open' }, 'INVALID_ARGUMENT'],
    [{ command: 'open', app: 'com.example.missing' }, 'APP_NOT_FOUND'],
    [{ command: 'input', text: 42 }, 'INVALID_ARGUMENT'],
    [{ command: 'input', text: 'x', clear: 'yes' }, 'INVALID_ARGUMENT'],
    [{ command: 'input', text: 'x' }, 'NO_FOCUSED_INPUT'],
    [{ command: 'screenshot', format: 'gif' }, 'INVALID_ARGUMENT'],
    [{ command: 'screenshot', quality: 0 }, 'INVALID_ARGUMENT'],
    [{ command: 'screenshot', maxWidth: 0 }, 'INVALID_ARGUMENT'],
    [{ command: 'click', x: 1, y: 1, frameId: 7 }, 'INVALID_ARGUMENT'],
    [{ command: 'click', x: 5000, y: 1 }, 'OUT_OF_BOUNDS'],
    [{ command: 'reboot' }, 'UNSUPPORTED_COMMAND'],
    [{ command: 'toString' }, 'UNSUPPORTED_COMMAND'],
  ])('%j → %s', async (request, code) => {
    const reply = await runCommand(new PhoneUi(), request);
    expect(reply).toMatchObject({ status: 'error', error: { code } });
    if (reply.status === 'error') expect(reply.error.message.length).toBeGreaterThan(0);
  });

  it('long_press and swipe succeed with their data', async () => {
    const ui = new PhoneUi();
    expect(data(await runCommand(ui, { command: 'long_press', x: 10, y: 1000, durationMs: 600 }))).toEqual({ hit: null });
    expect(data(await runCommand(ui, { command: 'swipe', x1: 500, y1: 1500, x2: 500, y2: 500, durationMs: 300 }))).toEqual({ scrolled: false });
    expect(data(await runCommand(ui, { command: 'open', app: 'com.android.contacts' }))).toEqual({ package: 'com.android.contacts', screen: 'contacts' });
    expect(data(await runCommand(ui, { command: 'swipe', x1: 500, y1: 1500, x2: 500, y2: 500 }))).toEqual({ scrolled: true });
    expect(data(await runCommand(ui, { command: 'home' }))).toEqual({ screen: 'launcher' });
  });
});
