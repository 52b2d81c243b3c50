import type { UiNode } from '../results';
import { isStateText } from './element-labels';
import { describeUiElement, toUiElements, type UiElement } from './ui-elements';

type Bounds = UiNode['bounds'];
let counter = 0;
function n(props: Partial<UiNode> & { bounds: Bounds }, children: UiNode[] = []): UiNode {
  return { id: `v${counter++}`, class: 'android.view.View', text: '', desc: '', enabled: true, ...props, children };
}
const text = (value: string, bounds: Bounds, props: Partial<UiNode> = {}): UiNode => n({ class: 'android.widget.TextView', text: value, bounds, ...props });
const switchAt = (bounds: Bounds, props: Partial<UiNode> = {}): UiNode =>
  n({ class: 'android.widget.Switch', resourceId: 'android:id/switch_widget', checkable: true, bounds, ...props });

/** `[label, labelSource]` of the element made from `node`, `[null, null]` when it has none. */
function labelOf(roots: UiNode[], node: UiNode): [string | null, string | null] {
  const element = toUiElements(roots).find((e) => e.nodeId === node.id);
  if (!element) throw new Error(`${node.id} is not an element`);
  return [element.label ?? null, element.labelSource ?? null];
}

/** An Android preference row: icon, title and summary, and the widget frame holding `widget`. */
function preferenceRow(title: string, summary: string, widget: UiNode, frameProps: Partial<UiNode> = {}): UiNode {
  return n({ class: 'android.widget.LinearLayout', clickable: true, bounds: [0, 600, 1080, 800] }, [
    n({ class: 'android.widget.ImageView', resourceId: 'android:id/icon', bounds: [44, 660, 110, 726] }),
    n({ class: 'android.widget.RelativeLayout', bounds: [198, 600, 860, 800] }, [
      text(title, [198, 640, 500, 700], { resourceId: 'android:id/title' }),
      text(summary, [198, 700, 500, 750], { resourceId: 'android:id/summary' }),
    ]),
    n({ class: 'android.widget.LinearLayout', resourceId: 'android:id/widget_frame', bounds: [864, 600, 1036, 800], ...frameProps }, [widget]),
  ]);
}

