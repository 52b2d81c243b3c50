/**
 * The rule-based planner's first decision on real recorded Android screens
 * (test/fixtures/screens, copied from ../shared; imported by the protocol's XML importer): exact targets and centres.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { toUiElements, type PlanDecision, type PlannerHistoryEntry, type UiElement } from '@mobileclaw/domain';
import { parseUiHierarchyXml } from '@mobileclaw/ui-hierarchy';
import { RuleBasedPlanner } from './rule-based-planner';

const SCREENS = path.resolve(__dirname, '../../../../test/fixtures/screens');

interface Recorded {
  elements: UiElement[];
  package?: string;
  screen: { width: number; height: number };
}

function recorded(file: string): Recorded {
  const tree = parseUiHierarchyXml(readFileSync(path.join(SCREENS, file), 'utf8'));
  return { elements: toUiElements(tree.nodes), package: tree.nodes[0]?.package, screen: { width: tree.screen.width, height: tree.screen.height } };
}

let taskSeq = 0;

async function plan(goal: string, screen: Recorded, history: PlannerHistoryEntry[] = [], planner = new RuleBasedPlanner(), taskId = `fixture-${++taskSeq}`): Promise<PlanDecision> {
  return planner.plan({
    taskId,
    deviceId: 'recorded',
    goal,
    stepIndex: history.length,
    maxSteps: 25,
    observation: { screen: screen.screen, elements: screen.elements, package: screen.package },
    history,
    signal: new AbortController().signal,
  });
}

function element(screen: Recorded, index: number | undefined): UiElement | undefined {
  return index === undefined ? undefined : screen.elements[index];
}

describe('RuleBasedPlanner on settings-top.xml', () => {
  const top = recorded('settings-top.xml');

  it('"open Network & internet" taps the exact centre of that row', async () => {
    const decision = await plan('open Network & internet', top);
    expect(decision).toMatchObject({ type: 'action', action: { command: 'click', x: 540, y: 497 }, elementIndex: 4 });
    expect(element(top, decision.type === 'action' ? decision.elementIndex : undefined)).toMatchObject({
      text: 'Network & internet · Wi\u2011Fi, mobile, data usage, and hotspot',
      bounds: [0, 397, 1080, 597],
    });
  });

  it('"open Display settings" taps the Display row (the name without its generic "settings")', async () => {
    expect(await plan('open Display settings', top)).toMatchObject({ action: { command: 'click', x: 540, y: 1297 }, elementIndex: 8 });
  });

  it('"tap Battery" and "点击 Display" tap those rows', async () => {
    expect(await plan('tap Battery', top)).toMatchObject({ action: { command: 'click', x: 540, y: 1097 }, elementIndex: 7 });
    expect(await plan('点击 Display', top)).toMatchObject({ action: { command: 'click', x: 540, y: 1297 }, elementIndex: 8 });
  });

  it('"turn on Wi-Fi" follows the known path: the Network & internet row (not the summary that mentions Wi‑Fi)', async () => {
    expect(await plan('turn on Wi-Fi', top)).toMatchObject({ type: 'action', action: { command: 'click', x: 540, y: 497 }, elementIndex: 4 });
  });

  it('"enable Bluetooth" opens Connected devices', async () => {
    expect(await plan('enable Bluetooth', top)).toMatchObject({ action: { command: 'click', x: 540, y: 697 }, elementIndex: 5 });
  });

  it('"type wifi into Search" taps "Search settings", which opens the search field', async () => {
    expect(await plan('type wifi into Search', top)).toMatchObject({ action: { command: 'click', x: 540, y: 154 }, elementIndex: 0 });
  });

  it('"tap Accessibility" scrolls the list when nothing visible is labelled so', async () => {
    expect(await plan('tap Accessibility', top)).toMatchObject({
      type: 'action',
      action: { command: 'swipe', x1: 540, y1: 1582, x2: 540, y2: 571, durationMs: 300 },
      elementIndex: 2,
    });
  });
});

describe('RuleBasedPlanner on settings-network-internet-wifi.xml (Wi‑Fi on, Airplane mode off)', () => {
  const network = recorded('settings-network-internet-wifi.xml');

  it('"turn off Wi‑Fi" clicks the checked Wi‑Fi switch at its centre', async () => {
    const decision = await plan('turn off Wi\u2011Fi', network);
    expect(decision).toMatchObject({ type: 'action', action: { command: 'click', x: 970, y: 320 }, elementIndex: 5 });
    expect(element(network, 5)).toMatchObject({ type: 'Switch', desc: 'Wi\u2011Fi', checked: true });
  });

  it.each(['turn on Wi-Fi', 'Turn ON wifi', '打开 Wi-Fi', '开启WLAN', 'enable “Wi‑Fi”'])('"%s" is already done at step 0', async (goal) => {
    expect(await plan(goal, network)).toEqual({ type: 'done', summary: 'Wi-Fi is on.', reasoning: expect.any(String) });
  });

  it('"turn on airplane mode" clicks the unlabelled switch that shares the Airplane mode row', async () => {
    const decision = await plan('turn on airplane mode', network);
    expect(decision).toMatchObject({ action: { command: 'click', x: 972, y: 693 } });
    expect(element(network, decision.type === 'action' ? decision.elementIndex : undefined)).toMatchObject({ type: 'Switch', text: 'OFF', checked: false });
    expect(await plan('关闭飞行模式', network)).toMatchObject({ type: 'done', summary: 'Airplane mode is off.' });
  });

  it('"go back" presses Back, then is done', async () => {
    const planner = new RuleBasedPlanner();
    const first = await plan('go back', network, [], planner, 'back-task');
    expect(first).toMatchObject({ type: 'action', action: { command: 'back' } });
    const second = await plan('go back', recorded('settings-top.xml'), [{ index: 0, decision: first, result: { status: 'success' }, observation: { elements: network.elements, package: network.package } }], planner, 'back-task');
    expect(second).toMatchObject({ type: 'done', summary: 'Went back.' });
  });
});

describe('RuleBasedPlanner on settings-network-internet-wifi.xml: rows, switches and the page itself', () => {
  const network = recorded('settings-network-internet-wifi.xml');

  it('"turn off Airplane mode" is done at step 0 (its switch is off); "tap Airplane mode" taps its row', async () => {
    expect(await plan('turn off Airplane mode', network)).toEqual({ type: 'done', summary: 'Airplane mode is off.', reasoning: expect.any(String) });
    expect(await plan('tap Airplane mode', network)).toMatchObject({ action: { command: 'click', x: 540, y: 693 }, elementIndex: 7 });
  });

  it('"tap Wi-Fi" taps the Wi‑Fi row: the row and the switch inside it are one target, not two', async () => {
    expect(await plan('tap Wi-Fi', network)).toMatchObject({ action: { command: 'click', x: 540, y: 320 }, elementIndex: 3 });
  });

  it('"open Network & internet" is done at step 0: the page\'s title reads so', async () => {
    expect(await plan('open Network & internet', network)).toEqual({
      type: 'done',
      summary: '"Network & internet" is open: the screen\'s title is "Network & internet".',
      reasoning: expect.any(String),
    });
  });

  it('"turn on Wi-Fi hotspot" does not take the Wi‑Fi switch for it, and fails in this list without a way further', async () => {
    expect(await plan('turn on Wi-Fi hotspot', network)).toMatchObject({ type: 'fail', reason: 'Goal understood as: turn on "Wi-Fi hotspot". Could not find the Hotspot switch in Settings.' });
  });

  it('uses an element\'s `label` when the screen reader gives one: the Airplane mode switch labelled by its row', async () => {
    const labelled: Recorded = { ...network, elements: network.elements.map((e) => (e.index === 8 ? { ...e, label: 'Airplane mode', labelSource: 'row' as const } : e)) };
    expect(await plan('turn on Airplane mode', labelled)).toMatchObject({ action: { command: 'click', x: 972, y: 693 }, elementIndex: 8 });
  });
});

describe('RuleBasedPlanner on settings-top.xml replayed (a static screen: taps change nothing)', () => {
  const top = recorded('settings-top.xml');

  it('"open Network & internet" taps the row, taps it once more, then fails: never completed without an effect', async () => {
    const planner = new RuleBasedPlanner();
    const history: PlannerHistoryEntry[] = [];
    const decisions: PlanDecision[] = [];
    for (let i = 0; i < 5; i++) {
      const decision = await plan('open Network & internet', top, [...history], planner, 'replayed-top');
      decisions.push(decision);
      if (decision.type !== 'action') break;
      history.push({ index: i, decision, result: { status: 'success', verified: false }, observation: { elements: top.elements, package: top.package } });
    }
    expect(decisions.map((d) => (d.type === 'action' ? d.action : d.type))).toEqual([{ command: 'click', x: 540, y: 497 }, { command: 'click', x: 540, y: 497 }, 'fail']);
    expect(decisions[2]).toMatchObject({ reason: 'Goal understood as: open "Network & internet". Tapping "Network & internet" had no visible effect, twice (the screen did not change).' });
  });
});

describe('RuleBasedPlanner on settings-security-list.xml', () => {
  const security = recorded('settings-security-list.xml');

  it('"tap Security" fails: only the page title reads so, and nothing clickable holds it', async () => {
    expect(await plan('tap Security', security)).toMatchObject({
      type: 'fail',
      reason: 'Goal understood as: tap "Security". "Security" is shown ([1] "Security") but neither it nor anything around it can be tapped.',
    });
  });

  it('"open Security" is done at step 0 (the title); "tap Settings" taps the gear, not "Search settings"', async () => {
    expect(await plan('open Security', security)).toMatchObject({ type: 'done', summary: '"Security" is open: the screen\'s title is "Security".' });
    expect(await plan('tap Settings', security)).toMatchObject({ action: { command: 'click', x: 992, y: 1378 }, elementIndex: 12 });
  });
});

describe('RuleBasedPlanner on playstore-games-scroll.xml', () => {
  const store = recorded('playstore-games-scroll.xml');

  it('"open Apps" taps the bottom tab; "open Games" is done at once: it is the selected tab', async () => {
    expect(await plan('open Apps', store)).toMatchObject({ action: { command: 'click', x: 405, y: 2011 }, elementIndex: 17 });
    expect(await plan('open Games', store)).toMatchObject({ type: 'done', summary: '"Games" is open: "Games" is selected.' });
  });

  it('"tap Gardenscapes" taps the only card that names it (a partial match, unique)', async () => {
    expect(await plan('tap Gardenscapes', store)).toMatchObject({ action: { command: 'click', x: 376, y: 1228 }, elementIndex: 14 });
  });

  it('scrolls the page\'s main list (the largest), not the strip of tabs, to look for a missing item', async () => {
    expect(await plan('tap Minecraft', store)).toMatchObject({ action: { command: 'swipe', x1: 540, y1: 1464, x2: 540, y2: 532, durationMs: 300 }, elementIndex: 5 });
  });
});

describe('RuleBasedPlanner on quick-settings-zh.xml (every tile label is a selected marquee text)', () => {
  const tiles = recorded('quick-settings-zh.xml');

  it('never takes a selected plain text for the open tab: "open Bluetooth" and "open hotspot" act on their tiles instead of completing', async () => {
    for (const goal of ['open Bluetooth', 'open hotspot', '打开 一键冻结']) {
      const decision = await plan(goal, tiles);
      expect({ goal, type: decision.type }).toEqual({ goal, type: 'action' });
    }
    const bluetooth = await plan('open Bluetooth', tiles);
    expect(bluetooth.type === 'action' ? element(tiles, bluetooth.elementIndex)?.desc : undefined).toBe('蓝牙。');
  });
});

describe('RuleBasedPlanner on settings-languages.xml', () => {
  const languages = recorded('settings-languages.xml');

  it('"open Languages" is done at once (the collapsing toolbar names the page); "tap Add a language" taps the button', async () => {
    expect(await plan('open Languages', languages)).toMatchObject({ type: 'done', summary: '"Languages" is open: the screen\'s title is "Languages".' });
    expect(await plan('tap Add a language', languages)).toMatchObject({ action: { command: 'click', x: 540, y: 1123 }, elementIndex: 7 });
  });
});

describe('RuleBasedPlanner on settings-connected-devices-bluetooth.xml', () => {
  const devices = recorded('settings-connected-devices-bluetooth.xml');

  it('"turn on Bluetooth" opens Connection preferences (a row, not the page title "Connected devices")', async () => {
    expect(await plan('turn on Bluetooth', devices)).toMatchObject({ action: { command: 'click', x: 540, y: 649 }, elementIndex: 6 });
  });
});

describe('RuleBasedPlanner on signup-form-textfields.xml', () => {
  const form = recorded('signup-form-textfields.xml');

  it('finds a field by the caption above it: "Password", not "Confirm Password"', async () => {
    expect(await plan('type s3cret into the Password field', form)).toMatchObject({ action: { command: 'click', x: 540, y: 697 }, elementIndex: 8 });
    expect(await plan('在 Confirm Password 输入 s3cret', form)).toMatchObject({ action: { command: 'click', x: 540, y: 972 }, elementIndex: 12 });
  });

  it('"tap Show password" fails naming both buttons: one per password field', async () => {
    expect(await plan('tap Show password', form)).toMatchObject({
      type: 'fail',
      reason: 'Goal understood as: tap "Show password". "Show password" matches 2 elements: [9] "Show password" and [13] "Show password".',
    });
  });

  it('is done at once when the field already shows the text', async () => {
    expect(await plan('type hoge@example.com into Mail Address', form)).toMatchObject({ type: 'done' });
  });
});

describe('RuleBasedPlanner on clock-alarm-list.xml (Google Clock: two alarms, both off; switches without text)', () => {
  const clock = recorded('clock-alarm-list.xml');

  it('turns on an alarm named by its time: the switch of the card that shows it', async () => {
    expect(await plan('Turn on the 8:30 AM alarm', clock)).toMatchObject({ action: { command: 'click', x: 898, y: 535 }, elementIndex: 6 });
    expect(await plan("enable my 9 o'clock alarm", clock)).toMatchObject({ action: { command: 'click', x: 898, y: 894 }, elementIndex: 11 });
  });

  it('is done at once when that alarm is already off; "turn on alarm" names both cards and fails', async () => {
    expect(await plan('turn off the 8:30 alarm', clock)).toMatchObject({ type: 'done', summary: '8:30 alarm is off.' });
    expect(await plan('turn on alarm', clock)).toMatchObject({ type: 'fail', reason: 'Goal understood as: turn on "alarm". "alarm" matches 2 elements: [6] "Alarm" and [11] "Alarm".' });
  });

  it('"open the stopwatch" taps its tab; "open Alarm" is done (the title and the selected tab)', async () => {
    expect(await plan('open the stopwatch', clock)).toMatchObject({ action: { command: 'click', x: 756, y: 1978 }, elementIndex: 19 });
    expect(await plan('open Alarm', clock)).toMatchObject({ type: 'done', summary: '"Alarm" is open: the screen\'s title is "Alarm".' });
  });
});

describe('RuleBasedPlanner on samsung-open-with-chooser.xml (an "Open with" sheet: two apps named Messages, Just once and Always disabled)', () => {
  const chooser = recorded('samsung-open-with-chooser.xml');

  it('"open it with Calendar" and "用相机打开" tap the app in the sheet (never launch it); "open with Messages" fails naming both', async () => {
    expect(await plan('open it with Calendar', chooser)).toMatchObject({ action: { command: 'click', x: 662, y: 1539 }, elementIndex: 6 });
    expect(await plan('用相机打开', chooser)).toMatchObject({ action: { command: 'click', x: 662, y: 1870 }, elementIndex: 10 });
    expect(await plan('open with Messages', chooser)).toMatchObject({
      type: 'fail',
      reason: 'Goal understood as: tap "Messages". "Messages" matches 2 elements: [4] "Messages" and [5] "Messages".',
    });
  });

  it('"tap Always" fails: the button is disabled', async () => {
    expect(await plan('tap Always', chooser)).toMatchObject({ type: 'fail', reason: 'Goal understood as: tap "Always". "Always" ([17] "Always") is disabled, so it cannot be used.' });
  });
});

describe('RuleBasedPlanner on settings-date-time.xml', () => {
  const dateTime = recorded('settings-date-time.xml');

  it('takes the closest of two switches holding the name\'s words: "automatic time" is "Set time automatically", not "Set time zone automatically"', async () => {
    expect(await plan('turn on automatic time', dateTime)).toMatchObject({ type: 'done', summary: 'automatic time is on.' });
    expect(await plan('turn off automatic time', dateTime)).toMatchObject({ action: { command: 'click', x: 959, y: 639 }, elementIndex: 3 });
  });
});

describe('RuleBasedPlanner on homee-welcome.xml and launcher-home-pixel.xml (recordings without a foreground package)', () => {
  it('"open the privacy policy" taps the link (a View described so)', async () => {
    expect(await plan('open the privacy policy', recorded('homee-welcome.xml'))).toMatchObject({ action: { command: 'click', x: 539, y: 2235 }, elementIndex: 13 });
  });

  it('reads the launcher from its resource ids: "open Spotify" opens the app drawer; "open VLC" taps its icon', async () => {
    const launcher = recorded('launcher-home-pixel.xml');
    expect(launcher.package ?? '').toBe('');
    expect(await plan('open Spotify', launcher)).toMatchObject({ action: { command: 'swipe', x1: 540, y1: 1920, x2: 540, y2: 720, durationMs: 300 } });
    expect(await plan('open VLC', launcher)).toMatchObject({ action: { command: 'click', x: 918, y: 1970 }, elementIndex: 9 });
  });

  it('"open Chrome" launches it, once more when the screen did not change, then fails: never done without the app in front', async () => {
    const launcher = recorded('launcher-home-pixel.xml');
    const planner = new RuleBasedPlanner();
    const history: PlannerHistoryEntry[] = [];
    const decisions: PlanDecision[] = [];
    for (let i = 0; i < 4; i++) {
      const decision = await plan('open Chrome', launcher, [...history], planner, 'static-launcher');
      decisions.push(decision);
      if (decision.type !== 'action') break;
      history.push({ index: i, decision, result: { status: 'success' }, observation: { elements: launcher.elements } });
    }
    expect(decisions.map((d) => (d.type === 'action' ? d.action : d.type))).toEqual([{ command: 'open', app: 'com.android.chrome' }, { command: 'open', app: 'com.android.chrome' }, 'fail']);
    expect(decisions[2]).toMatchObject({ reason: 'Goal understood as: open "Chrome". Launched Browser (com.android.chrome) twice, but the screen did not change.' });
  });
});

describe('RuleBasedPlanner: names that point at something on a screen are not looked for on the home screen', () => {
  it('"open my world clock" on the clock fails without pressing Home', async () => {
    expect(await plan('open my world clock', recorded('clock-alarm-list.xml'))).toMatchObject({
      type: 'fail',
      reason: 'Goal understood as: open "my world clock". Nothing labelled "my world clock" is on the screen; the name points at something on a screen, not at an app, so the home screen is not searched.',
    });
  });
});

describe('RuleBasedPlanner on settings-date-time-ja.xml (a Japanese screen)', () => {
  const ja = recorded('settings-date-time-ja.xml');

  it('does not scroll a Japanese list for an English name it cannot be written in: fails at once, saying why', async () => {
    expect(await plan('turn off Set time automatically', ja)).toMatchObject({
      type: 'fail',
      reason:
        'Goal understood as: turn off "Set time automatically". No switch labelled "Set time automatically" is on this screen; ' +
        'the screen is written in Japanese, a language the planner has no words for, so its list is not searched.',
    });
  });

  it('finds a Japanese label quoted in the goal: "turn off 日時を自動的に設定" taps its switch', async () => {
    expect(await plan('turn off 日時を自動的に設定', ja)).toMatchObject({ action: { command: 'click', x: 959, y: 639 }, elementIndex: 4 });
  });
});

describe('RuleBasedPlanner: alarms named by their days, "打开X" on a switch, a control of a card', () => {
  const clock = recorded('clock-alarm-list.xml');

  it('"switch on the weekend alarm" is the alarm ringing Sun, Sat; "the weekday alarm" the one ringing Mon–Fri', async () => {
    expect(await plan('switch on the weekend alarm', clock)).toMatchObject({ action: { command: 'click', x: 898, y: 894 }, elementIndex: 11 });
    expect(await plan('打开周末的闹钟', clock)).toMatchObject({ action: { command: 'click', x: 898, y: 894 }, elementIndex: 11 });
    expect(await plan('turn on the weekday alarm', clock)).toMatchObject({ action: { command: 'click', x: 898, y: 535 }, elementIndex: 6 });
  });

  it('"打开8:30的闹钟" turns on that alarm\'s switch; "打开计时器" still opens the tab and "打开闹钟" is done (the page is Alarm)', async () => {
    expect(await plan('打开8:30的闹钟', clock)).toMatchObject({ action: { command: 'click', x: 898, y: 535 }, elementIndex: 6, reasoning: 'The 8:30的闹钟 switch is off; tap it to turn 8:30的闹钟 on.' });
    expect(await plan('打开计时器', clock)).toMatchObject({ action: { command: 'click', x: 540, y: 1978 }, elementIndex: 17 });
    expect(await plan('打开闹钟', clock)).toMatchObject({ type: 'done', summary: '"闹钟" is open: the screen\'s title is "Alarm".' });
  });

  it('"expand the 9:00 AM alarm" taps the Expand button of that card, not of the other; an alarm not shown fails', async () => {
    expect(await plan('expand the 9:00 AM alarm', clock)).toMatchObject({ action: { command: 'click', x: 948, y: 689 }, elementIndex: 9 });
    expect(await plan('展开8:30的闹钟', clock)).toMatchObject({ action: { command: 'click', x: 948, y: 330 }, elementIndex: 4 });
    expect(await plan('expand the 7:00 alarm', clock)).toMatchObject({
      type: 'fail',
      reason: 'Goal understood as: tap "expand" of "7:00 alarm". Nothing labelled "expand" (Expand, Show more, 展开, 显示更多) inside "7:00 alarm" is on the screen.',
    });
  });

  it('"go to the Timer tab" taps the tab', async () => {
    expect(await plan('go to the Timer tab', clock)).toMatchObject({ action: { command: 'click', x: 540, y: 1978 }, elementIndex: 17 });
  });

  it('"add X to the cart" taps the Add to cart button of the product X names (two such buttons on screen)', async () => {
    const pharmacy = recorded('pharmacy-home-ar.xml');
    expect(await plan('add كلوكسيدي 30 كبسولة to the cart', pharmacy)).toMatchObject({ action: { command: 'click', x: 32, y: 1170 }, elementIndex: 29 });
    expect(await plan('add سيرينجي للبالغين 3 كم to the cart', pharmacy)).toMatchObject({ action: { command: 'click', x: 583, y: 1170 }, elementIndex: 21 });
    expect(await plan('tap Add to cart', pharmacy)).toMatchObject({ type: 'fail', reason: 'Goal understood as: tap "Add to cart". "Add to cart" matches 2 elements: [21] "Add to cart" and [29] "Add to cart".' });
  });
});

describe('RuleBasedPlanner: dialog and tour verbs take whole button labels', () => {
  it('"keep waiting for Settings" taps Wait; "dismiss the dialog" does not take "Close app" for "Close" and fails', async () => {
    const anr = recorded('dialog-app-not-responding.xml');
    expect(await plan('keep waiting for Settings', anr)).toMatchObject({ action: { command: 'click', x: 540, y: 1214 }, elementIndex: 2 });
    expect(await plan('dismiss the dialog', anr)).toMatchObject({
      type: 'fail',
      reason: 'Goal understood as: tap "dismiss". Nothing labelled "dismiss" (Dismiss, Close, Got it, Cancel, Not now, No thanks, 关闭, 知道了, 我知道了, 取消, 暂不, 以后再说) is on the screen.',
    });
  });

  it('"skip the tour" and "跳过" take the tour\'s only way out, GOT IT, saying so; "skip" on a dialog without a closing button fails', async () => {
    const tour = recorded('gmail-welcome-tour.xml');
    expect(await plan('skip the tour', tour)).toMatchObject({
      action: { command: 'click', x: 540, y: 1720 },
      elementIndex: 2,
      reasoning: 'Nothing labelled "skip" (Skip, Skip for now, Skip tour, 跳过, 暂时跳过, 跳过广告) is on the screen; "GOT IT" does the same here: tap it.',
    });
    expect(await plan('跳过', tour)).toMatchObject({ action: { command: 'click', x: 540, y: 1720 }, elementIndex: 2 });
    expect(await plan('skip', recorded('dialog-app-not-responding.xml'))).toMatchObject({ type: 'fail', reason: expect.stringMatching(/^Goal understood as: tap "skip"\. Nothing labelled "skip" \(.*\), nor Got it, Close, .* is on the screen\.$/) });
  });

  it('"log in" and "登录" tap Log In; "sign up" fails: the screen has no such button', async () => {
    const welcome = recorded('homee-welcome.xml');
    expect(await plan('log in', welcome)).toMatchObject({ action: { command: 'click', x: 540, y: 1647 }, elementIndex: 8 });
    expect(await plan('登录', welcome)).toMatchObject({ action: { command: 'click', x: 540, y: 1647 }, elementIndex: 8 });
    expect(await plan('sign up', welcome)).toMatchObject({ type: 'fail', reason: 'Goal understood as: tap "sign up". Nothing labelled "sign up" (Sign up, Register, Create account, 注册, 立即注册) is on the screen.' });
  });
});

describe('RuleBasedPlanner: search, questions about a page, typing "as" a field', () => {
  const top = recorded('settings-top.xml');

  it('"search settings for NFC" and "在设置中搜索 NFC" tap "Search settings" first (Settings is in front)', async () => {
    expect(await plan('search settings for NFC', top)).toMatchObject({ action: { command: 'click', x: 540, y: 154 }, elementIndex: 0 });
    expect(await plan('在设置中搜索 NFC', top)).toMatchObject({ action: { command: 'click', x: 540, y: 154 }, elementIndex: 0 });
  });

  it('"how much storage is left? show me" opens Storage', async () => {
    expect(await plan('how much storage is left? show me', top)).toMatchObject({ action: { command: 'click', x: 540, y: 1697 }, elementIndex: 10 });
  });

  it('"enter Yamada as my last name" focuses the Last Name field, not First Name', async () => {
    const form = recorded('signup-form-textfields.xml');
    expect(await plan('enter Yamada as my last name', form)).toMatchObject({ action: { command: 'click', x: 793, y: 1767 }, elementIndex: 17 });
    expect(await plan('type Taro as my first name', form)).toMatchObject({ action: { command: 'click', x: 286, y: 1767 }, elementIndex: 16 });
  });
});

describe('RuleBasedPlanner: the goal’s whole words as a label, the app in front, exact before partial', () => {
  const form = recorded('signup-form-textfields.xml');
  const gmail = recorded('gmail-welcome-tour.xml');
  const clock = recorded('clock-alarm-list.xml');
  const launcher = recorded('launcher-home-pixel.xml');
  const top = recorded('settings-top.xml');

  it('"show password" names the two "Show password" buttons, not the Password field: fails naming both', async () => {
    expect(await plan('show password', form)).toMatchObject({
      type: 'fail',
      reason: 'Goal understood as: open "password". "show password" matches 2 elements: [9] "Show password" and [13] "Show password".',
    });
  });

  it('"show password for Confirm Password" takes the button inside that field; "…for the Password field" the other one', async () => {
    expect(await plan('show password for Confirm Password', form)).toMatchObject({ type: 'action', action: { command: 'click', x: 970, y: 972 }, elementIndex: 13 });
    expect(element(form, 13)).toMatchObject({ desc: 'Show password', bounds: [904, 906, 1036, 1038] });
    expect(await plan('please show the password for the Password field', form)).toMatchObject({ type: 'action', action: { command: 'click', x: 970, y: 697 }, elementIndex: 9 });
  });

  it('"tap password" still taps the Password field: the goal’s words name no button', async () => {
    expect(await plan('tap password', form)).toMatchObject({ action: { command: 'click', x: 540, y: 697 }, elementIndex: 8 });
  });

  it('"open Gmail" in Gmail’s welcome tour is done at once: its package and its own title "New in Gmail"', async () => {
    const done = { type: 'done', summary: '"Gmail" is open: com.google.android.gm is in front, titled "New in Gmail".' };
    expect(await plan('open Gmail', gmail)).toMatchObject(done);
    expect(await plan('open the Gmail app', gmail)).toMatchObject(done);
  });

  it('"open Gmail" on the launcher taps the Gmail icon: a screen showing the name is not the app', async () => {
    expect(await plan('open Gmail', launcher)).toMatchObject({ action: { command: 'click', x: 414, y: 1615 }, elementIndex: 2 });
    expect(await plan('open the Gmail app', launcher)).toMatchObject({ action: { command: 'click', x: 414, y: 1615 }, elementIndex: 2 });
  });

  it('"open the Clock app" in the Clock app is done at once; "open Clock" still taps its Clock tab', async () => {
    const done = { type: 'done', summary: 'The Clock app is open (com.google.android.deskclock is in front).' };
    expect(await plan('open the Clock app', clock)).toMatchObject(done);
    expect(await plan('open Clock app', clock)).toMatchObject(done);
    expect(await plan('打开时钟应用', clock)).toMatchObject({ type: 'done', summary: 'The 时钟 app is open (com.google.android.deskclock is in front).' });
    expect(await plan('open Clock', clock)).toMatchObject({ action: { command: 'click', x: 324, y: 1978 }, elementIndex: 15 });
  });

  it('"open the Timer app" in the Clock app goes Home for the app’s icon instead of tapping the Timer tab', async () => {
    expect(await plan('open the Timer app', clock)).toMatchObject({ type: 'action', action: { command: 'home' }, reasoning: 'Go to the home screen to look for "Timer".' });
  });

  it('"tap settings" never takes "Search settings" (a label merely containing the name of the Settings app): it scrolls for one', async () => {
    expect(await plan('tap settings', top)).toMatchObject({ type: 'action', action: { command: 'swipe', x1: 540, y1: 1582, x2: 540, y2: 571, durationMs: 300 }, elementIndex: 2 });
  });
});
