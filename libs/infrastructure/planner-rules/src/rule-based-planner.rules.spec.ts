/**
 * The planner's screen and step rules on hand-built screens, one rule per block: label matching
 * (exact > compact > partial, glossary, `label`), ambiguity, disabled targets, the clickable
 * ancestor, toggles in the current app, "open X" (visible, in front, home screen, app drawer), no
 * success without a visible effect, and web addresses reached only by the task's own navigation.
 */
import type { PlanDecision, PlannerHistoryEntry, StepResult, UiElement } from '@mobileclaw/domain';
import type { GoalIntent } from './goal-intent';
import { RuleBasedPlanner } from './rule-based-planner';
import { Screen } from './screen';
import { decideStep } from './step-decision';
import { taskMemoryFrom } from './task-memory';

function el(index: number, props: Partial<UiElement> & Pick<UiElement, 'bounds'>): UiElement {
  const [l, t, r, b] = props.bounds;
  return { index, nodeId: `n${index}`, type: 'View', center: [Math.floor((l + r) / 2), Math.floor((t + b) / 2)], ...props };
}

/** A row of a list, `i` rows below y = 300, 200 px tall. */
function row(index: number, i: number, props: Partial<UiElement>): UiElement {
  return el(index, { type: 'LinearLayout', clickable: true, bounds: [0, 300 + i * 200, 1080, 500 + i * 200], ...props });
}

/** A screen in the history or the present: its elements and foreground package. */
interface Shown {
  elements: UiElement[];
  pkg?: string;
}

const SETTINGS = 'com.android.settings';
const CLOCK = 'com.google.android.deskclock';
const LAUNCHER = 'com.google.android.apps.nexuslauncher';

function observation(shown: Shown): PlannerHistoryEntry['observation'] {
  return shown.pkg === undefined ? { elements: shown.elements } : { elements: shown.elements, package: shown.pkg };
}

/**
 * Plans `goal` on each screen of `screens` in turn, as the task loop would: each action "succeeds"
 * and the next screen is what the phone shows after it. Stops at the first decision that is not an
 * action, or after the last screen.
 */
async function run(goal: string, screens: Shown[], results: StepResult[] = []): Promise<PlanDecision[]> {
  const planner = new RuleBasedPlanner();
  const history: PlannerHistoryEntry[] = [];
  const decisions: PlanDecision[] = [];
  for (const [i, shown] of screens.entries()) {
    const decision = await planner.plan({
      taskId: 'rules',
      deviceId: 'd1',
      goal,
      stepIndex: i,
      maxSteps: 25,
      observation: { screen: { width: 1080, height: 2400 }, elements: shown.elements, ...(shown.pkg === undefined ? {} : { package: shown.pkg }) },
      history: [...history],
      signal: new AbortController().signal,
    });
    decisions.push(decision);
    if (decision.type !== 'action') break;
    history.push({ index: i, decision, result: results[i] ?? { status: 'success' }, observation: observation(shown) });
  }
  return decisions;
}

/** The first decision of `goal` on one screen. */
async function first(goal: string, shown: Shown): Promise<PlanDecision> {
  return (await run(goal, [shown]))[0] as PlanDecision;
}

/**
 * Decides steps for hand-made `intents` (forms the goal parser may produce, e.g. a tap with several
 * `names`) on each screen in turn, every action succeeding.
 */
function decide(intents: GoalIntent[], screens: Shown[]): PlanDecision[] {
  const history: PlannerHistoryEntry[] = [];
  const decisions: PlanDecision[] = [];
  for (const [i, shown] of screens.entries()) {
    const memory = taskMemoryFrom(history, intents);
    const decision = decideStep(intents, memory, { index: i, screen: new Screen(shown.elements, shown.pkg), history: [...history] });
    decisions.push(decision);
    if (decision.type !== 'action') break;
    history.push({ index: i, decision, result: { status: 'success' }, observation: observation(shown) });
  }
  return decisions;
}

function reasonOf(decision: PlanDecision | undefined): string | undefined {
  return decision?.type === 'fail' ? decision.reason : undefined;
}