describe('element labels: own text and description', () => {
  it('labels a button by its own text, and a row that merged its texts by its title', () => {
    const button = n({ class: 'android.widget.Button', text: ' Add a language ', clickable: true, bounds: [0, 0, 1080, 200] });
    const row = n({ clickable: true, bounds: [0, 200, 1080, 400] }, [
      n({ class: 'android.widget.ImageView', desc: 'Battery icon', bounds: [20, 250, 80, 310] }),
      text('100%', [100, 300, 300, 350], { resourceId: 'android:id/summary' }),
      text('Battery', [100, 220, 300, 290], { resourceId: 'android:id/title' }),
    ]);
    const untitled = n({ clickable: true, bounds: [0, 400, 1080, 600] }, [
      n({ class: 'android.widget.ImageView', desc: 'Alarm icon', bounds: [20, 420, 80, 480] }),
      text('8:30 AM', [100, 420, 300, 480]),
    ]);
    const roots = [button, row, untitled];
    expect(labelOf(roots, button)).toEqual(['Add a language', 'text']);
    // The text keeps every part; the label is the part with the title id.
    expect(toUiElements(roots).find((e) => e.nodeId === row.id)?.text).toBe('Battery icon · 100% · Battery');
    expect(labelOf(roots, row)).toEqual(['Battery', 'text']);
    // Without a title id: the first text part, before an icon's description.
    expect(labelOf(roots, untitled)).toEqual(['8:30 AM', 'text']);
  });

  it('takes the first line of a card whose merged text is a multi-line description', () => {
    const card = n({ clickable: true, longClickable: true, bounds: [50, 956, 702, 1501] }, [n({ desc: 'App: Gardenscapes\nCasual\nStar rating: 4.3\n', bounds: [265, 1336, 685, 1489] })]);
    expect(labelOf([card], card)).toEqual(['App: Gardenscapes', 'text']);
  });

  it('labels an icon button by its content description', () => {
    const up = n({ class: 'android.widget.ImageButton', desc: 'Navigate up', clickable: true, bounds: [0, 66, 154, 220] });
    expect(labelOf([up], up)).toEqual(['Navigate up', 'desc']);
  });

  it('labels an image button by its description before any text a tree reports for it (an image draws no text)', () => {
    const up = n({ class: 'android.widget.ImageButton', text: 'button1', desc: 'Navigate up', clickable: true, bounds: [0, 66, 154, 220] });
    const bare = n({ class: 'android.widget.ImageView', text: 'Image3', clickable: true, bounds: [200, 66, 354, 220] });
    expect(labelOf([up, bare], up)).toEqual(['Navigate up', 'desc']);
    expect(labelOf([up, bare], bare)).toEqual(['Image3', 'text']);
  });

  it('labels a button whose text is only a symbol by its description, and by the symbol when it has none', () => {
    const add = n({ class: 'android.widget.Button', text: '+', desc: 'Add alarm', clickable: true, bounds: [0, 0, 100, 100] });
    const plus = n({ class: 'android.widget.Button', text: '+', clickable: true, bounds: [100, 0, 200, 100] });
    expect(labelOf([add, plus], add)).toEqual(['Add alarm', 'desc']);
    expect(labelOf([add, plus], plus)).toEqual(['+', 'text']);
  });

  it('labels a button whose text is an icon font’s glyph (a private-use character) by its description', () => {
    const cart = n({ class: 'android.widget.Button', text: '\uf161', desc: 'السلة', clickable: true, bounds: [51, 162, 191, 302] });
    expect(labelOf([cart], cart)).toEqual(['السلة', 'desc']);
  });

  it('takes a row’s worded text as its title before an icon font’s glyph drawn before it', () => {
    const row = n({ clickable: true, bounds: [51, 1420, 1029, 1592] }, [text('\uf229', [900, 1475, 960, 1536]), text('عرض الكل', [460, 1467, 702, 1545])]);
    const iconOnly = n({ clickable: true, bounds: [0, 1600, 100, 1700] }, [text('\uf229', [20, 1620, 80, 1680])]);
    expect(labelOf([row, iconOnly], row)).toEqual(['عرض الكل', 'text']);
    // With nothing but a glyph, the glyph is what there is.
    expect(labelOf([row, iconOnly], iconOnly)).toEqual(['\uf229', 'text']);
  });

  it('drops the full stop that ends a spoken description, and keeps an ellipsis', () => {
    const edit = n({ class: 'android.widget.ImageView', desc: '修改设置顺序。', clickable: true, bounds: [263, 381, 304, 422] });
    const battery = n({ desc: 'Battery saver.', clickable: true, bounds: [0, 0, 100, 100] });
    const search = n({ class: 'android.widget.Button', desc: 'Search for a medicine…', clickable: true, bounds: [0, 100, 1080, 200] });
    const more = n({ class: 'android.widget.Button', text: 'More...', clickable: true, bounds: [0, 200, 1080, 300] });
    const roots = [edit, battery, search, more];
    expect([edit, battery, search, more].map((e) => labelOf(roots, e))).toEqual([
      ['修改设置顺序', 'desc'],
      ['Battery saver', 'desc'],
      ['Search for a medicine…', 'desc'],
      ['More...', 'text'],
    ]);
    expect(describeUiElement(toUiElements([edit])[0] as UiElement)).toBe('[0] ImageView desc="修改设置顺序。" clickable label="修改设置顺序" (desc)');
  });

  it('names a tile by the title its description starts with, once a text inside the tile shows that title', () => {
    const tile = (desc: string, title: string, state: string, top: number, props: Partial<UiNode> = {}): UiNode =>
      n({ class: 'android.widget.Switch', checkable: true, clickable: true, desc, bounds: [14, top, 156, top + 68], ...props }, [
        n({ class: 'android.widget.LinearLayout', bounds: [54, top + 13, 120, top + 54] }, [
          text(title, [54, top + 13, 120, top + 35], { resourceId: 'com.android.systemui:id/tile_label' }),
          text(state, [54, top + 35, 120, top + 54], { resourceId: 'com.android.systemui:id/app_label' }),
        ]),
      ]);
    const internet = tile('互联网,zxgj_5G', '互联网', 'zxgj_5G', 88, { text: '开启', checked: true });
    const bluetooth = tile('蓝牙。', '蓝牙', '已关闭', 163, { text: '关闭' });
    const alarm = n({ class: 'android.widget.LinearLayout', clickable: true, desc: '闹钟, 未设置闹钟', bounds: [14, 238, 156, 306] }, [text('闹钟', [54, 250, 120, 272]), text('未设置闹钟', [54, 272, 120, 294])]);
    // No text inside confirms a title: the description stays whole.
    const hotspot = n({ class: 'android.widget.Switch', checkable: true, clickable: true, desc: 'Hotspot, off', bounds: [14, 313, 156, 381] });
    // The description does not start with the text: it stays whole.
    const wifi = tile('Wi-Fi, Home', 'Home', 'Connected', 400);
    const roots = [n({ class: 'android.view.ViewGroup', bounds: [0, 0, 320, 600] }, [internet, bluetooth, alarm, hotspot, wifi])];
    expect([internet, bluetooth, alarm, hotspot, wifi].map((e) => labelOf(roots, e))).toEqual([
      ['互联网', 'desc'],
      ['蓝牙', 'desc'],
      ['闹钟', 'desc'],
      ['Hotspot, off', 'desc'],
      ['Wi-Fi, Home', 'desc'],
    ]);
    expect(describeUiElement(toUiElements(roots).find((e) => e.nodeId === internet.id) as UiElement)).toBe(
      '[0] Switch "开启" desc="互联网,zxgj_5G" clickable checked label="互联网" (desc)',
    );
  });

  it('never takes an on/off state text as a toggle’s label, and takes its description instead', () => {
    const wifi = switchAt([860, 220, 1080, 420], { text: 'ON', desc: 'Wi‑Fi', checked: true });
    const bluetooth = switchAt([860, 420, 1080, 620], { text: '开启', desc: '蓝牙', checked: true });
    expect(labelOf([wifi, bluetooth], wifi)).toEqual(['Wi‑Fi', 'desc']);
    expect(labelOf([wifi, bluetooth], bluetooth)).toEqual(['蓝牙', 'desc']);
    // A button may say "ON": only a checkable element's state text is not a label.
    const on = n({ class: 'android.widget.Button', text: 'ON', clickable: true, bounds: [0, 0, 100, 100] });
    expect(labelOf([on], on)).toEqual(['ON', 'text']);
  });

  it('recognises state texts in any case, width and spacing, English, Chinese and Japanese', () => {
    expect(['ON', 'off', ' On ', 'ＯＮ', '开启', '关闭', '已开启', '開啟', 'オフ'].map(isStateText)).toEqual([true, true, true, true, true, true, true, true, true]);
    expect(['Only', 'Offline', 'Wi-Fi', '开启蓝牙', 'Yes'].map(isStateText)).toEqual([false, false, false, false, false]);
  });
});

