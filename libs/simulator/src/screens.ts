/**
 * Layout of every simulated screen: pure functions from the UI state and the screen geometry to a
 * view tree (see view.ts). Sizes are Android dp scaled by densityDpi / 160, so the layout is
 * recomputed for any resolution or rotation.
 */
import { textWidth, wrapText } from './text-metrics';
import { clipView, view, type Bounds, type View } from './view';

export type ScreenName = 'launcher' | 'settings' | 'messages' | 'conversation' | 'new_chat' | 'contacts' | 'contact' | 'browser';

export interface ChatMessage {
  from: 'me' | 'them';
  text: string;
}

/** The phone's observable state (tests read and may set it). */
export interface PhoneState {
  wifi: boolean;
  bluetooth: boolean;
  /** The screen on top of the back stack. */
  screen: ScreenName;
  /** Messages per conversation name, oldest first. */
  conversations: Record<string, ChatMessage[]>;
  browser: { url: string; title: string };
}

/** One screen on the back stack, with its own text fields, focus and scroll position. */
export interface ScreenEntry {
  screen: ScreenName;
  /** Conversation or contact name for `conversation`/`contact`. */
  param?: string;
  /** Text of each editable field, by field key. */
  fields: Record<string, string>;
  /** Key of the focused editable field, if any. */
  focus: string | null;
  /** Scroll position of the screen's list, in items. */
  scroll: number;
}

export interface Contact {
  name: string;
  phone: string;
}

export const LAUNCHER_PACKAGE = 'com.google.android.apps.nexuslauncher';
export const SYSTEM_UI_PACKAGE = 'com.android.systemui';

/** The installed apps: launcher label, package, main screen and colours. */
export const APPS = [
  { label: 'Settings', package: 'com.android.settings', screen: 'settings', color: '#5f6368', accent: '#1a73e8' },
  { label: 'Messages', package: 'com.google.android.apps.messaging', screen: 'messages', color: '#1a73e8', accent: '#0b57d0' },
  { label: 'Contacts', package: 'com.android.contacts', screen: 'contacts', color: '#1e8e3e', accent: '#188038' },
  { label: 'Browser', package: 'com.android.chrome', screen: 'browser', color: '#ea4335', accent: '#d93025' },
] as const;

export type AppInfo = (typeof APPS)[number];

const SCREEN_APP: Record<ScreenName, AppInfo | null> = {
  launcher: null,
  settings: APPS[0],
  messages: APPS[1],
  conversation: APPS[1],
  new_chat: APPS[1],
  contacts: APPS[2],
  contact: APPS[2],
  browser: APPS[3],
};

export function packageOf(screen: ScreenName): string {
  return SCREEN_APP[screen]?.package ?? LAUNCHER_PACKAGE;
}

/** Enough contacts that the list scrolls on a 1080x2400 screen; names cover CJK, RTL and diacritics. */
export const CONTACTS: readonly Contact[] = [
  'Alice',
  'Bob',
  'Carlos',
  'Dana',
  'Emma',
  'Farah',
  'Hiroshi',
  'Ivan',
  'Olivia',
  'Priya',
  'Sam',
  'Tomás',
  'Zoë',
  '张伟',
  'نور',
  'דוד',
].map((name, i) => ({ name, phone: `+1 555-01${String(i).padStart(2, '0')}` }));

export function initialConversations(): Record<string, ChatMessage[]> {
  return {
    Alice: [
      { from: 'them', text: 'Hi! Are we still on for lunch tomorrow?' },
      { from: 'me', text: 'Yes, 12:30 at the usual place.' },
    ],
    Bob: [{ from: 'them', text: 'Did you see the game last night?' }],
    张伟: [{ from: 'them', text: '你好！明天见。' }],
  };
}

/** Screen geometry and dp → px conversion. */
export interface Metrics {
  width: number;
  height: number;
  /** dp (or sp) → px, rounded. */
  dp(n: number): number;
  statusBar: number;
  navBar: number;
  appBar: number;
}