describe('matching labels', () => {
  /** Google Clock's tabs, in English. */
  const CLOCK_TABS: UiElement[] = [
    el(0, { type: 'TextView', text: 'Alarm', clickable: true, selected: true, bounds: [0, 2200, 270, 2340] }),
    el(1, { type: 'TextView', text: 'Clock', clickable: true, bounds: [270, 2200, 540, 2340] }),
    el(2, { type: 'TextView', text: 'Timer', clickable: true, bounds: [540, 2200, 810, 2340] }),
    el(3, { type: 'TextView', text: 'Stopwatch', clickable: true, bounds: [810, 2200, 1080, 2340] }),
  ];

  it('finds a label through the glossary: "点击 秒表" taps "Stopwatch" on an English screen', async () => {
    expect(await first('点击 秒表', { elements: CLOCK_TABS, pkg: CLOCK })).toMatchObject({ type: 'action', action: { command: 'click', x: 945, y: 2270 }, elementIndex: 3 });
  });

  it('"打开闹钟" in an English clock app: done when the "Alarm" tab is selected, else taps it', async () => {
    expect(await first('打开闹钟', { elements: CLOCK_TABS, pkg: CLOCK })).toMatchObject({ type: 'done', summary: '"闹钟" is open: "Alarm" is selected.' });
    const onClock = CLOCK_TABS.map((e) => ({ ...e, selected: e.index === 1 }));
    expect(await first('打开闹钟', { elements: onClock, pkg: CLOCK })).toMatchObject({ action: { command: 'click', x: 135, y: 2270 }, elementIndex: 0 });
  });

  it('finds "Wi-Fi" as "WLAN" (a vendor\'s and the Chinese UI\'s word for it)', async () => {
    const screen = [row(0, 0, { text: 'WLAN · 已连接' }), row(1, 1, { text: '蓝牙 · 已关闭' })];
    expect(await first('tap Wi-Fi', { elements: screen, pkg: SETTINGS })).toMatchObject({ action: { command: 'click', x: 540, y: 400 }, elementIndex: 0 });
  });

  it('"tap settings" takes the row labelled Settings over "Search settings"; with only that label it fails naming it', async () => {
    const both = [row(0, 0, { text: 'Search settings' }), row(1, 1, { text: 'Settings' })];
    expect(await first('tap settings', { elements: both, pkg: 'com.example.mail' })).toMatchObject({ action: { command: 'click', x: 540, y: 600 }, elementIndex: 1 });
    expect(reasonOf(await first('tap settings', { elements: [row(0, 0, { text: 'Search settings' })], pkg: 'com.example.mail' }))).toBe(
      'Goal understood as: tap "settings". Nothing labelled "settings" is on the screen ([0] "Search settings" only contains it, and a known app\'s or setting\'s name must be a label whole).',
    );
    // A label that is the name and a word pointing at it still names it.
    expect(await first('tap Bluetooth', { elements: [row(0, 0, { text: 'Bluetooth settings' })], pkg: 'com.example.car' })).toMatchObject({ elementIndex: 0 });
  });

  it('asks approval for an icon-only button whose label from around it deletes data', async () => {
    const card: Shown = {
      pkg: 'com.example.accounts',
      elements: [el(0, { type: 'ImageButton', clickable: true, resourceId: 'com.example.accounts:id/action', label: 'Delete account', labelSource: 'card', bounds: [900, 500, 1040, 640] })],
    };
    expect(await first('tap account', card)).toMatchObject({ type: 'action', action: { command: 'click', x: 970, y: 570 }, approval: { reason: 'tapping "Delete account" may delete data or spend money' } });
  });

  it('turns on a checkbox named by the caption after it (its `following` label)', async () => {
    const form: Shown = {
      pkg: 'com.example.login',
      elements: [
        el(0, { type: 'CheckBox', clickable: true, checkable: true, checked: false, label: 'Remember me', labelSource: 'following', bounds: [44, 900, 140, 996] }),
        el(1, { type: 'TextView', text: 'Remember me', bounds: [160, 920, 500, 976] }),
      ],
    };
    expect(await first('turn on Remember me', form)).toMatchObject({ type: 'action', action: { command: 'click', x: 92, y: 948 }, elementIndex: 0 });
  });

  it('reads an element\'s `label` (an icon button labelled by the screen reader)', async () => {
    const screen = [
      el(0, { type: 'TextView', text: 'Alarms', bounds: [48, 150, 600, 260] }),
      el(1, { type: 'ImageButton', clickable: true, label: 'Add alarm', labelSource: 'labeled-by', bounds: [460, 1900, 620, 2060] }),
    ];
    expect(await first('tap Add alarm', { elements: screen, pkg: CLOCK })).toMatchObject({ action: { command: 'click', x: 540, y: 1980 }, elementIndex: 1 });
  });

  it('finds a Chinese word inside a longer Chinese label, but not a single character', async () => {
    const screen = [row(0, 0, { text: '你好世界' }), row(1, 1, { text: '蓝牙设置' })];
    expect(await first('点击 蓝牙', { elements: screen })).toMatchObject({ elementIndex: 1 });
    expect(reasonOf(await first('点击 好', { elements: screen }))).toBe('Goal understood as: tap "好". Nothing labelled "好" is on the screen.');
  });

  it('prefers an exact match to a compact one, and a compact one to a partial one', async () => {
    const partialAndCompact = [row(0, 0, { text: 'Wi\u2011Fi hotspot · Off' }), row(1, 1, { text: 'WiFi' })];
    expect(await first('tap Wi-Fi', { elements: partialAndCompact })).toMatchObject({ elementIndex: 1 });
    const compactAndExact = [row(0, 0, { text: 'WiFi' }), row(1, 1, { text: 'Wi\u2011Fi' })];
    expect(await first('tap Wi-Fi', { elements: compactAndExact })).toMatchObject({ elementIndex: 1 });
  });

  it('accepts a partial match only when it is the only one', async () => {
    const one = [row(0, 0, { text: 'Wi\u2011Fi hotspot · Off' }), row(1, 1, { text: 'Bluetooth' })];
    expect(await first('tap hotspot', { elements: one })).toMatchObject({ action: { command: 'click', x: 540, y: 400 }, elementIndex: 0 });
    const two = [row(0, 0, { text: 'Wi\u2011Fi calling · Off' }), row(1, 1, { text: 'Wi\u2011Fi hotspot · Off' })];
    expect(reasonOf(await first('tap Wi-Fi', { elements: two }))).toBe(
      'Goal understood as: tap "Wi-Fi". "Wi-Fi" matches 2 elements: [0] "Wi\u2011Fi calling" and [1] "Wi\u2011Fi hotspot".',
    );
  });

  it('fails on two equally good matches that are different targets, naming them all', async () => {
    const screen = [
      el(0, { type: 'Button', text: 'OK', clickable: true, bounds: [100, 900, 400, 1000] }),
      el(1, { type: 'Button', text: 'OK', clickable: true, bounds: [100, 1500, 400, 1600] }),
      el(2, { type: 'Button', text: 'ok', clickable: true, bounds: [600, 1500, 900, 1600] }),
    ];
    expect(reasonOf(await first('tap OK', { elements: screen }))).toBe('Goal understood as: tap "OK". "OK" matches 3 elements: [0] "OK", [1] "OK" and [2] "ok".');
  });

  it('takes a row and the switch inside it, both labelled so, for one target (the row)', async () => {
    const screen = [row(0, 0, { text: 'Wi\u2011Fi · Off' }), el(1, { type: 'Switch', desc: 'Wi\u2011Fi', clickable: true, checkable: true, checked: false, bounds: [900, 340, 1040, 460] })];
    expect(await first('tap Wi-Fi', { elements: screen, pkg: SETTINGS })).toMatchObject({ action: { command: 'click', x: 540, y: 400 }, elementIndex: 0 });
  });
});

