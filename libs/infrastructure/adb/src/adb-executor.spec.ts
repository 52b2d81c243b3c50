import { PhoneError, type PhoneAction } from '@mobileclaw/phone-link';
import sharp from 'sharp';
import { ADB_SHELL, AdbExecutor } from './adb-executor';
import { AdbDeviceLostError, AdbShellError } from './device-shell';
import type { ScreenGeometry } from './device-facts';
import { geometryOutput, GETPROP_PIXEL_7, ScriptedAdbShell, UI_DUMP_IDLE_FAILURE, UI_DUMP_NULL_ROOT, uiDumpOutput, WM_DENSITY_OVERRIDDEN, WM_SIZE_OVERRIDDEN } from './testing';

function action(command: string, args: Record<string, unknown> = {}, extra: Partial<PhoneAction> = {}): PhoneAction {
  return { requestId: 'r-1', command, args, frameId: undefined, timeoutMs: 30_000, signal: new AbortController().signal, ...extra };
}

/** The PhoneError an action is refused with. */
async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof PhoneError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('the action succeeded');
}

/** The key events that clear `n` characters: cursor to the end, n DEL, n FORWARD_DEL. */
function clearCommand(n: number): string {
  return `input keyevent 123 ${'67 '.repeat(n)}${'112 '.repeat(n).trimEnd()}`;
}