describe('element labels: labelled-by', () => {
  it('labels an element by the node its labeledBy names, before or after it in the tree', () => {
    const before = text('Vibrate', [0, 0, 500, 100], { id: 'caption-1' });
    const vibrate = switchAt([900, 300, 1040, 380], { labeledBy: 'caption-1' });
    const field = n({ class: 'android.widget.EditText', editable: true, clickable: true, text: 'Bob', labeledBy: 'caption-2', bounds: [0, 500, 1080, 620] });
    const after = text('Name', [0, 900, 300, 980], { id: 'caption-2' });
    const roots = [n({ bounds: [0, 0, 1080, 1000] }, [before, vibrate, field, after])];
    expect(labelOf(roots, vibrate)).toEqual(['Vibrate', 'labeled-by']);
    expect(labelOf(roots, field)).toEqual(['Name', 'labeled-by']);
  });

  it('ignores a labeledBy id that names no node', () => {
    const up = n({ class: 'android.widget.ImageButton', clickable: true, labeledBy: 'nowhere', resourceId: 'com.example:id/back', bounds: [0, 0, 100, 100] });
    expect(labelOf([up], up)).toEqual(['back', 'resource-id']);
  });
});

describe('element labels: row', () => {
  it('labels a preference switch by its row’s title, not its state text nor the summary', () => {
    const airplane = switchAt([908, 656, 1036, 730], { text: 'OFF' });
    const row = preferenceRow('Airplane mode', 'Off', airplane);
    expect(labelOf([row], row)).toEqual(['Airplane mode', 'text']);
    expect(labelOf([row], airplane)).toEqual(['Airplane mode', 'row']);
  });

  it('passes the row’s title through a clickable widget frame to the checkbox inside it', () => {
    const checkbox = n({ class: 'android.widget.CheckBox', resourceId: 'android:id/checkbox', checkable: true, bounds: [900, 650, 1000, 750] });
    const row = preferenceRow('Data Saver', 'Limit background data', checkbox, { clickable: true });
    const list = n({ class: 'androidx.recyclerview.widget.RecyclerView', scrollable: true, bounds: [0, 0, 1080, 2000] }, [row]);
    const frame = row.children![2]!;
    expect(labelOf([list], frame)).toEqual(['Data Saver', 'row']);
    expect(labelOf([list], checkbox)).toEqual(['Data Saver', 'row']);
    expect(describeUiElement(toUiElements([list]).find((e) => e.nodeId === checkbox.id) as UiElement)).toBe(
      `[3] CheckBox id=android:id/checkbox unchecked label="Data Saver" (row)`,
    );
  });

  it('skips a checkable row’s state text when it picks the title', () => {
    const row = n({ class: 'android.widget.CheckedTextView', checkable: true, clickable: true, bounds: [0, 0, 1080, 150] }, [text('On', [20, 20, 100, 60]), text('Sync', [120, 20, 300, 60])]);
    expect(labelOf([row], row)).toEqual(['Sync', 'text']);
  });
});