describe('disabled targets and plain texts', () => {
  it('fails naming a disabled target instead of tapping the header with the same text', async () => {
    const screen = [
      el(0, { type: 'TextView', text: 'Sign in', bounds: [48, 150, 600, 260] }),
      el(1, { type: 'EditText', editable: true, bounds: [48, 400, 1032, 540] }),
      el(2, { type: 'Button', text: 'Sign in', clickable: true, enabled: false, bounds: [48, 700, 1032, 840] }),
    ];
    expect(await first('tap Sign in', { elements: screen })).toEqual({
      type: 'fail',
      reason: 'Goal understood as: tap "Sign in". "Sign in" ([2] "Sign in") is disabled, so it cannot be used.',
      reasoning: '"Sign in" ([2] "Sign in") is disabled, so it cannot be used.',
    });
  });

  it('taps a plain text through its clickable ancestor (the smallest clickable element holding it)', async () => {
    const screen = [
      el(0, { type: 'FrameLayout', clickable: true, bounds: [0, 0, 1080, 2400] }),
      el(1, { type: 'LinearLayout', desc: 'Battery settings', clickable: true, bounds: [0, 500, 1080, 700] }),
      el(2, { type: 'TextView', text: 'Battery', bounds: [150, 520, 600, 600] }),
    ];
    expect(await first('tap Battery', { elements: screen })).toMatchObject({ action: { command: 'click', x: 540, y: 600 }, elementIndex: 1 });
  });

  it('never taps a plain text that nothing clickable holds: fails saying so, even when a tappable partial match exists', async () => {
    const screen = [
      el(0, { type: 'TextView', text: 'Security', bounds: [198, 106, 413, 180] }),
      row(1, 0, { text: 'Security update · March 5, 2020' }),
    ];
    expect(reasonOf(await first('tap Security', { elements: screen, pkg: SETTINGS }))).toBe(
      'Goal understood as: tap "Security". "Security" is shown ([0] "Security") but neither it nor anything around it can be tapped.',
    );
  });
});

