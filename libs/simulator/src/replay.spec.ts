import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { parseUiHierarchyXml, type UiTreeXml } from '@mobileclaw/ui-hierarchy';
import { runCommand, type CommandReply } from './commands';
import { PhoneUi } from './phone-ui';

const SCREENS = path.resolve(__dirname, '../../../test/fixtures/screens');

function recording(file: string): UiTreeXml {
  return parseUiHierarchyXml(readFileSync(path.join(SCREENS, file), 'utf8'));
}

function data(reply: CommandReply): Record<string, unknown> {
  if (reply.status !== 'success') throw new Error(`expected success, got ${JSON.stringify(reply)}`);
  return reply.data;
}

/** A landscape `uiautomator dump` with a focused field. */
const LANDSCAPE_DUMP =
  '<hierarchy rotation="1">' +
  '<node class="android.widget.FrameLayout" package="com.example" bounds="[0,0][2400,1080]" enabled="true">' +
  '<node class="android.widget.EditText" package="com.example" text="Hi" clickable="true" focusable="true" focused="true" enabled="true" bounds="[100,900][2000,1040]"/>' +
  '<node class="android.widget.CheckBox" package="com.example" text="Remember" checkable="true" checked="true" clickable="true" enabled="true" bounds="[100,100][800,200]"/>' +
  '</node></hierarchy>';