describe('element labels: card', () => {
  it('labels a switch in a described card by the card’s description', () => {
    const toggle = switchAt([900, 100, 1040, 180], { resourceId: 'com.example.clock:id/onoff' });
    const card = n({ class: 'androidx.cardview.widget.CardView', desc: 'Alarm 8:30 AM', bounds: [0, 0, 1080, 300] }, [n({ bounds: [0, 0, 1080, 300] }, [toggle])]);
    expect(labelOf([card], toggle)).toEqual(['Alarm 8:30 AM', 'card']);
  });

  it('labels a switch in a card the user taps by the card’s title (its first text), not its description that names only its kind', () => {
    const alarmCard = (time: string, days: string, top: number): UiNode =>
      n({ class: 'androidx.cardview.widget.CardView', desc: ' Alarm', clickable: true, bounds: [44, top, 1036, top + 337] }, [
        n({ class: 'android.view.ViewGroup', bounds: [44, top, 1036, top + 337] }, [
          text(time, [88, top + 44, 461, top + 205], { desc: time, clickable: true, resourceId: 'com.google.android.deskclock:id/digital_clock' }),
          n({ class: 'android.widget.ImageButton', desc: 'Expand alarm', clickable: true, bounds: [871, top, 1025, top + 132] }),
          n({ class: 'android.widget.LinearLayout', bounds: [88, top + 205, 821, top + 337] }, [text(days, [88, top + 205, 512, top + 337])]),
          switchAt([821, top + 205, 975, top + 337], { clickable: true, resourceId: 'com.google.android.deskclock:id/onoff' }),
        ]),
      ]);
    const first = alarmCard('8:30\u200aAM', 'Mon, Tue, Wed, Thu, Fri', 264);
    const second = alarmCard('21:00', 'Sun, Sat', 623);
    const roots = [n({ class: 'androidx.recyclerview.widget.RecyclerView', bounds: [0, 242, 1080, 1868] }, [first, second])];
    const toggle = (card: UiNode): UiNode => card.children![0]!.children![3]!;
    expect(labelOf(roots, toggle(first))).toEqual(['8:30\u200aAM', 'card']);
    // A 24-hour time is a value, not a caption, but it is still the card's title.
    expect(labelOf(roots, toggle(second))).toEqual(['21:00', 'card']);
    // The card itself keeps its own description.
    expect(labelOf(roots, first)).toEqual(['Alarm', 'desc']);
  });

  it('never takes a field’s own value as the title of the card it sits in', () => {
    const note = n({ class: 'android.widget.EditText', editable: true, clickable: true, text: 'Buy milk', bounds: [60, 120, 1020, 220] });
    const card = n({ desc: 'Note', clickable: true, bounds: [0, 100, 1080, 300] }, [note]);
    expect(labelOf([card], note)).toEqual(['Note', 'card']);
  });

  it('labels an element in a described container the user does not tap by the description, not by a text in it', () => {
    const icon = n({ class: 'android.widget.ImageView', clickable: true, bounds: [900, 300, 1000, 400] });
    const home = n({ desc: 'Home', bounds: [0, 128, 1080, 2337] }, [text('Sun, Oct 15', [99, 292, 1023, 354]), icon]);
    expect(labelOf([home], icon)).toEqual(['Home', 'card']);
  });

  it('does not look for a card or a row past a list, scrolling or not', () => {
    const icon = n({ class: 'android.widget.ImageView', clickable: true, bounds: [0, 100, 100, 200] });
    const page = n({ desc: 'Main page', clickable: true, bounds: [0, 0, 1080, 2000] }, [n({ scrollable: true, bounds: [0, 0, 1080, 2000] }, [n({ bounds: [0, 100, 1080, 300] }, [icon])])]);
    expect(labelOf([page], icon)).toEqual([null, null]);
    const star = n({ class: 'android.widget.ImageView', clickable: true, bounds: [0, 100, 100, 200] });
    const fitting = n({ desc: 'Favourites', bounds: [0, 0, 1080, 2000] }, [n({ class: 'android.widget.ListView', bounds: [0, 0, 1080, 2000] }, [n({ bounds: [0, 100, 1080, 300] }, [star])])]);
    expect(labelOf([fitting], star)).toEqual([null, null]);
  });
});