describe('dialog and tour buttons named by several labels (tap intents with `names`)', () => {
  const PERMISSION: Shown = {
    pkg: 'com.google.android.permissioncontroller',
    elements: [
      el(0, { type: 'TextView', text: 'Allow Maps to access this device’s location?', bounds: [96, 900, 984, 1050] }),
      el(1, { type: 'Button', text: 'While using the app', clickable: true, bounds: [96, 1200, 984, 1330] }),
      el(2, { type: 'Button', text: 'Only this time', clickable: true, bounds: [96, 1340, 984, 1470] }),
      el(3, { type: 'Button', text: 'Don’t allow', clickable: true, bounds: [96, 1480, 984, 1610] }),
    ],
  };
  const ALLOW: GoalIntent = { kind: 'tap', target: 'allow', names: ['Allow', 'While using the app', 'Only this time', '允许', '仅在使用该应用时允许'] };

  it('"allow" with both "While using the app" and "Only this time" on screen is ambiguous: fails listing them', () => {
    expect(reasonOf(decide([ALLOW], [PERMISSION])[0])).toBe('Goal understood as: tap "allow". "allow" matches 2 elements: [1] "While using the app" and [2] "Only this time".');
  });

  it('"allow" taps the one allowing button when it is alone (not "Don’t allow", a partial match)', () => {
    const single: Shown = { pkg: PERMISSION.pkg, elements: [...PERMISSION.elements.slice(0, 2), PERMISSION.elements[3] as UiElement] };
    expect(decide([ALLOW], [single])[0]).toMatchObject({ type: 'action', action: { command: 'click', x: 540, y: 1265 }, elementIndex: 1 });
  });

  it('"skip" finds "跳过" on a Chinese tour screen, and is done once the tour moved on', () => {
    const tour: Shown = {
      pkg: 'com.example.notes',
      elements: [el(0, { type: 'TextView', text: '欢迎使用', bounds: [96, 600, 984, 700] }), el(1, { type: 'Button', text: '跳过', clickable: true, bounds: [840, 120, 1040, 220] })],
    };
    const after: Shown = { pkg: 'com.example.notes', elements: [el(0, { type: 'TextView', text: '笔记', bounds: [48, 120, 600, 220] })] };
    const decisions = decide([{ kind: 'tap', target: 'skip', names: ['Skip', 'Skip tour', '跳过'] }], [tour, after]);
    expect(decisions[0]).toMatchObject({ action: { command: 'click', x: 940, y: 170 }, elementIndex: 1 });
    expect(decisions[1]).toMatchObject({ type: 'done', summary: 'Tapped "skip".' });
  });

  it('never takes a switch\'s state text for a button: "关闭" on a switch is "off", not "Close"', () => {
    const screen: Shown = {
      pkg: SETTINGS,
      elements: [
        row(0, 0, { text: '蓝牙' }),
        el(1, { type: 'Switch', text: '关闭', checkable: true, checked: false, clickable: true, bounds: [900, 340, 1040, 460] }),
        el(2, { type: 'Button', text: '关闭', clickable: true, bounds: [48, 2200, 1032, 2330] }),
      ],
    };
    expect(decide([{ kind: 'tap', target: 'close', names: ['Close', '关闭'] }], [screen])[0]).toMatchObject({ action: { command: 'click', x: 540, y: 2265 }, elementIndex: 2 });
  });

  it('fails naming every label looked for when none is on the screen', () => {
    const screen: Shown = { elements: [el(0, { type: 'TextView', text: 'Nothing here', bounds: [0, 0, 500, 100] })] };
    expect(reasonOf(decide([{ kind: 'tap', target: 'dismiss', names: ['Dismiss', 'Close'] }], [screen])[0])).toBe(
      'Goal understood as: tap "dismiss". Nothing labelled "dismiss" (Dismiss, Close) is on the screen.',
    );
  });
});