export function metricsFor(width: number, height: number, densityDpi: number): Metrics {
  const density = densityDpi / 160;
  const dp = (n: number): number => Math.round(n * density);
  return { width, height, dp, statusBar: dp(24), navBar: dp(48), appBar: dp(64) };
}

/** What a screen builder may do to the phone besides mutating `state`/`entry`. */
export interface Navigator {
  push(screen: ScreenName, param?: string): void;
  /** Replaces the top screen (e.g. "New conversation" becomes the conversation). */
  replace(screen: ScreenName, param?: string): void;
  back(): void;
  home(): void;
  /** Marks a conversation as the most recent (it moves to the top of the list). */
  touchConversation(name: string): void;
  /** Conversation names, most recent first. */
  conversationOrder(): string[];
}

export interface ScreenContext {
  state: PhoneState;
  entry: ScreenEntry;
  m: Metrics;
  nav: Navigator;
}

const WHITE = '#ffffff';
const TEXT = '#202124';
const TEXT_2 = '#5f6368';
const CONTENT = 'app';

/** Builds the whole frame: status bar, the app's window and the navigation bar. */
export function buildFrame(ctx: ScreenContext): View[] {
  const { m, entry } = ctx;
  const app = SCREEN_APP[entry.screen];
  const pkg = packageOf(entry.screen);
  const content: Bounds = [0, m.statusBar, m.width, m.height - m.navBar];
  const children = buildScreen(ctx, pkg, content);
  const window = view('', CONTENT, 'android.widget.FrameLayout', pkg, content, {
    resourceId: 'android:id/content',
    paint: app ? { kind: 'fill', color: WHITE } : { kind: 'fill', color: '#3c4a7a', gradient: ['#3949ab', '#00897b'] },
    children,
  });
  return [statusBar(ctx, app), window, navBar(ctx)];
}

function statusBar(ctx: ScreenContext, app: AppInfo | null): View {
  const { m } = ctx;
  const id = 'status_bar';
  const h = m.statusBar;
  const color = app === null ? '#3949ab' : app.screen === 'browser' ? '#dadce0' : app.accent;
  const dark = app?.screen === 'browser';
  const fg = dark ? TEXT : WHITE;
  return view('', id, 'android.widget.FrameLayout', SYSTEM_UI_PACKAGE, [0, 0, m.width, h], {
    resourceId: `${SYSTEM_UI_PACKAGE}:id/status_bar`,
    paint: { kind: 'statusbar', color, dark },
    children: [
      view(id, 'clock', 'android.widget.TextView', SYSTEM_UI_PACKAGE, [m.dp(16), 0, m.dp(72), h], {
        text: '12:00',
        resourceId: `${SYSTEM_UI_PACKAGE}:id/clock`,
        paint: { kind: 'text', size: m.dp(14), color: fg, bold: true },
      }),
      view(id, 'battery', 'android.widget.ImageView', SYSTEM_UI_PACKAGE, [m.width - m.dp(40), m.dp(5), m.width - m.dp(16), h - m.dp(5)], {
        desc: 'Battery 100 percent.',
        resourceId: `${SYSTEM_UI_PACKAGE}:id/battery`,
        paint: { kind: 'battery', color: fg },
      }),
    ],
  });
}

function navBar(ctx: ScreenContext): View {
  const { m, nav } = ctx;
  const id = 'nav_bar';
  const top = m.height - m.navBar;
  const w = m.dp(72);
  const mid = m.width / 2;
  const button = (key: 'back' | 'home' | 'recent_apps', desc: string, cx: number, glyph: 'back' | 'home' | 'recents', onClick: () => void): View =>
    view(id, key, 'android.widget.ImageView', SYSTEM_UI_PACKAGE, [cx - w / 2, top, cx + w / 2, m.height], {
      desc,
      resourceId: `${SYSTEM_UI_PACKAGE}:id/${key}`,
      clickable: true,
      paint: { kind: 'nav-button', glyph },
      onClick,
    });
  const gap = Math.min(m.dp(120), m.width / 4);
  return view('', id, 'android.widget.FrameLayout', SYSTEM_UI_PACKAGE, [0, top, m.width, m.height], {
    resourceId: `${SYSTEM_UI_PACKAGE}:id/navigation_bar_frame`,
    paint: { kind: 'navbar' },
    children: [
      button('back', 'Back', mid - gap, 'back', () => nav.back()),
      button('home', 'Home', mid, 'home', () => nav.home()),
      button('recent_apps', 'Overview', mid + gap, 'recents', () => undefined),
    ],
  });
}