describe('AdbExecutor', () => {
  let shell: ScriptedAdbShell;
  let executor: AdbExecutor;
  let screenChanges: ScreenGeometry[];

  beforeEach(() => {
    shell = new ScriptedAdbShell();
    screenChanges = [];
    executor = new AdbExecutor({ shell, uiDumpRetryDelayMs: 0, onScreenChange: (s) => screenChanges.push(s) });
  });

  describe('describe (hello facts)', () => {
    it('reads getprop, the density and the screen with their overrides, turned by the rotation', async () => {
      shell.always(ADB_SHELL.getprop, GETPROP_PIXEL_7).always(ADB_SHELL.density, WM_DENSITY_OVERRIDDEN).always(ADB_SHELL.geometry, geometryOutput(1, WM_SIZE_OVERRIDDEN));
      expect(await executor.describe()).toEqual({
        device: { model: 'Pixel 7', manufacturer: 'Google', android: '14', screen: { width: 2340, height: 1080, densityDpi: 480, rotation: 1 } },
        capabilities: ['open', 'click', 'long_press', 'swipe', 'input', 'back', 'home', 'screenshot', 'ui_tree'],
      });
      expect(shell.commands).toEqual(['getprop', 'wm density', "wm size; dumpsys input | grep -E 'SurfaceOrientation|orientation='"]);
      expect(executor.facts?.sdk).toBe(34);
    });

    it('fails COMMAND_FAILED when the screen size cannot be read', async () => {
      shell.always(ADB_SHELL.getprop, GETPROP_PIXEL_7).always(ADB_SHELL.density, '').always(ADB_SHELL.geometry, '/system/bin/sh: wm: not found\n');
      expect(await refusal(executor.describe())).toEqual({ code: 'COMMAND_FAILED', message: 'cannot read the screen size from `wm size`: /system/bin/sh: wm: not found' });
    });
  });

  describe('screenshot', () => {
    let png: Buffer;

    beforeAll(async () => {
      png = await sharp({ create: { width: 1080, height: 2400, channels: 3, background: '#1a73e8' } })
        .png()
        .toBuffer();
    });

    it('passes screencap -p bytes through as PNG, with a frame id bound to the screen', async () => {
      shell.reply('screencap -p', png).always(ADB_SHELL.geometry, geometryOutput(0));
      const data = await executor.execute(action('screenshot'));
      expect(data).toMatchObject({ mime: 'image/png', width: 1080, height: 2400, base64: png.toString('base64'), screen: { width: 1080, height: 2400, rotation: 0 } });
      expect(typeof data['frameId']).toBe('string');
      expect(data['captureMs']).toBeGreaterThanOrEqual(0);
      expect(shell.commands.sort()).toEqual([ADB_SHELL.geometry, 'screencap -p'].sort());
    });

    it('drops text printed before the PNG, and encodes JPEG within maxWidth', async () => {
      shell.reply('screencap -p', Buffer.concat([Buffer.from('WARNING: linker: unused DT entry\n'), png])).always(ADB_SHELL.geometry, geometryOutput(0));
      const data = await executor.execute(action('screenshot', { format: 'jpeg', quality: 60, maxWidth: 540 }));
      expect(data).toMatchObject({ mime: 'image/jpeg', width: 540, height: 1200, screen: { width: 1080, height: 2400, rotation: 0 } });
      const meta = await sharp(Buffer.from(data['base64'] as string, 'base64')).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 540, 1200]);
    });

    it('refuses bad arguments before running anything, and fails COMMAND_FAILED without a PNG', async () => {
      expect(await refusal(executor.execute(action('screenshot', { format: 'gif' })))).toEqual({ code: 'INVALID_ARGUMENT', message: '"format" must be "png" or "jpeg", got "gif"' });
      expect(await refusal(executor.execute(action('screenshot', { quality: 0 })))).toEqual({ code: 'INVALID_ARGUMENT', message: '"quality" must be between 1 and 100, got 0' });
      expect(shell.calls).toEqual([]);
      shell.reply('screencap -p', 'Error: could not take screenshot\n').always(ADB_SHELL.geometry, geometryOutput(0));
      expect(await refusal(executor.execute(action('screenshot')))).toEqual({ code: 'COMMAND_FAILED', message: 'screencap -p printed no PNG image: Error: could not take screenshot' });
    });
  });

  describe('ui_tree', () => {
    it('parses the dump into protocol nodes, with the trailer dropped', async () => {
      shell.reply(ADB_SHELL.uiDump, uiDumpOutput({ fieldText: 'Hi & bye' })).always(ADB_SHELL.geometry, geometryOutput(0));
      const data = await executor.execute(action('ui_tree'));
      expect(data['screen']).toEqual({ width: 1080, height: 2400, rotation: 0 });
      const [root] = data['nodes'] as Array<{ class: string; bounds: number[]; children: Array<Record<string, unknown>> }>;
      expect(root?.class).toBe('android.widget.FrameLayout');
      expect(root?.bounds).toEqual([0, 0, 1080, 2400]);
      expect(root?.children[1]).toMatchObject({ id: 'n2', class: 'android.widget.EditText', text: 'Hi & bye', editable: true, focused: true, bounds: [156, 2202, 876, 2337] });
      expect(root?.children[2]).toMatchObject({ desc: 'Send SMS', clickable: true });
      expect(data['captureMs']).toBeGreaterThanOrEqual(0);
    });

    it('retries "could not get idle state" and "null root node" until a dump succeeds', async () => {
      shell.reply(ADB_SHELL.uiDump, UI_DUMP_IDLE_FAILURE).reply(ADB_SHELL.uiDump, UI_DUMP_NULL_ROOT).reply(ADB_SHELL.uiDump, uiDumpOutput()).always(ADB_SHELL.geometry, geometryOutput(0));
      const data = await executor.execute(action('ui_tree'));
      expect((data['nodes'] as unknown[]).length).toBe(1);
      expect(shell.commands.filter((c) => c === 'uiautomator dump /dev/tty')).toHaveLength(3);
    });

    it('gives up with the last reason when the deadline leaves no room for another attempt', async () => {
      executor = new AdbExecutor({ shell, uiDumpRetryDelayMs: 20 });
      shell.always(ADB_SHELL.uiDump, UI_DUMP_IDLE_FAILURE).always(ADB_SHELL.geometry, geometryOutput(0));
      const refused = await refusal(executor.execute(action('ui_tree', {}, { timeoutMs: 300 })));
      expect(refused.code).toBe('COMMAND_FAILED');
      expect(refused.message).toMatch(/^uiautomator dump failed \d+ time\(s\) in \d+ ms, the last with: ERROR: could not get idle state\.$/);
      expect(shell.commands.filter((c) => c === ADB_SHELL.uiDump).length).toBeGreaterThan(1);
    });

    it('does not retry a failure that will not pass', async () => {
      shell.always(ADB_SHELL.uiDump, '/system/bin/sh: uiautomator: not found\n').always(ADB_SHELL.geometry, geometryOutput(0));
      expect(await refusal(executor.execute(action('ui_tree')))).toEqual({ code: 'COMMAND_FAILED', message: 'uiautomator dump failed: /system/bin/sh: uiautomator: not found' });
      expect(shell.commands.filter((c) => c === ADB_SHELL.uiDump)).toHaveLength(1);
    });
  });

  describe('taps, swipes and keys', () => {
    beforeEach(() => shell.always(ADB_SHELL.geometry, geometryOutput(0)));

    it('sends input tap / swipe with rounded px and the default durations', async () => {
      shell.always('input tap 540 1200', '').always('input swipe 100 200 100 200 1000', '').always('input swipe 540 1800 540 600 300', '').always('input swipe 1 2 3 4 50', '');
      await executor.execute(action('click', { x: 540.4, y: 1199.6 }));
      await executor.execute(action('long_press', { x: 100, y: 200 }));
      await executor.execute(action('swipe', { x1: 540, y1: 1800, x2: 540, y2: 600 }));
      await executor.execute(action('swipe', { x1: 1, y1: 2, x2: 3, y2: 4, durationMs: 50 }));
      expect(shell.commands).toEqual([ADB_SHELL.geometry, 'input tap 540 1200', 'input swipe 100 200 100 200 1000', 'input swipe 540 1800 540 600 300', 'input swipe 1 2 3 4 50']);
    });

    it('sends back and home as key events', async () => {
      shell.always('input keyevent 4', '').always('input keyevent 3', '');
      expect(await executor.execute(action('back'))).toEqual({});
      expect(await executor.execute(action('home'))).toEqual({});
      expect(shell.commands).toEqual(['input keyevent 4', 'input keyevent 3']);
    });

    it('refuses points outside the screen and bad arguments without touching the phone', async () => {
      expect(await refusal(executor.execute(action('click', { x: 1080, y: 10 })))).toEqual({ code: 'OUT_OF_BOUNDS', message: 'point (1080, 10) is outside the 1080x2400 screen' });
      expect(await refusal(executor.execute(action('swipe', { x1: 1, y1: 2, x2: 3 })))).toEqual({ code: 'INVALID_ARGUMENT', message: '"y2" must be a finite number, got nothing' });
      expect(await refusal(executor.execute(action('fly')))).toMatchObject({ code: 'UNSUPPORTED_COMMAND' });
      expect(shell.commands).toEqual([ADB_SHELL.geometry]);
    });

    it('reports a failing input tool as COMMAND_FAILED with its output', async () => {
      shell.always('input tap 1 1', "Exception occurred while executing 'tap':\njava.lang.SecurityException: Injecting to another application requires INJECT_EVENTS permission\n");
      expect(await refusal(executor.execute(action('click', { x: 1, y: 1 })))).toEqual({
        code: 'COMMAND_FAILED',
        message: "`input tap 1 1` failed: Exception occurred while executing 'tap': | java.lang.SecurityException: Injecting to another application requires INJECT_EVENTS permission",
      });
    });

    it('reports an input tool that exits non-zero as COMMAND_FAILED with its status and output, even when it printed nothing', async () => {
      shell.always('input keyevent 4', { output: '', exitStatus: 137 }).always('input tap 2 2', { output: 'Killed\n', exitStatus: 1 });
      expect(await refusal(executor.execute(action('back')))).toEqual({ code: 'COMMAND_FAILED', message: '`input keyevent 4` exited with status 137: (no output)' });
      expect(await refusal(executor.execute(action('click', { x: 2, y: 2 })))).toEqual({ code: 'COMMAND_FAILED', message: '`input tap 2 2` exited with status 1: Killed' });
    });
  });

  describe('frames', () => {
    it('refuses an action on a frame taken before a rotation STALE_FRAME, running nothing, and reports the change', async () => {
      shell.reply(ADB_SHELL.uiDump, uiDumpOutput()).reply(ADB_SHELL.geometry, geometryOutput(0)).reply(ADB_SHELL.geometry, geometryOutput(0));
      const frameId = (await executor.execute(action('ui_tree')))['frameId'] as string;
      shell.always('input tap 540 1200', '');
      await executor.execute(action('click', { x: 540, y: 1200 }, { frameId }));
      shell.always(ADB_SHELL.geometry, geometryOutput(1));
      expect(await refusal(executor.execute(action('click', { x: 540, y: 1200 }, { frameId })))).toEqual({
        code: 'STALE_FRAME',
        message: `frame ${frameId} was 1080x2400 rotation 0; the screen is now 2400x1080 rotation 1`,
      });
      expect(shell.commands.filter((c) => c.startsWith('input'))).toEqual(['input tap 540 1200']);
      expect(screenChanges).toEqual([{ width: 2400, height: 1080, rotation: 1 }]);
    });

    it('refuses frame ids it never issued and frame ids that are not strings', async () => {
      shell.always(ADB_SHELL.geometry, geometryOutput(0));
      expect(await refusal(executor.execute(action('back', {}, { frameId: 'abc-1' })))).toEqual({ code: 'STALE_FRAME', message: 'unknown frameId "abc-1"' });
      expect(await refusal(executor.execute(action('back', {}, { frameId: 7 })))).toEqual({ code: 'INVALID_ARGUMENT', message: '"frameId" must be a string, got 7' });
    });
  });

  describe('open', () => {
    const MONKEY_OK = [
      '  bash arg: -p',
      '  bash arg: com.android.settings',
      '  bash arg: -c',
      '  bash arg: android.intent.category.LAUNCHER',
      '  bash arg: 1',
      'args: [-p, com.android.settings, -c, android.intent.category.LAUNCHER, 1]',
      ' arg: "-p"',
      ' arg: "com.android.settings"',
      ' arg: "-c"',
      ' arg: "android.intent.category.LAUNCHER"',
      ' arg: "1"',
      'data="com.android.settings"',
      'data="android.intent.category.LAUNCHER"',
      'Events injected: 1',
      '## Network stats: elapsed time=14ms (0ms mobile, 0ms wifi, 14ms not connected)',
      '',
    ].join('\n');
    const MONKEY_MISSING = '  bash arg: -p\n  bash arg: com.example.nope\n  bash arg: -c\n  bash arg: android.intent.category.LAUNCHER\n  bash arg: 1\n** No activities found to run, monkey aborted.\n';

    it('launches the launcher activity through monkey', async () => {
      shell.reply('monkey -p com.android.settings -c android.intent.category.LAUNCHER 1', MONKEY_OK);
      expect(await executor.execute(action('open', { app: 'com.android.settings' }))).toEqual({ package: 'com.android.settings' });
    });

    it('answers APP_NOT_FOUND when monkey finds no activity', async () => {
      shell.reply('monkey -p com.example.nope -c android.intent.category.LAUNCHER 1', MONKEY_MISSING);
      expect(await refusal(executor.execute(action('open', { app: 'com.example.nope' })))).toEqual({ code: 'APP_NOT_FOUND', message: 'no launchable app with package "com.example.nope" is installed' });
    });

    it('refuses what is not a package name, so nothing reaches the shell', async () => {
      expect(await refusal(executor.execute(action('open', { app: 'com.x; reboot' })))).toEqual({
        code: 'INVALID_ARGUMENT',
        message: '"app" must be an Android package name such as com.android.settings, got "com.x; reboot"',
      });
      expect(shell.calls).toEqual([]);
    });
  });

  describe('input', () => {
    it('types ASCII with input text, escaped, and verifies the field read back', async () => {
      const text = `Meet "Bob" & me; it's 50% off`;
      shell
        .reply(ADB_SHELL.uiDump, uiDumpOutput({ fieldText: '' }))
        .reply(`input text 'Meet%s"Bob"%s&%sme;%sit'\\''s%s50%%soff'`, '')
        .reply(ADB_SHELL.uiDump, uiDumpOutput({ fieldText: text }));
      expect(await executor.execute(action('input', { text }))).toEqual({ text, verified: true, method: 'input-text' });
    });

    it('clears with MOVE_END and as many DEL and FORWARD_DEL as the field has characters', async () => {
      shell
        .reply(ADB_SHELL.uiDump, uiDumpOutput({ fieldText: 'old' }))
        .reply('input keyevent 123 67 67 67 112 112 112', '')
        .reply("input text 'new'", '')
        .reply(ADB_SHELL.uiDump, uiDumpOutput({ fieldText: 'new' }));
      expect(await executor.execute(action('input', { text: 'new', clear: true }))).toEqual({ text: 'new', verified: true, method: 'input-text' });
    });

    it('types long text with several input text commands of at most 1000 characters, in order, then verifies', async () => {
      const text = `${'a'.repeat(1000)}${' '.repeat(1000)}${'b'.repeat(500)}`;
      shell
        .reply(ADB_SHELL.uiDump, uiDumpOutput({ fieldText: '' }))
        .reply(`input text '${'a'.repeat(1000)}'`, '')
        .reply(`input text '${'%s'.repeat(1000)}'`, '')
        .reply(`input text '${'b'.repeat(500)}'`, '')
        .reply(ADB_SHELL.uiDump, uiDumpOutput({ fieldText: text }));
      expect(await executor.execute(action('input', { text }))).toEqual({ text, verified: true, method: 'input-text' });
      expect(shell.commands.map((c) => c.slice(0, 13))).toEqual([ADB_SHELL.uiDump.slice(0, 13), 'input text \'a', 'input text \'%', 'input text \'b', ADB_SHELL.uiDump.slice(0, 13)]);
    });

    it('stops typing at the first failing piece, reporting it COMMAND_FAILED', async () => {
      const text = 'c'.repeat(2500);
      shell
        .reply(ADB_SHELL.uiDump, uiDumpOutput({ fieldText: '' }))
        .reply(`input text '${'c'.repeat(1000)}'`, '')
        .reply(`input text '${'c'.repeat(1000)}'`, { output: 'Killed\n', exitStatus: 137 });
      expect(await refusal(executor.execute(action('input', { text })))).toEqual({ code: 'COMMAND_FAILED', message: `\`input text '${'c'.repeat(68)}…\` exited with status 137: Killed` });
      expect(shell.commands.filter((c) => c.startsWith('input text'))).toHaveLength(2);
    });

    it('clears a field longer than one round of deletes in rounds, reading it back between them, then types', async () => {
      shell
        .reply(ADB_SHELL.uiDump, uiDumpOutput({ fieldText: 'x'.repeat(5000) }))
        .reply(clearCommand(4096), '')
        .reply(ADB_SHELL.uiDump, uiDumpOutput({ fieldText: 'x'.repeat(904) }))
        .reply(clearCommand(904), '')
        .reply(ADB_SHELL.uiDump, uiDumpOutput({ fieldText: '' }))
        .reply("input text 'new'", '')
        .reply(ADB_SHELL.uiDump, uiDumpOutput({ fieldText: 'new' }));
      expect(await executor.execute(action('input', { text: 'new', clear: true }))).toEqual({ text: 'new', verified: true, method: 'input-text' });
      expect(shell.commands).toEqual([ADB_SHELL.uiDump, clearCommand(4096), ADB_SHELL.uiDump, clearCommand(904), ADB_SHELL.uiDump, "input text 'new'", ADB_SHELL.uiDump]);
    });

    it('fails COMMAND_FAILED without typing when 8 rounds of deletes leave text in the field', async () => {
      shell.reply(ADB_SHELL.uiDump, uiDumpOutput({ fieldText: 'x'.repeat(5000) })).always(clearCommand(4096), '').always(ADB_SHELL.uiDump, uiDumpOutput({ fieldText: 'x'.repeat(4500) }));
      expect(await refusal(executor.execute(action('input', { text: 'new', clear: true })))).toEqual({
        code: 'COMMAND_FAILED',
        message: 'could not clear the focused field: 4500 of its 5000 characters are left after 8 rounds of at most 4096 deletes; nothing was typed',
      });
      expect(shell.commands.filter((c) => c === clearCommand(4096))).toHaveLength(8);
      expect(shell.commands.filter((c) => c.startsWith('input text'))).toEqual([]);
    });

    it('fails NO_FOCUSED_INPUT without typing when the field loses the focus while being cleared', async () => {
      shell
        .reply(ADB_SHELL.uiDump, uiDumpOutput({ fieldText: 'x'.repeat(5000) }))
        .reply(clearCommand(4096), '')
        .reply(ADB_SHELL.uiDump, uiDumpOutput({ fieldText: 'x'.repeat(904), focused: false }));
      expect(await refusal(executor.execute(action('input', { text: 'new', clear: true })))).toEqual({
        code: 'NO_FOCUSED_INPUT',
        message: 'no editable field has the focus any more while clearing it; nothing was typed',
      });
      expect(shell.commands.filter((c) => c.startsWith('input text'))).toEqual([]);
    });

    it('reports verified: false with the text read back when the field shows something else', async () => {
      shell
        .reply(ADB_SHELL.uiDump, uiDumpOutput({ fieldText: '' }))
        .reply("input text 'hello'", '')
        .reply(ADB_SHELL.uiDump, uiDumpOutput({ fieldText: 'hel' }));
      expect(await executor.execute(action('input', { text: 'hello' }))).toEqual({ text: 'hel', verified: false, method: 'input-text' });
    });

    it('answers NO_FOCUSED_INPUT when no editable field has the focus', async () => {
      shell.reply(ADB_SHELL.uiDump, uiDumpOutput({ focused: false }));
      expect(await refusal(executor.execute(action('input', { text: 'x' })))).toEqual({ code: 'NO_FOCUSED_INPUT', message: 'no editable field has the focus; click one first' });
    });

    it('refuses non-ASCII text UNSUPPORTED, saying how to enable ADBKeyBoard, and types nothing', async () => {
      shell.reply(ADB_SHELL.uiDump, uiDumpOutput()).reply(ADB_SHELL.inputMethods, 'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME\n---\ncom.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME\n');
      const refused = await refusal(executor.execute(action('input', { text: '你好 👋' })));
      expect(refused.code).toBe('UNSUPPORTED');
      expect(refused.message).toContain('adb shell ime enable com.android.adbkeyboard/.AdbIME && adb shell ime set com.android.adbkeyboard/.AdbIME');
      expect(shell.commands).toEqual([ADB_SHELL.uiDump, ADB_SHELL.inputMethods]);
    });

    it('says to select ADBKeyBoard when it is enabled but not the current keyboard', async () => {
      shell.reply(ADB_SHELL.uiDump, uiDumpOutput()).reply(ADB_SHELL.inputMethods, 'com.android.adbkeyboard/.AdbIME\ncom.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME\n---\ncom.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME\n');
      expect((await refusal(executor.execute(action('input', { text: 'héllo' })))).message).toContain('ADBKeyBoard is installed but not the current keyboard: run `adb shell ime set com.android.adbkeyboard/.AdbIME`');
    });

    it('types Unicode through the ADBKeyBoard broadcast when it is the current keyboard', async () => {
      const text = '你好 👋 "hi"';
      const b64 = Buffer.from(text, 'utf8').toString('base64');
      shell
        .reply(ADB_SHELL.uiDump, uiDumpOutput({ fieldText: 'x' }))
        .reply(ADB_SHELL.inputMethods, 'com.android.adbkeyboard/.AdbIME\n---\ncom.android.adbkeyboard/.AdbIME\n')
        .reply('am broadcast -a ADB_CLEAR_TEXT', 'Broadcasting: Intent { act=ADB_CLEAR_TEXT flg=0x400000 }\nBroadcast completed: result=0\n')
        .reply(`am broadcast -a ADB_INPUT_B64 --es msg '${b64}'`, 'Broadcasting: Intent { act=ADB_INPUT_B64 flg=0x400000 (has extras) }\nBroadcast completed: result=0\n')
        .reply(ADB_SHELL.uiDump, uiDumpOutput({ fieldText: text }));
      expect(await executor.execute(action('input', { text, clear: true }))).toEqual({ text, verified: true, method: 'adb-keyboard' });
    });
  });

  describe('deadlines', () => {
    it('gives every shell call the time left before the deadline, and abandons a hung one with TIMEOUT', async () => {
      shell.reply('screencap -p', { hang: true }).always(ADB_SHELL.geometry, geometryOutput(0));
      const refused = await refusal(executor.execute(action('screenshot', {}, { timeoutMs: 200 })));
      expect(refused).toEqual({ code: 'TIMEOUT', message: expect.stringMatching(/^adb shell `screencap -p` did not finish within \d+ ms; abandoned$/) as unknown as string });
      const call = shell.calls.find((c) => c.command === 'screencap -p');
      expect(call?.abandoned).toBe('timeout');
      // Inside the action's deadline, with a margin (10 %) for the reply.
      expect(call?.timeoutMs).toBeLessThanOrEqual(180);
      expect(call?.timeoutMs).toBeGreaterThan(100);
    });

    it('abandons the shell call when the action is aborted (cancel), passing the reason on', async () => {
      const controller = new AbortController();
      shell.reply(ADB_SHELL.uiDump, { hang: true }).always(ADB_SHELL.geometry, geometryOutput(0));
      const running = executor.execute(action('ui_tree', {}, { signal: controller.signal }));
      const call = await shell.called(ADB_SHELL.uiDump);
      expect(call.abandoned).toBeUndefined();
      const reason = new Error('request r-1 was cancelled by the gateway');
      controller.abort(reason);
      await expect(running).rejects.toBe(reason);
      expect(call.abandoned).toBe('aborted');
    });

    it('reports adb losing the device as COMMAND_FAILED with adb\'s reason', async () => {
      shell.reply('input keyevent 4', new AdbShellError('input keyevent 4', "R58M123: device 'R58M123' not found"));
      expect(await refusal(executor.execute(action('back')))).toEqual({ code: 'COMMAND_FAILED', message: "adb could not run `input keyevent 4`: R58M123: device 'R58M123' not found" });
    });

    it('awaits onDeviceLost before failing a command cut off by a lost device, so no reply can claim it ran', async () => {
      const events: string[] = [];
      let release = (): void => undefined;
      const lost = new AdbDeviceLostError('input keyevent 4', "R58M123: the command was cut off: device 'R58M123' not found");
      const bridged = new AdbExecutor({
        shell,
        onDeviceLost: (err) => {
          events.push(`lost: ${err.message}`);
          return new Promise<void>((resolve) => (release = () => (events.push('link stopped'), resolve())));
        },
      });
      shell.reply('input keyevent 4', lost);
      const running = refusal(bridged.execute(action('back'))).then((r) => (events.push(`failed ${r.code}`), r));
      await shell.called('input keyevent 4');
      // Every pending continuation runs before the next macrotask: a failure not held by onDeviceLost would be in by then.
      await new Promise((resolve) => setImmediate(resolve));
      expect(events).toEqual([`lost: ${lost.message}`]);
      release();
      expect(await running).toEqual({ code: 'COMMAND_FAILED', message: lost.message });
      expect(events).toEqual([`lost: ${lost.message}`, 'link stopped', 'failed COMMAND_FAILED']);
    });
  });
});