describe('switches: in the current app first, Settings only for known settings', () => {
  /** An alarm list in a clock app: each alarm's switch labelled by its time (the nearest text before it). */
  function alarms(eightThirtyOn: boolean): Shown {
    return {
      pkg: CLOCK,
      elements: [
        el(0, { type: 'TextView', text: 'Alarm', bounds: [48, 150, 600, 260] }),
        el(1, { type: 'RecyclerView', scrollable: true, bounds: [0, 300, 1080, 2200] }),
        el(2, { type: 'TextView', text: '7:00\u202fAM', clickable: true, bounds: [48, 340, 500, 460] }),
        el(3, { type: 'Switch', clickable: true, checkable: true, checked: true, label: '7:00\u202fAM', labelSource: 'preceding', bounds: [880, 350, 1040, 450] }),
        el(4, { type: 'TextView', text: '8:30\u202fAM', clickable: true, bounds: [48, 540, 500, 660] }),
        el(5, { type: 'Switch', clickable: true, checkable: true, checked: eightThirtyOn, label: '8:30\u202fAM', labelSource: 'preceding', bounds: [880, 550, 1040, 650] }),
      ],
    };
  }

  it('turns on an alarm in the clock app by the switch\'s label, and is done once that switch shows on', async () => {
    const decisions = await run('turn on 8:30 AM', [alarms(false), alarms(true)]);
    expect(decisions[0]).toMatchObject({ type: 'action', action: { command: 'click', x: 960, y: 600 }, elementIndex: 5 });
    expect(decisions[1]).toMatchObject({ type: 'done', summary: '8:30 AM is on.' });
  });

  it('flips an in-app option by its row\'s title, without opening Settings', async () => {
    const options: Shown = {
      pkg: 'com.google.android.apps.messaging',
      elements: [
        row(0, 0, { text: 'Delivery reports · Request a delivery report for each SMS' }),
        el(1, { type: 'Switch', checkable: true, checked: false, bounds: [900, 340, 1040, 460] }),
        row(2, 1, { text: 'Hear outgoing message sounds' }),
        el(3, { type: 'Switch', checkable: true, checked: true, bounds: [900, 540, 1040, 660] }),
      ],
    };
    expect(await first('enable delivery reports', options)).toMatchObject({ action: { command: 'click', x: 970, y: 400 }, elementIndex: 1 });
  });

  it('reads an unlabelled switch\'s label from the text beside it when no row holds both', async () => {
    const screen: Shown = {
      pkg: 'com.example.app',
      elements: [
        el(0, { type: 'TextView', text: 'Dark mode', bounds: [48, 340, 700, 420] }),
        el(1, { type: 'Switch', checkable: true, checked: false, clickable: true, bounds: [900, 320, 1040, 440] }),
        el(2, { type: 'TextView', text: 'Autoplay videos', bounds: [48, 540, 700, 620] }),
        el(3, { type: 'Switch', checkable: true, checked: true, clickable: true, bounds: [900, 520, 1040, 640] }),
      ],
    };
    expect(await first('turn off autoplay videos', screen)).toMatchObject({ action: { command: 'click', x: 970, y: 580 }, elementIndex: 3 });
    expect(await first('turn on dark mode', screen)).toMatchObject({ action: { command: 'click', x: 970, y: 380 }, elementIndex: 1 });
  });

  it('looks for an unknown switch that is not on screen only in the current app: scrolls its list, then fails saying why', async () => {
    const screen = alarms(false);
    const decisions = await run('turn on vibrate', [screen, screen]);
    expect(decisions[0]).toMatchObject({ action: { command: 'swipe', x1: 540, y1: 1725, x2: 540, y2: 775, durationMs: 300 }, elementIndex: 1 });
    expect(reasonOf(decisions[1])).toBe(
      'Goal understood as: turn on "vibrate". No switch labelled "vibrate" is on this screen; it is not one of the system settings whose place is known, ' +
        'so Settings is not searched for it (scrolled 1 time(s) to the end of the list).',
    );
  });

  it('fails at once for an unknown switch on the home screen', async () => {
    const home: Shown = { pkg: LAUNCHER, elements: [el(0, { type: 'TextView', text: 'Clock', clickable: true, bounds: [0, 300, 270, 550] })] };
    expect(reasonOf(await first('turn on vibrate', home))).toBe(
      'Goal understood as: turn on "vibrate". No switch labelled "vibrate" is on the home screen; it is not one of the system settings whose place is known, so Settings is not searched for it.',
    );
  });

  it('opens Settings for a known setting that the current app does not show', async () => {
    expect(await first('turn on Bluetooth', alarms(false))).toMatchObject({ action: { command: 'open', app: SETTINGS } });
  });

  it('never takes a switch whose label merely contains a known setting\'s name ("Wi‑Fi hotspot" for "Wi-Fi")', async () => {
    const hotspot: Shown = {
      pkg: SETTINGS,
      elements: [
        el(0, { type: 'TextView', text: 'Hotspot & tethering', bounds: [198, 106, 651, 180] }),
        row(1, 0, { text: 'Wi\u2011Fi hotspot · Off' }),
        el(2, { type: 'Switch', checkable: true, checked: false, bounds: [900, 340, 1040, 460] }),
      ],
    };
    expect(reasonOf(await first('turn on Wi-Fi', hotspot))).toBe('Goal understood as: turn on "Wi-Fi". Could not find the Wi-Fi switch in Settings.');
  });

  it('fails on a disabled switch in the wrong state, and is done when it already shows the wanted state', async () => {
    const screen: Shown = { pkg: SETTINGS, elements: [row(0, 0, { text: 'NFC' }), el(1, { type: 'Switch', checkable: true, checked: false, enabled: false, bounds: [900, 340, 1040, 460] })] };
    expect(reasonOf(await first('turn on NFC', screen))).toBe('Goal understood as: turn on "NFC". The NFC switch ([1] "NFC") is disabled, so it cannot be turned on.');
    expect(await first('turn off NFC', screen)).toMatchObject({ type: 'done', summary: 'NFC is off.' });
  });

  it('fails on a disabled row that leads to the switch, instead of looking elsewhere', async () => {
    const screen: Shown = { pkg: SETTINGS, elements: [row(0, 0, { text: 'Location · Off', enabled: false }), row(1, 1, { text: 'Privacy' })] };
    expect(reasonOf(await first('turn on Location', screen))).toBe('Goal understood as: turn on "Location". "Location" ([0] "Location") is disabled, so it cannot be used.');
  });

  it('fails on two switches that match equally well', async () => {
    const screen: Shown = {
      pkg: 'com.example.app',
      elements: [
        row(0, 0, { text: 'Vibrate · Calls' }),
        el(1, { type: 'Switch', checkable: true, checked: false, bounds: [900, 340, 1040, 460] }),
        row(2, 1, { text: 'Vibrate · Messages' }),
        el(3, { type: 'Switch', checkable: true, checked: false, bounds: [900, 540, 1040, 660] }),
      ],
    };
    expect(reasonOf(await first('turn on vibrate', screen))).toBe('Goal understood as: turn on "vibrate". "vibrate" matches 2 elements: [1] "Vibrate" and [3] "Vibrate".');
  });
});