function buildScreen(ctx: ScreenContext, pkg: string, content: Bounds): View[] {
  switch (ctx.entry.screen) {
    case 'launcher':
      return launcher(ctx, content);
    case 'settings':
      return settings(ctx, pkg, content);
    case 'messages':
      return messages(ctx, pkg, content);
    case 'conversation':
      return conversation(ctx, pkg, content);
    case 'new_chat':
      return newChat(ctx, pkg, content);
    case 'contacts':
      return contacts(ctx, pkg, content);
    case 'contact':
      return contactDetail(ctx, pkg, content);
    case 'browser':
      return browser(ctx, pkg, content);
  }
}

function launcher(ctx: ScreenContext, content: Bounds): View[] {
  const { m, nav } = ctx;
  const pkg = LAUNCHER_PACKAGE;
  const cols = m.width > m.height ? 6 : 4;
  const cellW = m.width / cols;
  const top = content[1] + m.dp(32);
  const cellH = m.dp(96);
  const workspaceId = `${CONTENT}/workspace`;
  const icons = APPS.map((app, i) => {
    const col = i % cols;
    const row = Math.floor(i / cols);
    const bounds: Bounds = [col * cellW, top + row * cellH, (col + 1) * cellW, top + (row + 1) * cellH];
    return view(workspaceId, `icon_${app.label.toLowerCase()}`, 'android.widget.TextView', pkg, bounds, {
      text: app.label,
      desc: app.label,
      resourceId: `${pkg}:id/icon`,
      clickable: true,
      paint: { kind: 'icon', color: app.color, glyph: app.label[0] as string, size: m.dp(56) },
      onClick: () => nav.push(app.screen),
    });
  });
  return [
    view(CONTENT, 'workspace', 'android.view.ViewGroup', pkg, content, {
      resourceId: `${pkg}:id/workspace`,
      children: icons,
    }),
  ];
}

/** App bar with an optional "Navigate up" button; returns the bar and the y where content starts. */
function appBar(ctx: ScreenContext, pkg: string, content: Bounds, title: string, up: boolean): [View, number] {
  const { m, nav } = ctx;
  const app = SCREEN_APP[ctx.entry.screen] as AppInfo;
  const id = `${CONTENT}/toolbar`;
  const top = content[1];
  const bottom = top + m.appBar;
  const titleLeft = up ? m.dp(72) : m.dp(16);
  const children: View[] = [];
  if (up) {
    children.push(
      view(id, 'up', 'android.widget.ImageButton', pkg, [0, top, m.dp(56), bottom], {
        desc: 'Navigate up',
        clickable: true,
        paint: { kind: 'up-button', color: WHITE },
        onClick: () => nav.back(),
      }),
    );
  }
  children.push(
    view(id, 'title', 'android.widget.TextView', pkg, [titleLeft, top, m.width - m.dp(16), bottom], {
      text: title,
      paint: { kind: 'text', size: m.dp(22), color: WHITE },
    }),
  );
  const bar = view(CONTENT, 'toolbar', 'android.view.ViewGroup', pkg, [0, top, m.width, bottom], {
    resourceId: `${pkg}:id/toolbar`,
    paint: { kind: 'fill', color: app.accent },
    children,
  });
  return [bar, bottom];
}

interface ListItem {
  height: number;
  build(parentId: string, top: number): View;
}

/**
 * A RecyclerView holding the items that are at least partly visible. An item crossing an edge of
 * the list (or taller than the whole list) is clipped to it as Android reports it: its bounds are
 * the visible part, its text stays whole (see {@link clipView}), so a long chat message is never
 * missing from the tree. It scrolls by whole items: `entry.scroll` is the first item shown whole at
 * the top (`anchor: 'top'`) or the number of newest items scrolled past (`anchor: 'bottom'`, a chat:
 * the newest message sits at the bottom).
 */
