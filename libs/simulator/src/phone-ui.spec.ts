import { PhoneError } from './phone-error';
import { findNode, PhoneUi } from './phone-ui';
import { CONTACTS } from './screens';
import type { UiNode } from './view';

function centre(node: UiNode): { x: number; y: number } {
  const [l, t, r, b] = node.bounds;
  return { x: Math.floor((l + r) / 2), y: Math.floor((t + b) / 2) };
}

function find(ui: PhoneUi, match: (n: UiNode) => boolean): UiNode {
  const node = findNode(ui.uiTree().nodes, match);
  if (!node) throw new Error('node not found');
  return node;
}

function clickNode(ui: PhoneUi, match: (n: UiNode) => boolean): ReturnType<PhoneUi['click']> {
  const { x, y } = centre(find(ui, match));
  return ui.click(x, y);
}

function allNodes(nodes: UiNode[]): UiNode[] {
  return nodes.flatMap((n) => [n, ...allNodes(n.children)]);
}

const byText = (text: string) => (n: UiNode) => n.text === text;
const wifiSwitch = (n: UiNode) => n.class === 'android.widget.Switch' && n.desc === 'Wi-Fi';

describe('PhoneUi navigation', () => {
  it('starts on the launcher with the four app icons', () => {
    const ui = new PhoneUi();
    expect(ui.state.screen).toBe('launcher');
    const labels = allNodes(ui.uiTree().nodes)
      .filter((n) => n.resourceId === 'com.google.android.apps.nexuslauncher:id/icon')
      .map((n) => n.text);
    expect(labels).toEqual(['Settings', 'Messages', 'Contacts', 'Browser']);
  });

  it('opens Settings from its icon and toggles Wi-Fi with the switch and Bluetooth with the row', () => {
    const ui = new PhoneUi();
    const icon = find(ui, (n) => n.text === 'Settings' && n.clickable);
    const { x, y } = centre(icon);
    expect(ui.click(x, y).hit).toEqual({ id: icon.id, class: 'android.widget.TextView', text: 'Settings' });
    expect(ui.state.screen).toBe('settings');
    expect(find(ui, byText('Settings')).package).toBe('com.android.settings');

    const before = find(ui, wifiSwitch);
    expect(before).toMatchObject({ checkable: true, checked: false, resourceId: 'com.android.settings:id/switch_widget' });
    const hit = clickNode(ui, wifiSwitch).hit;
    expect(hit).toEqual({ id: before.id, class: 'android.widget.Switch' });
    expect(ui.state.wifi).toBe(true);
    expect(find(ui, wifiSwitch).checked).toBe(true);

    // The row's title is not clickable itself: the click goes to the row, which toggles too.
    clickNode(ui, byText('Bluetooth'));
    expect(ui.state.bluetooth).toBe(true);
    clickNode(ui, byText('Bluetooth'));
    expect(ui.state.bluetooth).toBe(false);
    expect(ui.state.wifi).toBe(true);
  });

  it('goes back one screen, home to the launcher, and back on the launcher does nothing', () => {
    const ui = new PhoneUi();
    clickNode(ui, byText('Contacts'));
    clickNode(ui, byText('Alice'));
    expect(ui.current).toEqual({ screen: 'contact', param: 'Alice' });
    expect(ui.back()).toEqual({ screen: 'contacts' });
    expect(ui.back()).toEqual({ screen: 'launcher' });
    expect(ui.back()).toEqual({ screen: 'launcher' });
    clickNode(ui, byText('Contacts'));
    clickNode(ui, byText('Bob'));
    expect(ui.home()).toEqual({ screen: 'launcher' });
    expect(ui.backStack).toEqual(['launcher']);
  });

  it('the navigation bar and the up button navigate too', () => {
    const ui = new PhoneUi();
    clickNode(ui, byText('Contacts'));
    clickNode(ui, byText('Bob'));
    clickNode(ui, (n) => n.desc === 'Navigate up');
    expect(ui.state.screen).toBe('contacts');
    clickNode(ui, (n) => n.desc === 'Back' && n.package === 'com.android.systemui');
    expect(ui.state.screen).toBe('launcher');
    ui.open('com.android.chrome');
    clickNode(ui, (n) => n.desc === 'Home');
    expect(ui.state.screen).toBe('launcher');
  });

  it('open launches an app by package name and refuses unknown packages', () => {
    const ui = new PhoneUi();
    expect(ui.open('com.google.android.apps.messaging')).toEqual({ package: 'com.google.android.apps.messaging', screen: 'messages' });
    expect(ui.backStack).toEqual(['launcher', 'messages']);
    expect(() => ui.open('com.example.nope')).toThrow(expect.objectContaining({ code: 'APP_NOT_FOUND' }));
  });

  it('a click on nothing clickable succeeds with hit null; outside the screen is OUT_OF_BOUNDS', () => {
    const ui = new PhoneUi();
    expect(ui.click(540, 1800)).toEqual({ hit: null });
    const err = (() => {
      try {
        ui.click(1080, 10);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(PhoneError);
    expect(err).toMatchObject({ code: 'OUT_OF_BOUNDS' });
    expect(() => ui.click(-1, 10)).toThrow(expect.objectContaining({ code: 'OUT_OF_BOUNDS' }));
    expect(() => ui.swipe(10, 10, 10, 2400)).toThrow(expect.objectContaining({ code: 'OUT_OF_BOUNDS' }));
  });

  it('node ids are unique and every child lies inside its parent', () => {
    const ui = new PhoneUi();
    ui.open('com.google.android.apps.messaging');
    clickNode(ui, byText('Alice'));
    const nodes = allNodes(ui.uiTree().nodes);
    expect(new Set(nodes.map((n) => n.id)).size).toBe(nodes.length);
    const check = (n: UiNode): void => {
      for (const c of n.children) {
        expect(c.bounds[0]).toBeGreaterThanOrEqual(n.bounds[0]);
        expect(c.bounds[1]).toBeGreaterThanOrEqual(n.bounds[1]);
        expect(c.bounds[2]).toBeLessThanOrEqual(n.bounds[2]);
        expect(c.bounds[3]).toBeLessThanOrEqual(n.bounds[3]);
        check(c);
      }
    };
    ui.uiTree().nodes.forEach(check);
  });
});

describe('PhoneUi messages', () => {
  it('sends "Hello 世界 👋" to Alice and clears the compose field; an empty send does nothing', () => {
    const ui = new PhoneUi();
    clickNode(ui, byText('Messages'));
    clickNode(ui, byText('Alice'));
    expect(ui.current).toEqual({ screen: 'conversation', param: 'Alice' });
    const before = ui.state.conversations['Alice']?.length ?? 0;

    const compose = find(ui, (n) => n.editable);
    expect(compose).toMatchObject({ class: 'android.widget.EditText', hint: 'Text message', text: '', focused: false });
    clickNode(ui, (n) => n.editable);
    expect(find(ui, (n) => n.editable).focused).toBe(true);
    expect(ui.input('Hello 世界 👋')).toEqual({ text: 'Hello 世界 👋' });
    expect(find(ui, (n) => n.editable).text).toBe('Hello 世界 👋');

    clickNode(ui, byText('Send'));
    expect(ui.state.conversations['Alice']).toHaveLength(before + 1);
    expect(ui.state.conversations['Alice']?.at(-1)).toEqual({ from: 'me', text: 'Hello 世界 👋' });
    expect(find(ui, (n) => n.editable)).toMatchObject({ text: '', focused: false });
    expect(allNodes(ui.uiTree().nodes).filter((n) => n.resourceId.endsWith(':id/message_text')).at(-1)?.text).toBe('Hello 世界 👋');

    clickNode(ui, byText('Send'));
    expect(ui.state.conversations['Alice']).toHaveLength(before + 1);

    ui.back();
    expect(find(ui, (n) => n.resourceId.endsWith(':id/conversation_snippet') && n.text.startsWith('You:')).text).toBe('You: Hello 世界 👋');
  });

  it('the most recent conversation moves to the top of the list', () => {
    const ui = new PhoneUi();
    ui.open('com.google.android.apps.messaging');
    const names = () => allNodes(ui.uiTree().nodes).filter((n) => n.resourceId.endsWith(':id/conversation_name')).map((n) => n.text);
    expect(names()).toEqual(['Alice', 'Bob', '张伟']);
    clickNode(ui, byText('张伟'));
    clickNode(ui, (n) => n.editable);
    ui.input('好的');
    clickNode(ui, byText('Send'));
    ui.back();
    expect(names()).toEqual(['张伟', 'Alice', 'Bob']);
  });

  it('Start chat: typing a name and Next opens that conversation; back returns to the list', () => {
    const ui = new PhoneUi();
    ui.open('com.google.android.apps.messaging');
    clickNode(ui, byText('Start chat'));
    expect(ui.state.screen).toBe('new_chat');
    expect(find(ui, byText('Next')).enabled).toBe(false);
    clickNode(ui, (n) => n.editable);
    ui.input('Zo');
    // Suggestions filter as you type.
    expect(allNodes(ui.uiTree().nodes).filter((n) => n.resourceId.endsWith('cliv_name_textview')).map((n) => n.text)).toEqual(['Zoë']);
    ui.input('ë Q', false);
    clickNode(ui, byText('Next'));
    expect(ui.current).toEqual({ screen: 'conversation', param: 'Zoë Q' });
    expect(ui.state.conversations['Zoë Q']).toEqual([]);
    ui.back();
    expect(ui.state.screen).toBe('messages');
  });

  it('a contact\'s Message button opens the conversation with that contact', () => {
    const ui = new PhoneUi();
    ui.open('com.android.contacts');
    clickNode(ui, byText('Bob'));
    expect(find(ui, (n) => n.resourceId === 'com.android.contacts:id/large_title').text).toBe('Bob');
    clickNode(ui, byText('Message'));
    expect(ui.current).toEqual({ screen: 'conversation', param: 'Bob' });
    expect(find(ui, byText('Did you see the game last night?')).package).toBe('com.google.android.apps.messaging');
    ui.back();
    expect(ui.state.screen).toBe('contact');
  });

  it.each([1500, 5000])('a %i-character message taller than the list is in the tree whole, newest at the bottom, clipped to the list', (length) => {
    const ui = new PhoneUi();
    ui.open('com.google.android.apps.messaging');
    clickNode(ui, byText('Alice'));
    clickNode(ui, (n) => n.editable);
    const text = 'z'.repeat(length);
    ui.input(text);
    clickNode(ui, byText('Send'));
    expect(ui.state.conversations['Alice']?.map((m) => m.text.length)).toEqual([39, 30, length]);

    const list = find(ui, (n) => n.resourceId.endsWith(':id/messages_list'));
    const bubbles = allNodes(list.children).filter((n) => n.resourceId.endsWith(':id/message_text'));
    // Only the newest message shows: it alone is taller than the list, and its text is whole.
    expect(bubbles.map((b) => b.text)).toEqual([text]);
    const [left, top, right, bottom] = bubbles[0]?.bounds ?? [0, 0, 0, 0];
    expect([top, bottom]).toEqual([list.bounds[1], list.bounds[3]]);
    expect(right).toBe(1080 - 42);
    expect(left).toBeGreaterThan(0);
    expect(list.scrollable).toBe(true);
    // Drawn whole, clipped to the visible part.
    expect(ui.toSvg()).toContain(`<clipPath id="c1"><rect x="${left}" y="${top}" width="${right - left}" height="${bottom - top}"/></clipPath>`);

    // Scrolling back shows the older messages, newest of them at the bottom; scrolling forward returns.
    const [l, t, r, b] = list.bounds;
    const x = Math.floor((l + r) / 2);
    expect(ui.swipe(x, t + 200, x, b - 200)).toEqual({ scrolled: true });
    const older = allNodes(find(ui, (n) => n.resourceId.endsWith(':id/messages_list')).children).filter((n) => n.resourceId.endsWith(':id/message_text'));
    expect(older.map((n) => n.text)).toEqual(['Hi! Are we still on for lunch tomorrow?', 'Yes, 12:30 at the usual place.']);
    expect(older[1]?.bounds[3]).toBe(b);
    expect(ui.swipe(x, b - 200, x, t + 200)).toEqual({ scrolled: true });
    expect(allNodes(ui.uiTree().nodes).filter((n) => n.resourceId.endsWith(':id/message_text')).map((n) => n.text)).toEqual([text]);
  });

  it('a short message sent after a long one shows at the bottom, the long one clipped above it', () => {
    const ui = new PhoneUi();
    ui.open('com.google.android.apps.messaging');
    clickNode(ui, byText('Alice'));
    const long = 'z'.repeat(1500);
    for (const text of [long, 'ok']) {
      clickNode(ui, (n) => n.editable);
      ui.input(text);
      clickNode(ui, byText('Send'));
    }
    const list = find(ui, (n) => n.resourceId.endsWith(':id/messages_list'));
    const bubbles = allNodes(list.children).filter((n) => n.resourceId.endsWith(':id/message_text'));
    expect(bubbles.map((n) => n.text)).toEqual([long, 'ok']);
    const [older, newest] = bubbles.map((n) => n.bounds);
    expect(newest?.[3]).toBe(list.bounds[3]);
    // The long one is clipped at the list's top and ends just above the short one (a gap of 8 dp = 21 px).
    expect(older?.[1]).toBe(list.bounds[1]);
    expect((newest?.[1] ?? 0) - (older?.[3] ?? 0)).toBe(21);
  });

  it('input without a focused field is NO_FOCUSED_INPUT; clicking a non-editable removes the focus', () => {
    const ui = new PhoneUi();
    expect(() => ui.input('x')).toThrow(expect.objectContaining({ code: 'NO_FOCUSED_INPUT' }));
    ui.open('com.google.android.apps.messaging');
    clickNode(ui, byText('Alice'));
    clickNode(ui, (n) => n.editable);
    expect(ui.focusedText).toBe('');
    ui.click(540, 1000);
    expect(ui.focusedText).toBeUndefined();
    expect(() => ui.input('x')).toThrow(expect.objectContaining({ code: 'NO_FOCUSED_INPUT' }));
  });
});

describe('PhoneUi text', () => {
  const tricky = [
    '张伟说：“你好”',
    'مرحبا بالعالم',
    'שלום עולם',
    '👨‍👩‍👧‍👦 family, 🏳️‍🌈 flag, 👍🏽',
    `quotes " ' \` and 100% \\ back\\slash \\n <b>&amp;</b>`,
    'e\u0301 combining, zero\u200bwidth, nul\u0000 and bell\u0007',
  ];

  it.each(tricky)('round-trips %j exactly through input → ui_tree', (text) => {
    const ui = new PhoneUi();
    ui.open('com.google.android.apps.messaging');
    clickNode(ui, byText('Alice'));
    clickNode(ui, (n) => n.editable);
    expect(ui.input(text).text).toBe(text);
    const wire = JSON.parse(JSON.stringify(ui.uiTree())) as { nodes: UiNode[] };
    expect(findNode(wire.nodes, (n) => n.editable)?.text).toBe(text);
    clickNode(ui, byText('Send'));
    expect(ui.state.conversations['Alice']?.at(-1)?.text).toBe(text);
  });

  it('input appends, and clear replaces', () => {
    const ui = new PhoneUi();
    ui.open('com.android.chrome');
    clickNode(ui, (n) => n.editable);
    expect(ui.input('exa').text).toBe('exa');
    expect(ui.input('mple.org').text).toBe('example.org');
    expect(ui.input('example.com', true).text).toBe('example.com');
    clickNode(ui, byText('Go'));
    expect(ui.state.browser).toEqual({ url: 'https://example.com', title: 'example.com' });
    expect(find(ui, (n) => n.resourceId === 'com.android.chrome:id/page_title').text).toBe('example.com');
    expect(find(ui, (n) => n.resourceId === 'com.android.chrome:id/url_bar').text).toBe('https://example.com');
  });

  it('the browser keeps URLs with a scheme and searches for other text; Go on an empty bar does nothing', () => {
    const ui = new PhoneUi();
    ui.open('com.android.chrome');
    clickNode(ui, byText('Go'));
    expect(ui.state.browser.url).toBe('');
    clickNode(ui, (n) => n.editable);
    ui.input('http://localhost:3000/a?b=1');
    clickNode(ui, byText('Go'));
    expect(ui.state.browser.url).toBe('http://localhost:3000/a?b=1');
    clickNode(ui, (n) => n.editable);
    ui.input('cats & dogs', true);
    clickNode(ui, byText('Go'));
    expect(ui.state.browser).toEqual({ url: 'https://www.google.com/search?q=cats%20%26%20dogs', title: 'cats & dogs - Google Search' });
  });
});

describe('PhoneUi geometry', () => {
  it('rotation 1 swaps width and height and recomputes the layout; 2 keeps the size', () => {
    const ui = new PhoneUi();
    ui.open('com.android.settings');
    const portrait = find(ui, wifiSwitch).bounds;
    ui.rotate(1);
    expect(ui.screen).toEqual({ width: 2400, height: 1080, densityDpi: 420, rotation: 1 });
    const tree = ui.uiTree();
    expect(tree.screen).toEqual({ width: 2400, height: 1080, rotation: 1 });
    const landscape = find(ui, wifiSwitch).bounds;
    expect(landscape).not.toEqual(portrait);
    expect(landscape[2]).toBeGreaterThan(1080);
    expect(tree.nodes.every((n) => n.bounds[2] <= 2400 && n.bounds[3] <= 1080)).toBe(true);
    // The switch is still hit where ui_tree says it is.
    clickNode(ui, wifiSwitch);
    expect(ui.state.wifi).toBe(true);
    ui.rotate(2);
    expect(ui.screen).toMatchObject({ width: 1080, height: 2400, rotation: 2 });
    expect(() => ui.click(1500, 500)).toThrow(expect.objectContaining({ code: 'OUT_OF_BOUNDS' }));
  });

  it('frame ids are checked against the geometry they were taken with', () => {
    const ui = new PhoneUi();
    const { frameId } = ui.uiTree();
    expect(() => ui.checkFrame(frameId)).not.toThrow();
    ui.rotate(1);
    expect(() => ui.checkFrame(frameId)).toThrow(expect.objectContaining({ code: 'STALE_FRAME' }));
    const landscape = ui.uiTree().frameId;
    expect(landscape).not.toBe(frameId);
    ui.rotate(3);
    expect(() => ui.checkFrame(landscape)).toThrow(expect.objectContaining({ code: 'STALE_FRAME' }));
    expect(() => ui.checkFrame('nope')).toThrow(expect.objectContaining({ code: 'STALE_FRAME' }));
    expect(() => new PhoneUi().checkFrame(ui.uiTree().frameId)).toThrow(expect.objectContaining({ code: 'STALE_FRAME' }));
  });

  it('remembers only the last 64 frames', () => {
    const ui = new PhoneUi();
    const first = ui.uiTree().frameId;
    for (let i = 0; i < 63; i++) ui.uiTree();
    expect(() => ui.checkFrame(first)).not.toThrow();
    const second = ui.uiTree().frameId;
    expect(() => ui.checkFrame(first)).toThrow(expect.objectContaining({ code: 'STALE_FRAME' }));
    expect(() => ui.checkFrame(second)).not.toThrow();
  });

  it('a swipe inside the contact list scrolls it by whole rows; elsewhere it is a no-op', () => {
    const ui = new PhoneUi();
    ui.open('com.android.contacts');
    const listNode = find(ui, (n) => n.scrollable);
    expect(listNode.class).toBe('androidx.recyclerview.widget.RecyclerView');
    const names = () => allNodes(ui.uiTree().nodes).filter((n) => n.resourceId.endsWith('cliv_name_textview')).map((n) => n.text);
    const first = names();
    expect(first[0]).toBe('Alice');
    expect(first).not.toContain(CONTACTS.at(-1)?.name);
    expect(ui.swipe(540, 2000, 540, 800)).toEqual({ scrolled: true });
    const after = names();
    expect(after[0]).not.toBe('Alice');
    // Rows are never cut: every row lies inside the list.
    const list = find(ui, (n) => n.scrollable);
    for (const row of list.children) expect(row.bounds[3]).toBeLessThanOrEqual(list.bounds[3]);
    ui.swipe(540, 500, 540, 2200);
    ui.swipe(540, 500, 540, 2200);
    expect(names()).toEqual(first);
    expect(ui.swipe(540, 500, 540, 2200)).toEqual({ scrolled: false });
    for (let i = 0; i < 10; i++) ui.swipe(540, 2000, 540, 400);
    expect(names().at(-1)).toBe(CONTACTS.at(-1)?.name);
    // Starting on the app bar: nothing scrolls.
    expect(ui.swipe(540, 150, 540, 1500)).toEqual({ scrolled: false });
  });
});