describe('"open X"', () => {
  it('taps X where it is visible (a tab), and is done once the screen changed', async () => {
    const tabs: Shown = {
      pkg: 'com.example.music',
      elements: [el(0, { type: 'TextView', text: 'Home', clickable: true, selected: true, bounds: [0, 2200, 540, 2340] }), el(1, { type: 'TextView', text: 'Library', clickable: true, bounds: [540, 2200, 1080, 2340] })],
    };
    const after: Shown = { pkg: tabs.pkg, elements: [tabs.elements[0] as UiElement, { ...(tabs.elements[1] as UiElement), selected: true }].map((e, i) => (i === 0 ? { ...e, selected: false } : e)) };
    const decisions = await run('open Library', [tabs, after]);
    expect(decisions[0]).toMatchObject({ action: { command: 'click', x: 810, y: 2270 }, elementIndex: 1 });
    expect(decisions[1]).toMatchObject({ type: 'done', summary: '"Library" is open: "Library" is selected.' });
  });

  it('is done at once when the screen\'s title reads X, or the selected tab is X', async () => {
    const page: Shown = {
      pkg: SETTINGS,
      elements: [el(0, { type: 'ImageButton', desc: 'Navigate up', clickable: true, bounds: [0, 66, 154, 220] }), el(1, { type: 'TextView', text: 'Display', bounds: [198, 106, 651, 180] }), row(2, 1, { text: 'Brightness level · 40%' })],
    };
    expect(await first('open Display', page)).toMatchObject({ type: 'done', summary: '"Display" is open: the screen\'s title is "Display".' });
  });

  it('does not take a section header inside a list for the screen\'s title', async () => {
    const page: Shown = {
      pkg: SETTINGS,
      elements: [el(0, { type: 'RecyclerView', scrollable: true, bounds: [0, 220, 1080, 2088] }), el(1, { type: 'TextView', text: 'General', bounds: [198, 286, 1036, 327] }), row(2, 0, { text: 'Languages' })],
    };
    expect(await first('open General', page)).toMatchObject({ action: { command: 'swipe' } });
  });

  it('is done at once when the foreground package is named X (its last part), but not when it merely contains the name', async () => {
    const calculator: Shown = { pkg: 'com.google.android.calculator', elements: [el(0, { type: 'Button', text: '7', clickable: true, bounds: [0, 1200, 270, 1450] })] };
    expect(await first('open Calculator', calculator)).toMatchObject({ type: 'done', summary: '"Calculator" is open (com.google.android.calculator is in front).' });
    const deskclock: Shown = { pkg: CLOCK, elements: [el(0, { type: 'TextView', text: '7:00\u202fAM', bounds: [48, 900, 500, 1000] })] };
    expect(await first('open Clock', deskclock)).toMatchObject({ action: { command: 'home' } });
  });

  it('opens an app the catalog does not know by its icon on the home screen, done once another app is in front', async () => {
    const home: Shown = {
      pkg: LAUNCHER,
      elements: [el(0, { type: 'TextView', text: 'Photos', desc: 'Photos', clickable: true, bounds: [0, 300, 270, 550] }), el(1, { type: 'TextView', text: 'Clock', desc: 'Clock', clickable: true, bounds: [270, 300, 540, 550] })],
    };
    const clock: Shown = { pkg: CLOCK, elements: [el(0, { type: 'TextView', text: '7:00\u202fAM', bounds: [48, 900, 500, 1000] })] };
    const decisions = await run('open Clock', [home, clock]);
    expect(decisions[0]).toMatchObject({ action: { command: 'click', x: 405, y: 425 }, elementIndex: 1 });
    expect(decisions[1]).toMatchObject({ type: 'done', summary: 'Opened "Clock".' });
  });

  it('goes home, opens the app drawer and scrolls it to find the icon', async () => {
    const app: Shown = { pkg: 'com.example.notes', elements: [el(0, { type: 'TextView', text: 'Notes', bounds: [48, 120, 600, 220] })] };
    const home: Shown = { pkg: LAUNCHER, elements: [el(0, { type: 'ViewGroup', bounds: [0, 0, 1080, 2400] }), el(1, { type: 'TextView', text: 'Photos', clickable: true, bounds: [0, 1900, 270, 2150] })] };
    const drawer = (apps: string[]): Shown => ({
      pkg: LAUNCHER,
      elements: [
        el(0, { type: 'EditText', text: 'Search apps', editable: true, bounds: [48, 100, 1032, 220] }),
        el(1, { type: 'RecyclerView', scrollable: true, bounds: [0, 300, 1080, 2300] }),
        ...apps.map((name, i) => el(2 + i, { type: 'TextView', text: name, clickable: true, bounds: [0, 300 + i * 250, 270, 550 + i * 250] })),
      ],
    });
    const clock: Shown = { pkg: CLOCK, elements: [el(0, { type: 'TextView', text: '7:00\u202fAM', bounds: [48, 900, 500, 1000] })] };
    const decisions = await run('open Clock', [app, home, drawer(['Calendar', 'Camera']), drawer(['Chrome', 'Clock']), clock]);
    expect(decisions.map((d) => (d.type === 'action' ? d.action : d.type))).toEqual([
      { command: 'home' },
      { command: 'swipe', x1: 540, y1: 1920, x2: 540, y2: 720, durationMs: 300 },
      { command: 'swipe', x1: 540, y1: 1800, x2: 540, y2: 800, durationMs: 300 },
      { command: 'click', x: 135, y: 675 },
      'done',
    ]);
  });

  it('fails with where it looked when the app drawer has no such icon', async () => {
    const home: Shown = { pkg: LAUNCHER, elements: [el(0, { type: 'TextView', text: 'Photos', clickable: true, bounds: [0, 1900, 270, 2150] })] };
    const drawer: Shown = { pkg: LAUNCHER, elements: [el(0, { type: 'RecyclerView', scrollable: true, bounds: [0, 300, 1080, 2300] }), el(1, { type: 'TextView', text: 'Camera', clickable: true, bounds: [0, 300, 270, 550] })] };
    const decisions = await run('open Weather', [home, drawer, drawer]);
    expect(decisions.map((d) => (d.type === 'action' ? d.action.command : d.type))).toEqual(['swipe', 'swipe', 'fail']);
    expect(reasonOf(decisions[2])).toBe(
      'Goal understood as: open "Weather". No app is known as "Weather", and nothing labelled so is on the home screen or in the app drawer (scrolled 1 time(s)).',
    );
  });
});