function list(ctx: ScreenContext, pkg: string, key: string, bounds: Bounds, items: ListItem[], anchor: 'top' | 'bottom'): View {
  const { entry } = ctx;
  const id = `${CONTENT}/${key}`;
  const viewport = bounds[3] - bounds[1];
  const total = items.reduce((sum, item) => sum + item.height, 0);
  // Largest useful scroll: past it the list would show empty space.
  let maxScroll = 0;
  for (let used = total, i = 0; used > viewport && i < items.length; i++) {
    used -= (items[anchor === 'top' ? i : items.length - 1 - i] as ListItem).height;
    maxScroll = i + 1;
  }
  const clamp = (n: number): number => Math.max(0, Math.min(maxScroll, n));
  const scroll = clamp(entry.scroll);
  const shown: View[] = [];
  const place = (item: ListItem, top: number): void => {
    const built = item.build(id, top);
    const whole = top >= bounds[1] && top + item.height <= bounds[3];
    const visible = whole ? built : clipView(built, bounds);
    if (visible) shown.push(visible);
  };
  if (anchor === 'top') {
    for (let i = scroll, y = bounds[1]; i < items.length && y < bounds[3]; i++) {
      const item = items[i] as ListItem;
      place(item, y);
      y += item.height;
    }
  } else {
    for (let i = items.length - 1 - scroll, y = bounds[3]; i >= 0 && y > bounds[1]; i--) {
      const item = items[i] as ListItem;
      y -= item.height;
      place(item, y);
    }
    shown.reverse();
  }
  const children = shown;
  return view(CONTENT, key, 'androidx.recyclerview.widget.RecyclerView', pkg, bounds, {
    resourceId: `${pkg}:id/${key}`,
    scrollable: maxScroll > 0,
    itemHeight: items.length > 0 ? total / items.length : 1,
    onScroll: (delta) => {
      const before = clamp(entry.scroll);
      entry.scroll = clamp(before + (anchor === 'top' ? delta : -delta));
      return entry.scroll !== before;
    },
    children,
  });
}

function settings(ctx: ScreenContext, pkg: string, content: Bounds): View[] {
  const { m, state } = ctx;
  const [bar, top] = appBar(ctx, pkg, content, 'Settings', false);
  const accent = APPS[0].accent;
  const rowH = m.dp(72);
  const toggles = [
    { key: 'wifi', title: 'Wi-Fi', get: () => state.wifi, set: (on: boolean) => (state.wifi = on) },
    { key: 'bluetooth', title: 'Bluetooth', get: () => state.bluetooth, set: (on: boolean) => (state.bluetooth = on) },
  ];
  const items: ListItem[] = toggles.map((t) => ({
    height: rowH,
    build: (parentId, y) => {
      const rowId = `${parentId}/row_${t.key}`;
      const on = t.get();
      const toggle = (): void => void t.set(!t.get());
      const textRight = m.width - m.dp(88);
      return view(parentId, `row_${t.key}`, 'android.widget.LinearLayout', pkg, [0, y, m.width, y + rowH], {
        clickable: true,
        paint: { kind: 'row', divider: true },
        onClick: toggle,
        children: [
          view(rowId, 'title', 'android.widget.TextView', pkg, [m.dp(16), y + m.dp(10), textRight, y + m.dp(40)], {
            text: t.title,
            resourceId: 'android:id/title',
            paint: { kind: 'text', size: m.dp(18), color: TEXT },
          }),
          view(rowId, 'summary', 'android.widget.TextView', pkg, [m.dp(16), y + m.dp(40), textRight, y + m.dp(64)], {
            text: on ? 'On' : 'Off',
            resourceId: 'android:id/summary',
            paint: { kind: 'text', size: m.dp(14), color: TEXT_2 },
          }),
          view(rowId, 'switch', 'android.widget.Switch', pkg, [m.width - m.dp(72), y + m.dp(12), m.width - m.dp(16), y + m.dp(60)], {
            desc: t.title,
            resourceId: `${pkg}:id/switch_widget`,
            clickable: true,
            checkable: true,
            checked: on,
            paint: { kind: 'switch', accent },
            onClick: toggle,
          }),
        ],
      });
    },
  }));
  return [bar, list(ctx, pkg, 'recycler_view', [0, top, m.width, content[3]], items, 'top')];
}