describe('PhoneUi replaying a recorded screen', () => {
  it('ui_tree returns exactly the imported nodes, with the recorded geometry, a frame id and captureMs', async () => {
    const recorded = recording('settings-network-internet-wifi.xml');
    const ui = new PhoneUi({ replay: recorded });
    expect(ui.replaying).toBe(true);
    expect(ui.screen).toEqual({ width: 1080, height: 2088, densityDpi: 420, rotation: 0 });
    const tree = data(await runCommand(ui, { command: 'ui_tree' }));
    expect(Object.keys(tree).sort()).toEqual(['captureMs', 'frameId', 'nodes', 'screen']);
    expect(tree['nodes']).toEqual(recorded.nodes);
    expect(tree['screen']).toEqual({ width: 1080, height: 2088, rotation: 0 });
    expect(typeof tree['frameId']).toBe('string');
    expect(tree['captureMs']).toEqual(expect.any(Number));
    expect(tree['captureMs']).toBeGreaterThanOrEqual(0);
  });

  it('hands out copies: changing a returned tree does not change the screen', () => {
    const recorded = recording('settings-top.xml');
    const ui = new PhoneUi({ replay: recorded });
    const first = ui.uiTree().nodes;
    (first[0] as { text: string }).text = 'changed';
    expect(ui.uiTree().nodes).toEqual(recorded.nodes);
  });

  it('a screenshot is a PNG of the recorded size, with captureMs', async () => {
    const ui = new PhoneUi({ replay: recording('settings-languages.xml') });
    const shot = data(await runCommand(ui, { command: 'screenshot' }));
    expect(shot).toMatchObject({ mime: 'image/png', width: 1080, height: 2160, screen: { width: 1080, height: 2160, rotation: 0 } });
    expect(shot['captureMs']).toEqual(expect.any(Number));
    expect(await sharp(Buffer.from(shot['base64'] as string, 'base64')).metadata()).toMatchObject({ format: 'png', width: 1080, height: 2160 });
  });

  it('draws the Wi‑Fi switch on and the airplane-mode switch off', async () => {
    const ui = new PhoneUi({ replay: recording('settings-network-internet-wifi.xml') });
    const png = Buffer.from(data(await runCommand(ui, { command: 'screenshot' }))['base64'] as string, 'base64');
    const { data: raw, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    /** Pixels of the accent blue (#1a73e8) inside bounds shrunk by 4 px (the outline is excluded). */
    const accentPixels = ([l, t, r, b]: number[]): number => {
      let count = 0;
      for (let y = (t as number) + 4; y < (b as number) - 4; y++)
        for (let x = (l as number) + 4; x < (r as number) - 4; x++) {
          const at = (y * info.width + x) * info.channels;
          if (Math.abs((raw[at] as number) - 0x1a) < 8 && Math.abs((raw[at + 1] as number) - 0x73) < 8 && Math.abs((raw[at + 2] as number) - 0xe8) < 8) count++;
        }
      return count;
    };
    expect(accentPixels([860, 220, 1080, 420])).toBeGreaterThan(1000);
    expect(accentPixels([908, 656, 1036, 730])).toBe(0);
  });

  it('accepts every action and reports it, but the screen stays the same', async () => {
    const recorded = recording('settings-network-internet-wifi.xml');
    const ui = new PhoneUi({ replay: recorded });
    expect(data(await runCommand(ui, { command: 'click', x: 970, y: 320 }))).toEqual({ hit: { id: 'n24', class: 'android.widget.LinearLayout' } });
    expect(data(await runCommand(ui, { command: 'long_press', x: 540, y: 520 }))).toEqual({ hit: { id: 'n26', class: 'android.widget.LinearLayout' } });
    expect(data(await runCommand(ui, { command: 'swipe', x1: 540, y1: 1500, x2: 540, y2: 500 }))).toEqual({ scrolled: false });
    expect(data(await runCommand(ui, { command: 'back' }))).toEqual({ screen: 'recorded' });
    expect(data(await runCommand(ui, { command: 'home' }))).toEqual({ screen: 'recorded' });
    expect(data(await runCommand(ui, { command: 'open', app: 'com.android.chrome' }))).toEqual({ package: 'com.android.chrome', screen: 'recorded' });
    expect(ui.uiTree().nodes).toEqual(recorded.nodes);
    expect(ui.state.wifi).toBe(false);
  });

  it('types into a clicked field, starting from its recorded text, without changing the screen', async () => {
    const recorded = recording('signup-form-textfields.xml');
    const ui = new PhoneUi({ replay: recorded });
    expect(await runCommand(ui, { command: 'input', text: 'x' })).toMatchObject({ status: 'error', error: { code: 'NO_FOCUSED_INPUT' } });
    expect(data(await runCommand(ui, { command: 'click', x: 540, y: 422 }))).toEqual({ hit: { id: 'n23', class: 'android.widget.EditText', text: 'hoge@example.com' } });
    expect(data(await runCommand(ui, { command: 'input', text: '.jp' }))).toEqual({ text: 'hoge@example.com.jp' });
    expect(ui.focusedText).toBe('hoge@example.com.jp');
    expect(data(await runCommand(ui, { command: 'click', x: 540, y: 697 }))).toEqual({ hit: { id: 'n32', class: 'android.widget.EditText' } });
    expect(data(await runCommand(ui, { command: 'input', text: 'secret', clear: true }))).toEqual({ text: 'secret' });
    expect(ui.uiTree().nodes).toEqual(recorded.nodes);
  });

  it('replays a landscape uiautomator dump at its recorded rotation, focused field included', async () => {
    const ui = new PhoneUi({ replay: parseUiHierarchyXml(LANDSCAPE_DUMP) });
    expect(ui.screen).toEqual({ width: 2400, height: 1080, densityDpi: 420, rotation: 1 });
    expect(data(await runCommand(ui, { command: 'input', text: '!' }))).toEqual({ text: 'Hi!' });
    const shot = data(await runCommand(ui, { command: 'screenshot', maxWidth: 1200 }));
    expect(shot).toMatchObject({ width: 1200, height: 540, screen: { width: 2400, height: 1080, rotation: 1 } });
    expect(await runCommand(ui, { command: 'click', x: 2399, y: 1079 })).toMatchObject({ status: 'success' });
    expect(await runCommand(ui, { command: 'click', x: 1080, y: 2000 })).toMatchObject({ status: 'error', error: { code: 'OUT_OF_BOUNDS' } });
  });

  it('keeps its recorded rotation', () => {
    const ui = new PhoneUi({ replay: parseUiHierarchyXml(LANDSCAPE_DUMP) });
    ui.rotate(1);
    expect(() => ui.rotate(0)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringMatching(/keeps its recorded rotation 1/) }));
    expect(ui.screen.rotation).toBe(1);
  });
});
