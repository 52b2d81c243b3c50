import { parseUiHierarchyXml } from '@mobileclaw/ui-hierarchy';
import { PhoneUi } from '../phone-ui';
import { AdbDevice } from './adb-device';

/** Runs a command line on a fresh (or given) phone; the merged output as text and the exit status. */
async function sh(command: string, device = new AdbDevice({ serial: 'sim-1', ui: new PhoneUi() })): Promise<{ out: string; status: number }> {
  const chunks: Buffer[] = [];
  const status = await device.runShell(command, { write: (d) => void chunks.push(Buffer.from(d)) });
  return { out: Buffer.concat(chunks).toString('utf8'), status };
}

describe('the simulated device shell', () => {
  it('runs && || ; with exit statuses, and $? sees the last one', async () => {
    expect(await sh('false && echo no; false || echo yes; true; echo $?')).toEqual({ out: 'yes\n0\n', status: 0 });
    expect(await sh('nope; echo $?')).toEqual({ out: '/system/bin/sh: nope: inaccessible or not found\n127\n', status: 0 });
    expect(await sh('exit 3; echo never')).toEqual({ out: '', status: 3 });
    expect(await sh('/system/bin/echo hi; /tmp/echo x')).toEqual({ out: 'hi\n/system/bin/sh: /tmp/echo: inaccessible or not found\n', status: 127 });
  });

  it('pipes, redirections and files', async () => {
    const device = new AdbDevice({ serial: 'sim-1' });
    expect(await sh('getprop | grep -E "ro.build.version.(sdk|release)"', device)).toEqual({ out: '[ro.build.version.release]: [14]\n[ro.build.version.sdk]: [34]\n', status: 0 });
    expect(await sh('echo one > /sdcard/a.txt; echo two >> /sdcard/a.txt; cat /sdcard/a.txt | tail -n 1', device)).toEqual({ out: 'two\n', status: 0 });
    expect(await sh('cat /sdcard/missing 2>/dev/null; echo $?', device)).toEqual({ out: '1\n', status: 0 });
    expect(await sh('echo x > /system/x', device)).toEqual({ out: "/system/bin/sh: can't create /system/x: Permission denied\n", status: 1 });
    expect(await sh('grep -c Settings /sdcard/a.txt; rm /sdcard/a.txt; cat /sdcard/a.txt', device)).toEqual({ out: '0\ncat: /sdcard/a.txt: No such file or directory\n', status: 1 });
  });

  it('a syntax error prints mksh’s message and runs nothing of that line', async () => {
    expect(await sh("echo first\ninput text O'Brien")).toEqual({ out: 'first\n/system/bin/sh: no closing quote\n', status: 1 });
  });

  it('input keyevent goes back and home, types keys, and DEL deletes', async () => {
    const device = new AdbDevice({ serial: 'sim-1' });
    const ui = device.ui;
    ui.open('com.google.android.apps.messaging');
    const alice = ui.centreOf((n) => n.text === 'Alice');
    await sh(`input tap ${alice?.x} ${alice?.y}`, device);
    expect(ui.current).toEqual({ screen: 'conversation', param: 'Alice' });
    const field = ui.centreOf((n) => n.class === 'android.widget.EditText');
    await sh(`input tap ${field?.x} ${field?.y}; input text 'hi%sthere'; input keyevent KEYCODE_DEL 67 KEYCODE_SPACE KEYCODE_A 8`, device);
    expect(ui.focusedText).toBe('hi the a1');
    expect(await sh('input text héllo', device)).toEqual({
      out: "Exception occurred while executing 'text':\njava.lang.NullPointerException: Attempt to get length of null array\n",
      status: 255,
    });
    expect(await sh('input tap x 1', device)).toMatchObject({ out: "Exception occurred while executing 'tap':\njava.lang.NumberFormatException: For input string: \"x\"\n" });
    await sh('input keyevent KEYCODE_BACK', device);
    expect(ui.state.screen).toBe('messages');
    await sh('input keyevent 3', device);
    expect(ui.state.screen).toBe('launcher');
  });

  it('input swipe scrolls, and holding a swipe in place for the long-press timeout is a long press', async () => {
    const device = new AdbDevice({ serial: 'sim-1' });
    const ui = device.ui;
    ui.open('com.android.contacts');
    const before = ui.nodes();
    await sh('input swipe 540 1800 540 600 300', device);
    expect(ui.nodes()).not.toEqual(before);
    const spy = jest.spyOn(ui, 'longPress');
    const click = jest.spyOn(ui, 'click');
    await sh('input swipe 300 700 300 700 400; input swipe 300 700 302 701 399', device);
    expect(spy.mock.calls).toEqual([[300, 700]]);
    expect(click.mock.calls).toEqual([[300, 700]]);
  });

  it('am start, monkey and pm open and list apps with Android’s messages', async () => {
    const device = new AdbDevice({ serial: 'sim-1' });
    expect(await sh('am start -n com.android.settings/.Settings', device)).toEqual({ out: 'Starting: Intent { cmp=com.android.settings/.Settings }\n', status: 0 });
    expect(device.ui.state.screen).toBe('settings');
    expect((await sh('am start -a android.intent.action.MAIN -c android.intent.category.LAUNCHER -p com.nope', device)).out).toBe(
      'Starting: Intent { act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] pkg=com.nope }\n' +
        'Error: Activity not started, unable to resolve Intent { act=android.intent.action.MAIN cat=[android.intent.category.LAUNCHER] flg=0x10000000 pkg=com.nope }\n',
    );
    const monkey = await sh('monkey -p com.android.contacts -c android.intent.category.LAUNCHER 1', device);
    expect(monkey.out).toContain('Events injected: 1\n');
    expect(device.ui.state.screen).toBe('contacts');
    const refused = await sh('monkey -p com.nope -c android.intent.category.LAUNCHER 1; echo $?', device);
    expect(refused.out.endsWith('** No activities found to run, monkey aborted.\n252\n')).toBe(true);
    expect((await sh('pm list packages settings; pm path com.nope; echo $?', device)).out).toBe('package:com.android.settings\n1\n');
    expect((await sh('cmd package resolve-activity --brief com.android.chrome', device)).out).toBe(
      'priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\ncom.android.chrome/com.google.android.apps.chrome.Main\n',
    );
  });

  it('rotation reads and writes through settings, wm and dumpsys agree, and the dump follows', async () => {
    const device = new AdbDevice({ serial: 'sim-1' });
    expect((await sh('settings get system user_rotation; settings put system user_rotation 3; wm user-rotation', device)).out).toBe('0\nlock 3\n');
    const displays = (await sh('dumpsys window displays | grep -E "cur=|mRotation="', device)).out;
    expect(displays).toBe('    init=1080x2400 420dpi base=1080x2400 420dpi cur=2400x1080 app=2400x1080 rng=1080x1080-2400x2400\n    mRotation=3 mDeferredRotationPauseCount=0\n');
    const dump = (await sh('uiautomator dump --compressed /dev/tty 2>/dev/null', device)).out.replace(/UI hierchary dumped to: \/dev\/tty\n$/, '');
    expect(parseUiHierarchyXml(dump).screen).toEqual({ width: 2400, height: 1080, rotation: 3 });
    expect((await sh('settings put system user_rotation 7', device)).status).toBe(255);
    expect((await sh('settings get global wifi_on; settings put global wifi_on 1; settings get global nope', device)).out).toBe('0\nnull\n');
    expect(device.ui.state.wifi).toBe(true);
  });

  it('uiautomator dump escapes text so that it reads back exactly', async () => {
    const device = new AdbDevice({ serial: 'sim-1' });
    device.ui.state.conversations['Alice']?.push({ from: 'them', text: 'Tom & "Jerry" <3' });
    device.ui.open('com.google.android.apps.messaging');
    const alice = device.ui.centreOf((n) => n.text === 'Alice');
    device.ui.click(alice?.x ?? 0, alice?.y ?? 0);
    await sh('uiautomator dump', device);
    const tree = parseUiHierarchyXml(device.files.read('/sdcard/window_dump.xml')?.data.toString('utf8') ?? '');
    const texts: string[] = [];
    const visit = (nodes: typeof tree.nodes): void => nodes.forEach((n) => (texts.push(n.text), visit(n.children)));
    visit(tree.nodes);
    expect(texts).toContain('Tom & "Jerry" <3');
  });
});