function avatar(m: Metrics, parentId: string, pkg: string, name: string, bounds: Bounds): View {
  const palette = ['#e8710a', '#1a73e8', '#d93025', '#188038', '#9334e6', '#c5221f', '#007b83'];
  const first = Array.from(name)[0] ?? '?';
  const hash = Array.from(name).reduce((h, c) => (h * 31 + (c.codePointAt(0) ?? 0)) >>> 0, 7);
  return view(parentId, 'avatar', 'android.widget.ImageView', pkg, bounds, {
    desc: name,
    paint: { kind: 'avatar', color: palette[hash % palette.length] as string, glyph: first.toUpperCase() },
  });
}

function lastSnippet(messages: readonly ChatMessage[]): string {
  const last = messages[messages.length - 1];
  if (!last) return '';
  return last.from === 'me' ? `You: ${last.text}` : last.text;
}

function messages(ctx: ScreenContext, pkg: string, content: Bounds): View[] {
  const { m, state, nav } = ctx;
  const [bar, top] = appBar(ctx, pkg, content, 'Messages', false);
  const rowH = m.dp(80);
  const names = nav.conversationOrder().filter((name) => (state.conversations[name]?.length ?? 0) > 0);
  const items: ListItem[] = names.map((name, index) => ({
    height: rowH,
    build: (parentId, y) => {
      const key = `conversation_${index}`;
      const rowId = `${parentId}/${key}`;
      return view(parentId, key, 'android.view.ViewGroup', pkg, [0, y, m.width, y + rowH], {
        clickable: true,
        resourceId: `${pkg}:id/swipeableContainer`,
        paint: { kind: 'row', divider: false },
        onClick: () => nav.push('conversation', name),
        children: [
          avatar(m, rowId, pkg, name, [m.dp(16), y + m.dp(16), m.dp(64), y + m.dp(64)]),
          view(rowId, 'name', 'android.widget.TextView', pkg, [m.dp(80), y + m.dp(12), m.width - m.dp(16), y + m.dp(42)], {
            text: name,
            resourceId: `${pkg}:id/conversation_name`,
            paint: { kind: 'text', size: m.dp(17), color: TEXT, bold: true },
          }),
          view(rowId, 'snippet', 'android.widget.TextView', pkg, [m.dp(80), y + m.dp(42), m.width - m.dp(16), y + m.dp(68)], {
            text: lastSnippet(state.conversations[name] ?? []),
            resourceId: `${pkg}:id/conversation_snippet`,
            paint: { kind: 'text', size: m.dp(15), color: TEXT_2 },
          }),
        ],
      });
    },
  }));
  const fabW = m.dp(148);
  const fabH = m.dp(56);
  const fab = view(CONTENT, 'start_chat', 'android.widget.Button', pkg, [m.width - m.dp(16) - fabW, content[3] - m.dp(16) - fabH, m.width - m.dp(16), content[3] - m.dp(16)], {
    text: 'Start chat',
    resourceId: `${pkg}:id/start_chat_fab`,
    clickable: true,
    paint: { kind: 'button', size: m.dp(16), color: '#c2e7ff', textColor: '#001d35' },
    onClick: () => nav.push('new_chat'),
  });
  return [bar, list(ctx, pkg, 'conversation_list', [0, top, m.width, content[3]], items, 'top'), fab];
}

/** Opens (creating if needed) the conversation with `name`. */
function openConversation(ctx: ScreenContext, name: string, how: 'push' | 'replace'): void {
  ctx.state.conversations[name] ??= [];
  ctx.nav[how]('conversation', name);
}