describe('"open X": the app in front, "the X app", the goal\'s words as a label', () => {
  const GMAIL = 'com.google.android.gm';
  const home: Shown = { pkg: LAUNCHER, elements: [el(0, { type: 'TextView', text: 'Gmail', clickable: true, bounds: [0, 1900, 270, 2150] }), el(1, { type: 'TextView', text: 'Clock', clickable: true, bounds: [270, 1900, 540, 2150] })] };

  it('is done at once in an app whose package abbreviates X and whose own title holds X as a word', async () => {
    const tour: Shown = { pkg: GMAIL, elements: [el(0, { type: 'TextView', text: 'Welcome to Gmail', resourceId: `${GMAIL}:id/setup_title`, bounds: [100, 1100, 980, 1200] }), el(1, { type: 'Button', text: 'Next', clickable: true, bounds: [0, 2200, 1080, 2340] })] };
    expect(await first('open Gmail', tour)).toMatchObject({ type: 'done', summary: '"Gmail" is open: com.google.android.gm is in front, titled "Welcome to Gmail".' });
  });

  it('needs both: the abbreviating package without such a title, or such a title in another app, is not X in front', async () => {
    const inbox: Shown = { pkg: GMAIL, elements: [el(0, { type: 'TextView', text: 'Primary', resourceId: `${GMAIL}:id/toolbar_title`, bounds: [198, 106, 651, 180] })] };
    expect(await first('open Gmail', inbox)).toMatchObject({ type: 'action', action: { command: 'home' } });
    const appInfo: Shown = { pkg: SETTINGS, elements: [el(0, { type: 'TextView', text: 'Gmail notifications', resourceId: `${SETTINGS}:id/entity_header_title`, bounds: [198, 106, 900, 180] })] };
    expect(await first('open Gmail', appInfo)).toMatchObject({ type: 'action', action: { command: 'home' } });
  });

  it('"open the Clock app" from another app goes Home for the icon, never its "Clock" tab, then is done once the Clock app is in front', async () => {
    const worldTime: Shown = { pkg: 'com.example.worldtime', elements: [el(0, { type: 'TextView', text: 'Clock', clickable: true, bounds: [0, 2200, 540, 2340] }), el(1, { type: 'TextView', text: 'Cities', clickable: true, bounds: [540, 2200, 1080, 2340] })] };
    const clock: Shown = { pkg: CLOCK, elements: [el(0, { type: 'TextView', text: 'Alarm', resourceId: `${CLOCK}:id/action_bar_title`, bounds: [66, 116, 228, 191] })] };
    const decisions = await run('open the Clock app', [worldTime, home, clock]);
    expect(decisions.map((d) => (d.type === 'action' ? d.action : d.type))).toEqual([{ command: 'home' }, { command: 'click', x: 405, y: 2025 }, 'done']);
    expect(decisions[2]).toMatchObject({ summary: 'The Clock app is open (com.google.android.deskclock is in front).' });
    // Without "app", the tab is the Clock the goal names.
    expect(await first('open Clock', worldTime)).toMatchObject({ action: { command: 'click', x: 270, y: 2270 }, elementIndex: 0 });
  });

  it('a package part merely ending in a shorter word names no app: "lock" is not "deskclock"\'s', async () => {
    const clock: Shown = { pkg: CLOCK, elements: [el(0, { type: 'TextView', text: 'Alarm', resourceId: `${CLOCK}:id/action_bar_title`, bounds: [66, 116, 228, 191] })] };
    expect(await first('open the Lock app', clock)).toMatchObject({ type: 'action', action: { command: 'home' } });
  });

  it('a plain text reading the goal\'s words is no button: "open settings" under a help sentence "Open settings" still launches Settings', async () => {
    const help: Shown = { pkg: 'com.example.notes', elements: [el(0, { type: 'TextView', text: 'Open settings', bounds: [48, 600, 1032, 700] }), el(1, { type: 'TextView', text: 'to allow notifications.', bounds: [48, 700, 1032, 800] })] };
    expect(await first('open settings', help)).toMatchObject({ type: 'action', action: { command: 'open', app: 'com.android.settings' } });
  });

  it('"show more" taps the "Show more" button over a "More" tab, and is done once the tap had an effect whatever the button reads then', async () => {
    const list: Shown = {
      pkg: 'com.example.shop',
      elements: [el(0, { type: 'Button', text: 'Show more', clickable: true, bounds: [0, 1500, 1080, 1640] }), el(1, { type: 'TextView', text: 'More', clickable: true, bounds: [810, 2200, 1080, 2340] })],
    };
    const after: Shown = { pkg: list.pkg, elements: [el(0, { type: 'Button', text: 'Show less', clickable: true, bounds: [0, 1900, 1080, 2040] }), list.elements[1] as UiElement] };
    const decisions = await run('show more', [list, after]);
    expect(decisions[0]).toMatchObject({ type: 'action', action: { command: 'click', x: 540, y: 1570 }, elementIndex: 0 });
    expect(decisions[1]).toMatchObject({ type: 'done', summary: 'Tapped "show more".' });
  });
});