describe('element labels: preceding caption', () => {
  it('labels a switch by the text before it on its line, skipping a state text between them', () => {
    const toggle = switchAt([900, 20, 1040, 100]);
    const line = n({ bounds: [0, 0, 1080, 120] }, [text('Vibrate', [20, 30, 300, 90]), text('On', [600, 30, 700, 90]), toggle]);
    expect(labelOf([line], toggle)).toEqual(['Vibrate', 'preceding']);
  });

  it('labels a switch and a field of a right-to-left screen by the caption at their right, first in document order', () => {
    const notify = switchAt([44, 20, 184, 100]);
    const line = n({ bounds: [0, 0, 1080, 120] }, [text('الإشعارات', [700, 30, 1036, 90]), notify]);
    const name = n({ class: 'android.widget.EditText', editable: true, clickable: true, bounds: [44, 300, 1036, 420] });
    const form = n({ bounds: [0, 200, 1080, 500] }, [text('الاسم', [836, 240, 1036, 290]), name]);
    const roots = [line, form];
    expect(labelOf(roots, notify)).toEqual(['الإشعارات', 'preceding']);
    expect(labelOf(roots, name)).toEqual(['الاسم', 'preceding']);
  });

  it('never takes a value (a time, a count, a percentage) or an icon font’s glyph as a caption', () => {
    const carrier = n({ class: 'android.widget.LinearLayout', clickable: true, bounds: [60, 20, 213, 41] });
    const header = n({ bounds: [14, 0, 306, 41] }, [text('07:20', [14, 20, 53, 41]), carrier]);
    expect(labelOf([header], carrier)).toEqual([null, null]);
    const cart = n({ class: 'android.widget.Button', clickable: true, bounds: [51, 162, 191, 302] });
    const bar = n({ bounds: [0, 150, 1080, 320] }, [text('\uf161', [300, 200, 360, 260]), text('1', [200, 162, 218, 202]), cart]);
    expect(labelOf([bar], cart)).toEqual([null, null]);
    // A word caption before a value still names the element.
    const volume = n({ class: 'android.widget.SeekBar', clickable: true, bounds: [400, 520, 1040, 580] });
    const line = n({ bounds: [0, 500, 1080, 600] }, [text('Volume', [20, 520, 200, 580]), text('48%', [220, 520, 380, 580]), volume]);
    expect(labelOf([line], volume)).toEqual(['Volume', 'preceding']);
  });

  it('labels a field by the caption just above it, skipping an annotation in brackets, before its own text', () => {
    const email = n({ class: 'android.widget.EditText', editable: true, clickable: true, text: 'hoge@example.com', bounds: [44, 352, 1036, 493] });
    const form = n({ bounds: [0, 220, 1080, 1000] }, [
      text('Mail Address', [44, 286, 275, 330]),
      text('(Mandatory)', [297, 286, 383, 330]),
      text('*', [390, 286, 400, 330]),
      n({ bounds: [44, 352, 1036, 539] }, [n({ bounds: [44, 352, 1036, 493] }, [email])]),
    ]);
    expect(labelOf([form], email)).toEqual(['Mail Address', 'preceding']);
    expect(describeUiElement(toUiElements([form]).find((e) => e.nodeId === email.id) as UiElement)).toBe(
      '[3] EditText "hoge@example.com" clickable editable label="Mail Address" (preceding)',
    );
  });

  it('labels a field by its own text (its hint) when no caption is near it', () => {
    const heading = text('Sign in', [40, 120, 1040, 220]);
    const search = n({ class: 'android.widget.EditText', editable: true, clickable: true, text: 'Search', bounds: [40, 300, 1040, 420] });
    const aside = text('Tips', [40, 430, 300, 470]);
    const name = n({ class: 'android.widget.EditText', editable: true, clickable: true, text: 'Last name', bounds: [560, 520, 1040, 640] });
    // "Sign in" is a heading (80 px above a 120 px field); "Tips" is above, but beside, the second field.
    const roots = [n({ bounds: [0, 0, 1080, 800] }, [heading, search, aside, name])];
    expect(labelOf(roots, search)).toEqual(['Search', 'text']);
    expect(labelOf(roots, name)).toEqual(['Last name', 'text']);
  });

  it('labels a field by its hint when no caption is near it, before the value typed into it', () => {
    const address = n({ class: 'android.widget.EditText', editable: true, clickable: true, text: 'example.org', hint: 'Search or type web address', bounds: [40, 300, 1040, 420] });
    const empty = n({ class: 'android.widget.EditText', editable: true, clickable: true, text: '', hint: '  Text message ', bounds: [40, 1800, 900, 1900] });
    const captioned = n({ class: 'android.widget.EditText', editable: true, clickable: true, text: '', hint: 'you@example.com', bounds: [40, 700, 1040, 820] });
    const roots = [n({ bounds: [0, 0, 1080, 2000] }, [address, text('E-mail', [40, 640, 300, 690]), captioned, empty])];
    expect(labelOf(roots, address)).toEqual(['Search or type web address', 'hint']);
    expect(labelOf(roots, empty)).toEqual(['Text message', 'hint']);
    expect(labelOf(roots, captioned)).toEqual(['E-mail', 'preceding']);
  });

  it('never takes a text below the element, inside another control, or in another list item', () => {
    const icon = n({ class: 'android.widget.ImageButton', clickable: true, bounds: [0, 0, 100, 100] });
    const below = n({ bounds: [0, 0, 1080, 300] }, [icon, text('Below', [0, 120, 300, 160])]);
    expect(labelOf([below], icon)).toEqual([null, null]);

    const share = n({ class: 'android.widget.ImageButton', clickable: true, bounds: [600, 0, 700, 100] });
    const inButton = n({ bounds: [0, 0, 1080, 100] }, [n({ class: 'android.widget.Button', clickable: true, bounds: [0, 0, 500, 100] }, [text('Open', [0, 0, 500, 100])]), share]);
    expect(labelOf([inButton], share)).toEqual([null, null]);

    const more = n({ class: 'android.widget.ImageView', clickable: true, bounds: [700, 210, 800, 290] });
    const list = n({ scrollable: true, bounds: [0, 0, 1080, 400] }, [n({ bounds: [0, 0, 1080, 200] }, [text('First item', [0, 100, 800, 200])]), n({ bounds: [0, 200, 1080, 400] }, [more])]);
    expect(labelOf([list], more)).toEqual([null, null]);
  });

  it('never takes a list’s last item (even a list that fits and does not scroll) or the app bar’s title as a field’s caption', () => {
    const compose = n({ class: 'android.widget.EditText', editable: true, bounds: [32, 2106, 807, 2253] });
    const chat = n({ bounds: [0, 63, 1080, 2274] }, [
      n({ class: 'androidx.recyclerview.widget.RecyclerView', bounds: [0, 231, 1080, 2085] }, [text('See you at 12:30.', [413, 1929, 1038, 2085])]),
      n({ class: 'android.widget.LinearLayout', bounds: [0, 2085, 1080, 2274] }, [compose]),
    ]);
    expect(labelOf([chat], compose)).toEqual([null, null]);

    const recipient = n({ class: 'android.widget.EditText', editable: true, bounds: [42, 252, 765, 388] });
    const byClass = n({ bounds: [0, 63, 1080, 2274] }, [n({ class: 'androidx.appcompat.widget.Toolbar', bounds: [0, 63, 1080, 231] }, [text('New conversation', [189, 63, 1038, 231])]), recipient]);
    expect(labelOf([byClass], recipient)).toEqual([null, null]);
    const byId = n({ bounds: [0, 63, 1080, 2274] }, [n({ resourceId: 'com.example:id/action_bar', bounds: [0, 63, 1080, 231] }, [text('New conversation', [189, 63, 1038, 231])]), recipient]);
    expect(labelOf([byId], recipient)).toEqual([null, null]);
  });

  it('never takes the page title in an app bar as the label of an icon beside it', () => {
    const search = n({ class: 'android.widget.ImageButton', clickable: true, bounds: [900, 63, 1040, 231] });
    const bar = n({ class: 'com.google.android.material.appbar.MaterialToolbar', bounds: [0, 63, 1080, 231] }, [n({ bounds: [189, 63, 800, 231] }, [text('Alarms', [189, 100, 500, 190])]), search]);
    expect(labelOf([bar], search)).toEqual([null, null]);
  });
});