function conversation(ctx: ScreenContext, pkg: string, content: Bounds): View[] {
  const { m, state, entry, nav } = ctx;
  const name = entry.param ?? '';
  const [bar, top] = appBar(ctx, pkg, content, name, true);
  const accent = APPS[1].accent;
  const composeH = m.dp(72);
  const composeTop = content[3] - composeH;
  const size = m.dp(16);
  const lineH = Math.round(size * 1.35);
  const padX = m.dp(12);
  const padY = m.dp(8);
  const gap = m.dp(8);
  const maxTextW = Math.round(m.width * 0.72) - 2 * padX;
  const history = state.conversations[name] ?? [];
  const items: ListItem[] = history.map((msg, index) => {
    const lines = wrapText(msg.text, size, maxTextW);
    const textW = Math.min(maxTextW, Math.max(...lines.map((l) => textWidth(l, size)), size));
    const bubbleW = Math.ceil(textW) + 2 * padX;
    const bubbleH = lines.length * lineH + 2 * padY;
    return {
      height: bubbleH + gap,
      build: (parentId, y) => {
        const left = msg.from === 'me' ? m.width - m.dp(16) - bubbleW : m.dp(16);
        return view(parentId, `message_${index}`, 'android.widget.TextView', pkg, [left, y + gap, left + bubbleW, y + gap + bubbleH], {
          text: msg.text,
          desc: msg.from === 'me' ? 'You said' : `${name} said`,
          resourceId: `${pkg}:id/message_text`,
          paint: { kind: 'bubble', mine: msg.from === 'me', size, accent, lines, padX, padY, lineHeight: lineH },
        });
      },
    };
  });
  const send = (): void => {
    const text = entry.fields['compose'] ?? '';
    if (text === '') return;
    (state.conversations[name] ??= []).push({ from: 'me', text });
    entry.fields['compose'] = '';
    entry.scroll = 0;
    nav.touchConversation(name);
  };
  const compose = view(CONTENT, 'compose', 'android.widget.LinearLayout', pkg, [0, composeTop, m.width, content[3]], {
    resourceId: `${pkg}:id/compose_message_view`,
    paint: { kind: 'fill', color: '#f1f3f4' },
    children: [
      view(`${CONTENT}/compose`, 'text', 'android.widget.EditText', pkg, [m.dp(12), composeTop + m.dp(8), m.width - m.dp(104), content[3] - m.dp(8)], {
        text: entry.fields['compose'] ?? '',
        hint: 'Text message',
        resourceId: `${pkg}:id/compose_message_text`,
        editable: true,
        focused: entry.focus === 'compose',
        field: 'compose',
        paint: { kind: 'edit', size: m.dp(16), accent },
      }),
      view(`${CONTENT}/compose`, 'send', 'android.widget.Button', pkg, [m.width - m.dp(96), composeTop + m.dp(8), m.width - m.dp(12), content[3] - m.dp(8)], {
        text: 'Send',
        desc: 'Send message',
        resourceId: `${pkg}:id/send_message_button_icon`,
        clickable: true,
        paint: { kind: 'button', size: m.dp(16), color: accent, textColor: WHITE },
        onClick: send,
      }),
    ],
  });
  return [bar, list(ctx, pkg, 'messages_list', [0, top, m.width, composeTop], items, 'bottom'), compose];
}

function contactRows(ctx: ScreenContext, pkg: string, people: readonly Contact[], onClick: (c: Contact) => void): ListItem[] {
  const { m } = ctx;
  const rowH = m.dp(64);
  return people.map((c) => ({
    height: rowH,
    build: (parentId, y) => {
      const key = `contact_${CONTACTS.indexOf(c)}`;
      const rowId = `${parentId}/${key}`;
      return view(parentId, key, 'android.view.ViewGroup', pkg, [0, y, m.width, y + rowH], {
        clickable: true,
        paint: { kind: 'row', divider: false },
        onClick: () => onClick(c),
        children: [
          avatar(m, rowId, pkg, c.name, [m.dp(16), y + m.dp(12), m.dp(56), y + m.dp(52)]),
          view(rowId, 'name', 'android.widget.TextView', pkg, [m.dp(72), y, m.width - m.dp(16), y + rowH], {
            text: c.name,
            resourceId: `${pkg}:id/cliv_name_textview`,
            paint: { kind: 'text', size: m.dp(17), color: TEXT },
          }),
        ],
      });
    },
  }));
}