describe('no success without a visible effect', () => {
  const LIST: Shown = { pkg: SETTINGS, elements: [row(0, 0, { text: 'Network & internet · Wi‑Fi, mobile' }), row(1, 1, { text: 'Battery · 100%' })] };

  it('"open X" on a screen that does not change: taps, taps once more, then fails (never done)', async () => {
    const decisions = await run('open Network & internet', [LIST, LIST, LIST]);
    expect(decisions.map((d) => (d.type === 'action' ? d.action : d.type))).toEqual([{ command: 'click', x: 540, y: 400 }, { command: 'click', x: 540, y: 400 }, 'fail']);
    expect(decisions[1]).toMatchObject({ elementIndex: 0, reasoning: 'Tapping "Network & internet" changed nothing on the screen; tap it once more.' });
    expect(reasonOf(decisions[2])).toBe('Goal understood as: open "Network & internet". Tapping "Network & internet" had no visible effect, twice (the screen did not change).');
  });

  it('"tap X" is done when the second tap had the effect', async () => {
    const after: Shown = { pkg: SETTINGS, elements: [el(0, { type: 'TextView', text: 'Battery', bounds: [198, 106, 651, 180] })] };
    const decisions = await run('tap Battery', [LIST, LIST, after]);
    expect(decisions.map((d) => (d.type === 'action' ? d.action : d.type))).toEqual([{ command: 'click', x: 540, y: 600 }, { command: 'click', x: 540, y: 600 }, 'done']);
    expect(decisions[2]).toMatchObject({ summary: 'Tapped "Battery".' });
  });

  it('takes a tap the phone reported failed for one without effect', async () => {
    const after: Shown = { pkg: SETTINGS, elements: [el(0, { type: 'TextView', text: 'Battery', bounds: [198, 106, 651, 180] })] };
    const decisions = await run('tap Battery', [LIST, after, after], [{ status: 'error', errorCode: 'TIMEOUT', message: 'no answer' }]);
    expect(decisions[1]).toMatchObject({ type: 'action', action: { command: 'click', x: 540, y: 600 } });
  });

  it('never repeats a tap that cannot be undone when it had no effect', async () => {
    const screen: Shown = { elements: [el(0, { type: 'Button', text: 'Delete account', clickable: true, bounds: [0, 500, 1080, 650] })] };
    const decisions = await run('tap Delete account', [screen, screen]);
    expect(decisions[0]).toMatchObject({ approval: { reason: 'tapping "Delete account" may delete data or spend money' } });
    expect(reasonOf(decisions[1])).toBe(
      'Goal understood as: tap "Delete account". Tapping "Delete account" had no visible effect; it is not tapped again, since what it does cannot be undone.',
    );
  });

  it('"go back" that changes nothing presses Back once more, then fails', async () => {
    const decisions = await run('go back', [LIST, LIST, LIST]);
    expect(decisions.map((d) => (d.type === 'action' ? d.action.command : d.type))).toEqual(['back', 'back', 'fail']);
    expect(reasonOf(decisions[2])).toBe('Goal understood as: go back. Pressed Back twice and the screen did not change.');
  });
});

describe('web addresses: reached only by the task\'s own navigation', () => {
  const CHROME = 'com.android.chrome';
  function browser(bar: string, page: string[], focused = false): Shown {
    return {
      pkg: CHROME,
      elements: [
        el(0, { type: 'EditText', text: bar, editable: true, focused, resourceId: `${CHROME}:id/url_bar`, bounds: [21, 84, 849, 210] }),
        el(1, { type: 'Button', text: 'Go', clickable: true, bounds: [870, 84, 1059, 210] }),
        ...page.map((text, i) => el(2 + i, { type: 'TextView', text, bounds: [63, 300 + i * 100, 1017, 390 + i * 100] })),
      ],
    };
  }

  it('does not take a page of the same site, nor the address already loaded, for the goal reached', async () => {
    expect(await first('visit example.com', browser('https://example.com/docs', ['example.com', 'https://example.com/docs']))).toMatchObject({
      action: { command: 'click', x: 435, y: 147 },
      elementIndex: 0,
    });
    expect(await first('visit example.com', browser('https://example.com', ['example.com', 'https://example.com']))).toMatchObject({ action: { command: 'click', x: 435, y: 147 } });
  });

  it('is done after its own Go once the page shows the whole address', async () => {
    const decisions = await run('visit example.com/docs', [
      browser('https://example.com', ['example.com']),
      browser('https://example.com', ['example.com'], true),
      browser('example.com/docs', ['example.com'], true),
      browser('https://example.com/docs', ['example.com', 'https://example.com/docs']),
    ]);
    expect(decisions.map((d) => (d.type === 'action' ? d.action : d.type))).toEqual([
      { command: 'click', x: 435, y: 147 },
      { command: 'input', text: 'example.com/docs', clear: true },
      { command: 'click', x: 964, y: 147 },
      'done',
    ]);
    expect(decisions[3]).toMatchObject({ summary: 'The browser shows https://example.com/docs.' });
  });
});