describe('element labels: following caption', () => {
  const box = (bounds: Bounds, props: Partial<UiNode> = {}): UiNode => n({ class: 'android.widget.CheckBox', checkable: true, clickable: true, bounds, ...props });
  const radio = (bounds: Bounds): UiNode => n({ class: 'androidx.appcompat.widget.AppCompatRadioButton', checkable: true, clickable: true, bounds });

  it('labels a checkbox without text by the caption after it on its line ("☐ Remember me")', () => {
    const remember = box([44, 900, 140, 996], { resourceId: 'com.example:id/remember' });
    const form = n({ class: 'android.widget.LinearLayout', bounds: [0, 880, 1080, 1016] }, [remember, text('Remember me', [160, 920, 500, 976])]);
    expect(labelOf([form], remember)).toEqual(['Remember me', 'following']);
    expect(describeUiElement(toUiElements([form]).find((e) => e.nodeId === remember.id) as UiElement)).toBe(
      '[0] CheckBox id=com.example:id/remember clickable unchecked label="Remember me" (following)',
    );
  });

  it('labels each radio button of a line by its own caption after it, not by the one before it', () => {
    const male = radio([200, 20, 260, 80]);
    const female = radio([520, 20, 580, 80]);
    const line = n({ bounds: [0, 0, 1080, 100] }, [text('Gender', [20, 30, 180, 70]), male, text('Male', [270, 30, 400, 70]), female, text('Female', [590, 30, 760, 70])]);
    expect(labelOf([line], male)).toEqual(['Male', 'following']);
    expect(labelOf([line], female)).toEqual(['Female', 'following']);
  });

  it('labels a switch by the caption before it first, by the one after it only when none precedes it', () => {
    const before = switchAt([600, 20, 740, 100]);
    const both = n({ bounds: [0, 0, 1080, 120] }, [text('Vibrate', [20, 30, 300, 90]), before, text('Only while ringing', [760, 30, 1060, 90])]);
    expect(labelOf([both], before)).toEqual(['Vibrate', 'preceding']);
    const first = switchAt([20, 220, 160, 300]);
    const after = n({ bounds: [0, 200, 1080, 320] }, [first, text('Use dark theme', [180, 230, 600, 290])]);
    expect(labelOf([after], first)).toEqual(['Use dark theme', 'following']);
  });

  it('labels a checkbox of a right-to-left screen by the caption at its left, after it in document order', () => {
    const agree = box([960, 900, 1036, 976]);
    const line = n({ bounds: [0, 880, 1080, 1000] }, [agree, text('أوافق على الشروط', [300, 910, 940, 966])]);
    expect(labelOf([line], agree)).toEqual(['أوافق على الشروط', 'following']);
  });

  it('never takes a text on another line, after the next checkbox, a value, a state text, or one inside another control or list item', () => {
    const alone = box([44, 20, 140, 116]);
    const below = n({ bounds: [0, 0, 1080, 300] }, [alone, text('Below it', [160, 160, 500, 220])]);
    expect(labelOf([below], alone)).toEqual([null, null]);

    const unnamed = box([44, 20, 140, 116]);
    const second = box([300, 20, 396, 116]);
    const pair = n({ bounds: [0, 0, 1080, 140] }, [unnamed, second, text('Second', [420, 40, 700, 100])]);
    expect(labelOf([pair], unnamed)).toEqual([null, null]);
    expect(labelOf([pair], second)).toEqual(['Second', 'following']);

    const counted = box([44, 20, 140, 116]);
    const values = n({ bounds: [0, 0, 1080, 140] }, [counted, text('12', [160, 40, 220, 100]), text('(optional)', [240, 40, 400, 100]), text('OFF', [420, 40, 520, 100])]);
    expect(labelOf([values], counted)).toEqual([null, null]);

    const inButton = box([44, 20, 140, 116]);
    const button = n({ bounds: [0, 0, 1080, 140] }, [inButton, n({ class: 'android.widget.Button', clickable: true, bounds: [200, 20, 600, 116] }, [text('Details', [220, 40, 580, 100])])]);
    expect(labelOf([button], inButton)).toEqual([null, null]);

    const item = box([44, 20, 140, 116]);
    const list = n({ class: 'androidx.recyclerview.widget.RecyclerView', bounds: [0, 0, 1080, 400] }, [n({ bounds: [0, 0, 1080, 140] }, [item]), n({ bounds: [0, 0, 1080, 140] }, [text('Next item', [160, 40, 600, 100])])]);
    expect(labelOf([list], item)).toEqual([null, null]);
  });

  it('takes no following caption for an element that is not checkable', () => {
    const icon = n({ class: 'android.widget.ImageButton', clickable: true, bounds: [44, 20, 140, 116] });
    const line = n({ bounds: [0, 0, 1080, 140] }, [icon, text('Share', [160, 40, 500, 100])]);
    expect(labelOf([line], icon)).toEqual([null, null]);
  });
});