function newChat(ctx: ScreenContext, pkg: string, content: Bounds): View[] {
  const { m, entry } = ctx;
  const [bar, top] = appBar(ctx, pkg, content, 'New conversation', true);
  const accent = APPS[1].accent;
  const to = entry.fields['to'] ?? '';
  const query = to.trim().toLowerCase();
  const matches = CONTACTS.filter((c) => query === '' || c.name.toLowerCase().includes(query));
  const fieldBottom = top + m.dp(64);
  const next = (): void => {
    const name = (entry.fields['to'] ?? '').trim();
    if (name !== '') openConversation(ctx, name, 'replace');
  };
  return [
    bar,
    view(CONTENT, 'recipient', 'android.widget.EditText', pkg, [m.dp(16), top + m.dp(8), m.width - m.dp(120), fieldBottom - m.dp(4)], {
      text: to,
      hint: 'Type a name',
      resourceId: `${pkg}:id/recipient_text_view`,
      editable: true,
      focused: entry.focus === 'to',
      field: 'to',
      paint: { kind: 'edit', size: m.dp(17), accent, underline: true },
    }),
    view(CONTENT, 'next', 'android.widget.Button', pkg, [m.width - m.dp(112), top + m.dp(8), m.width - m.dp(16), fieldBottom - m.dp(4)], {
      text: 'Next',
      resourceId: `${pkg}:id/next_button`,
      clickable: true,
      enabled: query !== '',
      paint: { kind: 'button', size: m.dp(16), color: query !== '' ? accent : '#dadce0', textColor: WHITE },
      onClick: next,
    }),
    list(
      ctx,
      pkg,
      'contact_list',
      [0, fieldBottom + m.dp(8), m.width, content[3]],
      contactRows(ctx, pkg, matches, (c) => openConversation(ctx, c.name, 'replace')),
      'top',
    ),
  ];
}

function contacts(ctx: ScreenContext, pkg: string, content: Bounds): View[] {
  const { m, nav } = ctx;
  const [bar, top] = appBar(ctx, pkg, content, 'Contacts', false);
  return [bar, list(ctx, pkg, 'contact_list', [0, top, m.width, content[3]], contactRows(ctx, pkg, CONTACTS, (c) => nav.push('contact', c.name)), 'top')];
}

function contactDetail(ctx: ScreenContext, pkg: string, content: Bounds): View[] {
  const { m, entry } = ctx;
  const name = entry.param ?? '';
  const contact = CONTACTS.find((c) => c.name === name);
  const [bar, top] = appBar(ctx, pkg, content, 'Contact', true);
  const accent = APPS[2].accent;
  const size = m.dp(96);
  const avatarTop = top + m.dp(32);
  const nameTop = avatarTop + size + m.dp(16);
  const phoneTop = nameTop + m.dp(44);
  const buttonTop = phoneTop + m.dp(48);
  const buttonW = m.dp(160);
  return [
    bar,
    avatar(m, CONTENT, pkg, name, [(m.width - size) / 2, avatarTop, (m.width + size) / 2, avatarTop + size]),
    view(CONTENT, 'name', 'android.widget.TextView', pkg, [m.dp(16), nameTop, m.width - m.dp(16), nameTop + m.dp(40)], {
      text: name,
      resourceId: `${pkg}:id/large_title`,
      paint: { kind: 'text', size: m.dp(28), color: TEXT, align: 'middle' },
    }),
    view(CONTENT, 'phone', 'android.widget.TextView', pkg, [m.dp(16), phoneTop, m.width - m.dp(16), phoneTop + m.dp(32)], {
      text: contact?.phone ?? '',
      resourceId: `${pkg}:id/header`,
      paint: { kind: 'text', size: m.dp(16), color: TEXT_2, align: 'middle' },
    }),
    view(CONTENT, 'message', 'android.widget.Button', pkg, [(m.width - buttonW) / 2, buttonTop, (m.width + buttonW) / 2, buttonTop + m.dp(48)], {
      text: 'Message',
      resourceId: `${pkg}:id/message_button`,
      clickable: true,
      paint: { kind: 'button', size: m.dp(16), color: accent, textColor: WHITE },
      onClick: () => openConversation(ctx, name, 'push'),
    }),
  ];
}

/** What the address bar's text means: a URL (https:// added when no scheme) or a search. */
export function resolveAddress(input: string): { url: string; title: string } {
  const text = input.trim();
  const hostTitle = (url: string): string => {
    try {
      return new URL(url).hostname.replace(/^www\./, '') || url;
    } catch {
      return url;
    }
  };
  if (/^[a-z][a-z0-9+.-]*:/i.test(text) && !/^[^/]+:\d+$/.test(text)) return { url: text, title: hostTitle(text) };
  if (!/\s/.test(text) && /^[^.]+(\.[^.]+)+/.test(text)) {
    const url = `https://${text}`;
    return { url, title: hostTitle(url) };
  }
  return { url: `https://www.google.com/search?q=${encodeURIComponent(text)}`, title: `${text} - Google Search` };
}

function browser(ctx: ScreenContext, pkg: string, content: Bounds): View[] {
  const { m, entry, state } = ctx;
  const accent = APPS[3].accent;
  const top = content[1];
  const barBottom = top + m.dp(64);
  const go = (): void => {
    const text = (entry.fields['url'] ?? '').trim();
    if (text === '') return;
    state.browser = resolveAddress(text);
    entry.fields['url'] = state.browser.url;
  };
  const pageId = `${CONTENT}/web_view`;
  const page: View[] =
    state.browser.url === ''
      ? [
          view(pageId, 'new_tab', 'android.widget.TextView', pkg, [m.dp(24), barBottom + m.dp(48), m.width - m.dp(24), barBottom + m.dp(96)], {
            text: 'New tab',
            paint: { kind: 'text', size: m.dp(24), color: TEXT_2, align: 'middle' },
          }),
        ]
      : [
          view(pageId, 'page_title', 'android.widget.TextView', pkg, [m.dp(24), barBottom + m.dp(32), m.width - m.dp(24), barBottom + m.dp(80)], {
            text: state.browser.title,
            resourceId: `${pkg}:id/page_title`,
            paint: { kind: 'text', size: m.dp(26), color: TEXT, bold: true },
          }),
          view(pageId, 'page_url', 'android.widget.TextView', pkg, [m.dp(24), barBottom + m.dp(88), m.width - m.dp(24), barBottom + m.dp(120)], {
            text: state.browser.url,
            paint: { kind: 'text', size: m.dp(15), color: '#1a0dab' },
          }),
        ];
  return [
    view(CONTENT, 'toolbar', 'android.widget.FrameLayout', pkg, [0, top, m.width, barBottom], {
      resourceId: `${pkg}:id/toolbar`,
      paint: { kind: 'fill', color: '#f1f3f4' },
      children: [
        view(`${CONTENT}/toolbar`, 'url_bar', 'android.widget.EditText', pkg, [m.dp(8), top + m.dp(8), m.width - m.dp(88), barBottom - m.dp(8)], {
          text: entry.fields['url'] ?? '',
          hint: 'Search or type web address',
          resourceId: `${pkg}:id/url_bar`,
          editable: true,
          focused: entry.focus === 'url',
          field: 'url',
          paint: { kind: 'edit', size: m.dp(16), accent },
        }),
        view(`${CONTENT}/toolbar`, 'go', 'android.widget.Button', pkg, [m.width - m.dp(80), top + m.dp(8), m.width - m.dp(8), barBottom - m.dp(8)], {
          text: 'Go',
          resourceId: `${pkg}:id/go_button`,
          clickable: true,
          paint: { kind: 'button', size: m.dp(16), color: accent, textColor: WHITE },
          onClick: go,
        }),
      ],
    }),
    view(CONTENT, 'web_view', 'android.webkit.WebView', pkg, [0, barBottom, m.width, content[3]], {
      desc: state.browser.title,
      children: page,
    }),
  ];
}