describe('element labels: resource id, and what takes no label', () => {
  it('humanises the resource id when nothing on screen names the element', () => {
    const fab = n({ class: 'android.widget.ImageButton', clickable: true, resourceId: 'com.google.android.deskclock:id/fab_add_alarm', bounds: [400, 2000, 680, 2200] });
    const chip = n({ clickable: true, resourceId: 'com.example:id/filterChipView', bounds: [0, 0, 100, 100] });
    expect(labelOf([fab, chip], fab)).toEqual(['fab add alarm', 'resource-id']);
    expect(labelOf([fab, chip], chip)).toEqual(['filter chip view', 'resource-id']);
    expect(describeUiElement(toUiElements([fab]).at(0) as UiElement)).toBe('[0] ImageButton id=com.google.android.deskclock:id/fab_add_alarm clickable label="fab add alarm" (resource-id)');
  });

  it('takes no framework or obfuscated resource id, and leaves an element nothing names unlabelled', () => {
    const framework = switchAt([0, 0, 100, 100], { text: 'OFF' });
    const obfuscated = n({ clickable: true, resourceId: 'com.android.vending:id/0_resource_name_obfuscated', bounds: [0, 100, 100, 200] });
    expect(labelOf([framework, obfuscated], framework)).toEqual([null, null]);
    expect(labelOf([framework, obfuscated], obfuscated)).toEqual([null, null]);
    expect(describeUiElement(toUiElements([framework])[0] as UiElement)).toBe('[0] Switch "OFF" id=android:id/switch_widget unchecked');
  });

  it('gives a scroll container only a label of its own, and a readable text no label', () => {
    const list = n({ class: 'androidx.recyclerview.widget.RecyclerView', scrollable: true, resourceId: 'com.example:id/alarm_list', bounds: [0, 100, 1080, 2000] });
    const described = n({ class: 'android.widget.ScrollView', scrollable: true, desc: 'Alarms', bounds: [0, 100, 1080, 2000] });
    const heading = text('Alarm', [0, 0, 1080, 100]);
    const roots = [n({ desc: 'Clock', bounds: [0, 0, 1080, 2000] }, [heading, list, described])];
    expect(labelOf(roots, list)).toEqual([null, null]);
    expect(labelOf(roots, described)).toEqual(['Alarms', 'desc']);
    expect(labelOf(roots, heading)).toEqual([null, null]);
  });

  it('shows in a description line only a label that is not the element’s own text or description', () => {
    const roots = [preferenceRow('Wi‑Fi', 'AndroidWifi', switchAt([908, 656, 1036, 730], { text: 'ON', desc: 'Wi‑Fi', checked: true }), { clickable: true })];
    expect(toUiElements(roots).map(describeUiElement)).toEqual([
      '[0] LinearLayout "Wi‑Fi · AndroidWifi" clickable',
      '[1] LinearLayout id=android:id/widget_frame clickable label="Wi‑Fi" (row)',
      '[2] Switch "ON" desc="Wi‑Fi" id=android:id/switch_widget checked',
    ]);
  });
});
