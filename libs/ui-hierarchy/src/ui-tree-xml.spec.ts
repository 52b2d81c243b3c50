import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseUiHierarchyXml, UI_HIERARCHY_MAX_DEPTH, UiHierarchyParseError, type UiTreeNode, type UiTreeXml } from './ui-tree-xml';

const SCREENS = path.resolve(__dirname, '../../../test/fixtures/screens');

function screen(file: string): UiTreeXml {
  return parseUiHierarchyXml(readFileSync(path.join(SCREENS, file), 'utf8'));
}

/** Every node in document order. */
function flatten(nodes: UiTreeNode[]): UiTreeNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children)]);
}

function node(tree: UiTreeXml, id: string): Omit<UiTreeNode, 'children'> & { childIds: string[] } {
  const found = flatten(tree.nodes).find((n) => n.id === id);
  if (!found) throw new Error(`no node ${id}`);
  const { children, ...rest } = found;
  return { ...rest, childIds: children.map((c) => c.id) };
}

function ids(tree: UiTreeXml, match: (n: UiTreeNode) => boolean): string[] {
  return flatten(tree.nodes)
    .filter(match)
    .map((n) => n.id);
}

/** A node with every boolean false except `enabled`, for compact expectations. */
const PLAIN = {
  clickable: false,
  longClickable: false,
  focusable: false,
  focused: false,
  checkable: false,
  checked: false,
  enabled: true,
  scrollable: false,
  selected: false,
  password: false,
  editable: false,
};

function parseError(input: string): UiHierarchyParseError {
  try {
    parseUiHierarchyXml(input);
  } catch (err) {
    if (err instanceof UiHierarchyParseError) return err;
    throw new Error(`expected a UiHierarchyParseError, got ${String(err)}`);
  }
  throw new Error('expected a UiHierarchyParseError, but the input parsed');
}

describe('parseUiHierarchyXml on the recorded screens (Appium page source)', () => {
  it('finds the fixtures directory', () => {
    expect(existsSync(path.join(SCREENS, 'settings-top.xml'))).toBe(true);
  });

  it('numbers nodes n0, n1, … in document order on every file', () => {
    for (const file of ['settings-top.xml', 'settings-network-internet-wifi.xml', 'playstore-games-scroll.xml', 'signup-form-textfields.xml']) {
      const all = flatten(screen(file).nodes);
      expect(all.map((n) => n.id)).toEqual(all.map((_, i) => `n${i}`));
    }
  });

  it('settings-top.xml: the Network & internet row and the scrollable container', () => {
    const tree = screen('settings-top.xml');
    expect(tree.screen).toEqual({ width: 1080, height: 2088, rotation: 0 });
    expect(tree.nodes.map((n) => n.id)).toEqual(['n0']);
    expect(flatten(tree.nodes)).toHaveLength(79);
    expect(node(tree, 'n26')).toEqual({
      ...PLAIN,
      id: 'n26',
      class: 'android.widget.LinearLayout',
      text: '',
      desc: '',
      resourceId: '',
      package: 'com.android.settings',
      bounds: [0, 397, 1080, 597],
      clickable: true,
      focusable: true,
      childIds: ['n27', 'n29'],
    });
    expect(node(tree, 'n30')).toEqual({
      ...PLAIN,
      id: 'n30',
      class: 'android.widget.TextView',
      text: 'Network & internet',
      desc: '',
      resourceId: 'android:id/title',
      package: 'com.android.settings',
      bounds: [198, 441, 573, 500],
      childIds: [],
    });
    expect(node(tree, 'n31').text).toBe('Wi\u2011Fi, mobile, data usage, and hotspot');
    expect(ids(tree, (n) => n.scrollable)).toEqual(['n11']);
    expect(node(tree, 'n11')).toMatchObject({ class: 'android.widget.ScrollView', resourceId: 'com.android.settings:id/main_content_scrollable_container', bounds: [0, 66, 1080, 2088], focusable: true });
    expect(node(tree, 'n10').desc).toBe('Profile picture, double tap to open Google Account');
  });

  it('settings-network-internet-wifi.xml: the Wi‑Fi switch is on, airplane mode off', () => {
    const tree = screen('settings-network-internet-wifi.xml');
    expect(tree.screen).toEqual({ width: 1080, height: 2088, rotation: 0 });
    expect(flatten(tree.nodes)).toHaveLength(56);
    expect(node(tree, 'n25')).toEqual({
      ...PLAIN,
      id: 'n25',
      class: 'android.widget.Switch',
      text: 'ON',
      desc: 'Wi\u2011Fi',
      resourceId: 'com.android.settings:id/switchWidget',
      package: 'com.android.settings',
      bounds: [860, 220, 1080, 420],
      focusable: true,
      checkable: true,
      checked: true,
      childIds: [],
    });
    expect(node(tree, 'n39')).toEqual({
      ...PLAIN,
      id: 'n39',
      class: 'android.widget.Switch',
      text: 'OFF',
      desc: '',
      resourceId: 'android:id/switch_widget',
      package: 'com.android.settings',
      bounds: [908, 656, 1036, 730],
      checkable: true,
      childIds: [],
    });
    expect(ids(tree, (n) => n.checked)).toEqual(['n25']);
    expect(ids(tree, (n) => n.checkable)).toEqual(['n25', 'n39']);
    expect(ids(tree, (n) => n.scrollable)).toEqual([]);
    expect(node(tree, 'n6').text).toBe('Network & internet');
    expect(node(tree, 'n5')).toMatchObject({ class: 'android.widget.ImageButton', desc: 'Navigate up', bounds: [0, 66, 154, 220], clickable: true });
  });

  it('settings-connected-devices-bluetooth.xml', () => {
    const tree = screen('settings-connected-devices-bluetooth.xml');
    expect(tree.screen).toEqual({ width: 1080, height: 2088, rotation: 0 });
    expect(flatten(tree.nodes)).toHaveLength(31);
    expect(ids(tree, (n) => n.scrollable)).toEqual(['n14']);
    expect(node(tree, 'n14')).toMatchObject({ class: 'androidx.recyclerview.widget.RecyclerView', resourceId: 'com.android.settings:id/recycler_view', bounds: [0, 220, 1080, 2088] });
    expect(node(tree, 'n24')).toMatchObject({ clickable: true, bounds: [0, 549, 1080, 749], childIds: ['n25'] });
    expect(node(tree, 'n26')).toMatchObject({ text: 'Connection preferences', resourceId: 'android:id/title', bounds: [198, 593, 662, 652] });
    expect(node(tree, 'n27')).toMatchObject({ text: 'Bluetooth', resourceId: 'android:id/summary', bounds: [198, 652, 365, 705] });
  });

  it('settings-security-list.xml: section headers and & in texts', () => {
    const tree = screen('settings-security-list.xml');
    expect(flatten(tree.nodes)).toHaveLength(70);
    expect(ids(tree, (n) => n.scrollable)).toEqual(['n15']);
    expect(node(tree, 'n9')).toMatchObject({ class: 'android.widget.TextView', desc: 'Help & feedback', clickable: true, bounds: [948, 77, 1080, 209] });
    expect(node(tree, 'n18')).toMatchObject({ text: 'SECURITY STATUS', bounds: [198, 286, 1036, 327] });
    expect(node(tree, 'n69')).toMatchObject({ text: 'Encryption & credentials', bounds: [198, 2069, 681, 2088] });
  });

  it('settings-languages.xml: 1080x2160, CJK text, long-clickable menu button', () => {
    const tree = screen('settings-languages.xml');
    expect(tree.screen).toEqual({ width: 1080, height: 2160, rotation: 0 });
    expect(flatten(tree.nodes)).toHaveLength(29);
    expect(node(tree, 'n25')).toEqual({
      ...PLAIN,
      id: 'n25',
      class: 'android.widget.TextView',
      text: '日本語 (日本)',
      desc: 'Japanese (Japan)',
      resourceId: 'com.android.settings:id/label',
      package: 'com.android.settings',
      bounds: [66, 826, 904, 1024],
      childIds: [],
    });
    expect(node(tree, 'n10')).toMatchObject({ desc: 'More options', clickable: true, longClickable: true, focusable: true, bounds: [969, 147, 1080, 279] });
    expect(node(tree, 'n28')).toMatchObject({ class: 'android.widget.Button', text: 'Add a language', clickable: true, bounds: [0, 1024, 1080, 1222] });
    expect(ids(tree, (n) => n.scrollable)).toEqual([]);
  });

  it('playstore-games-scroll.xml: five scrollable containers, &#10; in descriptions, selected tab', () => {
    const tree = screen('playstore-games-scroll.xml');
    expect(flatten(tree.nodes)).toHaveLength(93);
    expect(ids(tree, (n) => n.scrollable)).toEqual(['n14', 'n20', 'n23', 'n25', 'n37']);
    expect(node(tree, 'n14')).toMatchObject({ class: 'android.widget.HorizontalScrollView', bounds: [0, 220, 1080, 352] });
    expect(node(tree, 'n89').desc).toBe('Signed in as Foo foo@example.com\nAccount and settings.');
    expect(node(tree, 'n44').desc).toBe('App: Gardenscapes\nCasual\nPuzzle\nStar rating: 4.3\n');
    expect(node(tree, 'n39')).toMatchObject({ resourceId: 'com.android.vending:id/play_card', clickable: true, longClickable: true, bounds: [50, 956, 702, 1501] });
    expect(node(tree, 'n16')).toMatchObject({ text: 'For you', selected: true, clickable: true });
    expect(node(tree, 'n87').text).toBe('Search for apps & games');
    expect(ids(tree, (n) => n.selected)).toEqual(['n16', 'n67', 'n68', 'n69']);
  });

  it('signup-form-textfields.xml: password fields keep the flag and lose their text', () => {
    const source = readFileSync(path.join(SCREENS, 'signup-form-textfields.xml'), 'utf8');
    expect(source).toContain('text="password1"');
    const tree = parseUiHierarchyXml(source);
    expect(flatten(tree.nodes)).toHaveLength(62);
    expect(ids(tree, (n) => n.password)).toEqual(['n32', 'n44']);
    expect(ids(tree, (n) => n.editable)).toEqual(['n23', 'n32', 'n44', 'n55', 'n61']);
    expect(node(tree, 'n32')).toEqual({
      ...PLAIN,
      id: 'n32',
      class: 'android.widget.EditText',
      text: '',
      desc: '',
      resourceId: 'jp.co.app.android:id/textInputEditText',
      package: 'jp.co.app.android',
      bounds: [44, 627, 1036, 768],
      clickable: true,
      longClickable: true,
      focusable: true,
      password: true,
      editable: true,
      childIds: [],
    });
    expect(node(tree, 'n44')).toMatchObject({ text: '', password: true, editable: true, bounds: [44, 902, 1036, 1043] });
    expect(node(tree, 'n23')).toMatchObject({ text: 'hoge@example.com', password: false, editable: true, bounds: [44, 352, 1036, 493] });
    expect(JSON.stringify(tree)).not.toContain('password1');
    expect(ids(tree, (n) => n.scrollable)).toEqual(['n13']);
  });

  it('signup-form-textfields.xml: elements recorded without bounds get empty bounds', () => {
    const tree = screen('signup-form-textfields.xml');
    expect(ids(tree, (n) => n.bounds.every((v) => v === 0))).toEqual(['n10', 'n24', 'n36']);
    expect(node(tree, 'n10')).toEqual({ ...PLAIN, id: 'n10', class: 'android.widget.ImageView', text: 'Image3', desc: '', resourceId: '', package: '', bounds: [0, 0, 0, 0], childIds: [] });
  });
});

describe('parseUiHierarchyXml on more recorded screens (Appium page source)', () => {
  it('numbers nodes in document order and counts every element', () => {
    const counts: Record<string, number> = {};
    for (const file of ['clock-alarm-list.xml', 'dialog-app-not-responding.xml', 'settings-date-time.xml', 'settings-date-time-ja.xml']) {
      const all = flatten(screen(file).nodes);
      expect(all.map((n) => n.id)).toEqual(all.map((_, i) => `n${i}`));
      counts[file] = all.length;
    }
    expect(counts).toEqual({ 'clock-alarm-list.xml': 62, 'dialog-app-not-responding.xml': 12, 'settings-date-time.xml': 53, 'settings-date-time-ja.xml': 51 });
  });

  it('clock-alarm-list.xml: two alarm switches with no label of their own, a hair space in the times, the selected tab', () => {
    const tree = screen('clock-alarm-list.xml');
    expect(tree.screen).toEqual({ width: 1080, height: 2088, rotation: 0 });
    expect(node(tree, 'n24')).toEqual({
      ...PLAIN,
      id: 'n24',
      class: 'android.widget.Switch',
      text: '',
      desc: '',
      resourceId: 'com.google.android.deskclock:id/onoff',
      package: 'com.google.android.deskclock',
      bounds: [821, 469, 975, 601],
      clickable: true,
      focusable: true,
      checkable: true,
      childIds: [],
    });
    expect(ids(tree, (n) => n.checkable)).toEqual(['n24', 'n31']);
    expect(ids(tree, (n) => n.checked)).toEqual([]);
    expect(node(tree, 'n20')).toMatchObject({ text: '8:30\u200aAM', desc: '8:30\u200aAM', clickable: true, bounds: [88, 308, 461, 469] });
    expect(node(tree, 'n30')).toMatchObject({ text: 'Sun, Sat', desc: 'Sunday, Saturday', clickable: false });
    expect(node(tree, 'n33')).toMatchObject({ class: 'android.widget.Button', text: '', desc: 'Add alarm', clickable: true, bounds: [408, 1560, 672, 1824] });
    expect(node(tree, 'n36')).toMatchObject({ desc: 'Alarm', selected: true, clickable: false, bounds: [0, 1868, 216, 2088] });
    expect(node(tree, 'n52')).toMatchObject({ desc: 'Stopwatch', selected: false, clickable: true, bounds: [648, 1868, 864, 2088], childIds: ['n53', 'n55'] });
  });

  it('dialog-app-not-responding.xml: a system dialog window smaller than the screen', () => {
    const tree = screen('dialog-app-not-responding.xml');
    expect(tree.screen).toEqual({ width: 1080, height: 2088, rotation: 0 });
    expect(tree.nodes.map((n) => [n.package, n.bounds])).toEqual([['android', [28, 807, 1052, 1346]]]);
    expect(node(tree, 'n6')).toMatchObject({ text: "Settings isn't responding", resourceId: 'android:id/alertTitle' });
    expect(ids(tree, (n) => n.clickable)).toEqual(['n10', 'n11']);
    expect(node(tree, 'n11')).toEqual({
      ...PLAIN,
      id: 'n11',
      class: 'android.widget.Button',
      text: 'Wait',
      desc: '',
      resourceId: 'android:id/aerr_wait',
      package: 'android',
      bounds: [72, 1148, 1008, 1280],
      clickable: true,
      focusable: true,
      childIds: [],
    });
  });

  it('settings-date-time.xml: preference switches outside their clickable rows, disabled rows and their texts', () => {
    const tree = screen('settings-date-time.xml');
    expect(ids(tree, (n) => n.class === 'android.widget.Switch')).toEqual(['n19', 'n35', 'n40', 'n52']);
    expect(ids(tree, (n) => n.checked)).toEqual(['n19', 'n35', 'n52']);
    expect(tree.nodes.length).toBe(1);
    expect(flatten(tree.nodes).filter((n) => n.class === 'android.widget.Switch').every((n) => !n.clickable && !n.focusable)).toBe(true);
    expect(node(tree, 'n15')).toMatchObject({ class: 'android.widget.LinearLayout', clickable: true, bounds: [0, 558, 1080, 720], childIds: ['n16', 'n18'] });
    expect(node(tree, 'n17').text).toBe('Set time automatically');
    expect(ids(tree, (n) => !n.enabled)).toEqual(['n20', 'n21', 'n22', 'n23', 'n24', 'n25', 'n26', 'n27', 'n41', 'n42', 'n43', 'n44']);
    expect(node(tree, 'n20')).toMatchObject({ clickable: true, enabled: false, bounds: [0, 720, 1080, 935] });
    expect(node(tree, 'n22')).toMatchObject({ text: 'Date', enabled: false });
    expect(node(tree, 'n30')).toMatchObject({ text: 'Time zone', enabled: true, clickable: false, bounds: [66, 1216, 1036, 1269] });
    expect(node(tree, 'n5').desc).toBe('Date & time');
  });

  it('settings-date-time-ja.xml: the same page in Japanese, with the list marked scrollable', () => {
    const tree = screen('settings-date-time-ja.xml');
    expect(node(tree, 'n17').text).toBe('日時を自動的に設定');
    expect(node(tree, 'n7')).toMatchObject({ class: 'android.widget.ImageButton', desc: '上へ移動', clickable: true });
    expect(node(tree, 'n38')).toMatchObject({ text: 'タイムゾーンの設定に位置情報を使用', bounds: [66, 1497, 838, 1651] });
    expect(node(tree, 'n40')).toMatchObject({ class: 'android.widget.Switch', checkable: true, checked: false, bounds: [882, 1508, 1036, 1640] });
    expect(ids(tree, (n) => n.scrollable)).toEqual(['n14']);
    expect(node(tree, 'n23')).toMatchObject({ text: '2023年12月15日', enabled: false });
  });
});

describe('parseUiHierarchyXml on recorded uiautomator dumps (<node> format)', () => {
  it('takes each screen from its root nodes, numbers nodes in order and counts every node', () => {
    const seen: Record<string, [number, number, number, number]> = {};
    for (const file of ['gmail-welcome-tour.xml', 'homee-welcome.xml', 'launcher-home-pixel.xml', 'quick-settings-zh.xml', 'pharmacy-home-ar.xml', 'samsung-app-drawer.xml', 'samsung-open-with-chooser.xml']) {
      const tree = screen(file);
      const all = flatten(tree.nodes);
      expect(all.map((n) => n.id)).toEqual(all.map((_, i) => `n${i}`));
      seen[file] = [tree.screen.width, tree.screen.height, tree.nodes.length, all.length];
      expect(tree.screen.rotation).toBe(0);
    }
    expect(seen).toEqual({
      'gmail-welcome-tour.xml': [1080, 1794, 1, 20],
      'homee-welcome.xml': [1080, 2400, 2, 50],
      'launcher-home-pixel.xml': [1080, 2400, 2, 23],
      'quick-settings-zh.xml': [320, 439, 1, 104],
      'pharmacy-home-ar.xml': [1080, 2156, 1, 120],
      'samsung-app-drawer.xml': [1080, 2178, 1, 67],
      'samsung-open-with-chooser.xml': [1080, 2178, 1, 69],
    });
  });

  it('gmail-welcome-tour.xml: the tour’s only button', () => {
    const tree = screen('gmail-welcome-tour.xml');
    expect(ids(tree, (n) => n.clickable)).toEqual(['n17']);
    expect(node(tree, 'n17')).toEqual({
      ...PLAIN,
      id: 'n17',
      class: 'android.widget.TextView',
      text: 'GOT IT',
      desc: '',
      resourceId: 'com.google.android.gm:id/welcome_tour_got_it',
      package: 'com.google.android.gm',
      bounds: [0, 1647, 1080, 1794],
      clickable: true,
      focusable: true,
      childIds: [],
    });
    expect(node(tree, 'n6')).toMatchObject({ class: 'androidx.viewpager.widget.ViewPager', resourceId: 'com.google.android.gm:id/welcome_tour_pager' });
    // The navigation bar's background is recorded with empty bounds.
    expect(node(tree, 'n19')).toMatchObject({ resourceId: 'android:id/navigationBarBackground', bounds: [0, 0, 0, 0] });
  });

  it('homee-welcome.xml: two windows (status bar, app); a Flutter app labels its buttons only by description', () => {
    const tree = screen('homee-welcome.xml');
    expect(tree.nodes.map((n) => [n.id, n.package])).toEqual([
      ['n0', 'com.android.systemui'],
      ['n27', 'de.vorwerk.homee.homee'],
    ]);
    expect(node(tree, 'n44')).toMatchObject({ class: 'android.widget.Button', text: '', desc: 'I am new here', clickable: true, bounds: [42, 1741, 1038, 1867] });
    expect(node(tree, 'n48').desc).toBe(' and ');
    expect(ids(tree, (n) => n.clickable)).toEqual(['n43', 'n44', 'n47', 'n49']);
  });

  it('launcher-home-pixel.xml: app icons whose description differs from their text', () => {
    const tree = screen('launcher-home-pixel.xml');
    expect(node(tree, 'n11')).toMatchObject({ class: 'android.widget.TextView', text: 'VLC', desc: 'Predicted app: VLC', clickable: true, bounds: [832, 1873, 1004, 2068] });
    expect(node(tree, 'n10')).toMatchObject({ text: 'Chrome', desc: 'Chrome', bounds: [580, 1873, 753, 2068] });
    expect(node(tree, 'n14')).toMatchObject({ desc: 'Voice search', clickable: true, focusable: false });
    expect(ids(tree, (n) => n.scrollable)).toEqual(['n1']);
  });

  it('quick-settings-zh.xml: Chinese tiles are switches with text 开启/关闭 and a description', () => {
    const tree = screen('quick-settings-zh.xml');
    expect(flatten(tree.nodes).filter((n) => n.class === 'android.widget.Switch').map((n) => [n.id, n.text, n.desc, n.checked])).toEqual([
      ['n15', '开启', '互联网,zxgj_5G', true],
      ['n24', '关闭', '蓝牙。', false],
      ['n30', '关闭', '热点', false],
      ['n36', '开启', '飞行模式', true],
      ['n50', '关闭', '位置信息', false],
      ['n56', '关闭', '省电模式', false],
    ]);
    expect(node(tree, 'n24')).toMatchObject({ clickable: true, longClickable: true, checkable: true, bounds: [163, 88, 305, 156], childIds: ['n25', 'n27'] });
    expect(node(tree, 'n28')).toMatchObject({ text: '蓝牙', selected: true });
    expect(node(tree, 'n12')).toMatchObject({ class: 'android.widget.SeekBar', text: '屏幕亮度' });
  });

  it('pharmacy-home-ar.xml: Arabic labels laid out right to left, icon-font glyphs, two identical buttons', () => {
    const tree = screen('pharmacy-home-ar.xml');
    expect(node(tree, 'n28')).toMatchObject({ class: 'android.widget.Button', desc: 'السلة', clickable: true, bounds: [51, 162, 191, 302] });
    expect(node(tree, 'n29').text).toBe('\uf161');
    expect(node(tree, 'n34').text).toBe('مرحباً، Mazen 👋');
    expect(ids(tree, (n) => n.desc === 'Add to cart')).toEqual(['n58', 'n70']);
    // The first tab (home) sits at the right edge.
    expect(node(tree, 'n93')).toMatchObject({ desc: 'الرئيسية', selected: true, bounds: [856, 2030, 1067, 2156] });
  });

  it('samsung-app-drawer.xml and samsung-open-with-chooser.xml: One UI launcher icons, disabled dialog buttons, repeated app names', () => {
    const drawer = screen('samsung-app-drawer.xml');
    expect(node(drawer, 'n29')).toMatchObject({ text: 'Camera', desc: 'Camera', resourceId: 'com.sec.android.app.launcher:id/apps_icon', clickable: true, longClickable: true, bounds: [291, 1783, 537, 2150] });
    expect(ids(drawer, (n) => n.desc.startsWith('Page ')).length).toBe(12);
    const chooser = screen('samsung-open-with-chooser.xml');
    expect(ids(chooser, (n) => !n.enabled)).toEqual(['n65', 'n67']);
    expect(node(chooser, 'n67')).toMatchObject({ class: 'android.widget.Button', text: 'Always', desc: 'Always use selected app', clickable: true, enabled: false });
    expect(ids(chooser, (n) => n.text === 'Messages')).toEqual(['n17', 'n21']);
    expect(node(chooser, 'n22')).toMatchObject({ clickable: true, longClickable: true, bounds: [539, 1374, 786, 1705], childIds: ['n23', 'n24'] });
  });
});

/** A `uiautomator dump` as Android writes it: one line, `<node>` elements, two windows, landscape. */
const UIAUTOMATOR_DUMP =
  "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>" +
  '<hierarchy rotation="1">' +
  '<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.example.chat" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][2400,1080]">' +
  '<node index="0" text="Tom &amp; Jerry&#10;&lt;online&gt; &#x1F44B;" resource-id="com.example.chat:id/title" class="android.widget.TextView" package="com.example.chat" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][2400,120]" />' +
  '<node index="1" text="" resource-id="com.example.chat:id/messages" class="androidx.recyclerview.widget.RecyclerView" package="com.example.chat" content-desc="Messages" checkable="false" checked="false" clickable="false" enabled="true" focusable="true" focused="false" scrollable="true" long-clickable="false" password="false" selected="false" bounds="[0,120][2400,900]" />' +
  '<node index="2" text="Message" resource-id="com.example.chat:id/compose" class="android.widget.EditText" package="com.example.chat" content-desc="" checkable="false" checked="false" clickable="true" enabled="true" focusable="true" focused="true" scrollable="false" long-clickable="true" password="false" selected="false" bounds="[0,900][2100,1080]" />' +
  '<node index="3" text="••••••" resource-id="com.example.chat:id/pin" class="android.widget.EditText" package="com.example.chat" content-desc="PIN" checkable="false" checked="false" clickable="true" enabled="false" focusable="true" focused="false" scrollable="false" long-clickable="false" password="true" selected="false" bounds="[2100,900][2250,1080]" />' +
  '<node NAF="true" index="4" text="" resource-id="" class="android.widget.CheckBox" package="com.example.chat" content-desc="" checkable="true" checked="true" clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[2250,900][2400,1080]" />' +
  '</node>' +
  '<node index="1" text="" resource-id="" class="android.widget.FrameLayout" package="com.android.systemui" content-desc="" checkable="false" checked="false" clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[2280,0][2400,1080]" />' +
  '</hierarchy>';

describe('parseUiHierarchyXml on a plain uiautomator dump (<node> format)', () => {
  const tree = parseUiHierarchyXml(UIAUTOMATOR_DUMP);

  it('takes the screen from the root nodes and the rotation from <hierarchy>', () => {
    expect(tree.screen).toEqual({ width: 2400, height: 1080, rotation: 1 });
  });

  it('keeps one root per window, in order', () => {
    expect(tree.nodes.map((n) => [n.id, n.package])).toEqual([
      ['n0', 'com.example.chat'],
      ['n6', 'com.android.systemui'],
    ]);
    expect(tree.nodes[0]?.children.map((n) => n.id)).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
  });

  it('maps every attribute and decodes entities and character references', () => {
    expect(tree.nodes[0]?.children).toEqual([
      { ...PLAIN, id: 'n1', class: 'android.widget.TextView', text: 'Tom & Jerry\n<online> 👋', desc: '', resourceId: 'com.example.chat:id/title', package: 'com.example.chat', bounds: [0, 0, 2400, 120], children: [] },
      { ...PLAIN, id: 'n2', class: 'androidx.recyclerview.widget.RecyclerView', text: '', desc: 'Messages', resourceId: 'com.example.chat:id/messages', package: 'com.example.chat', bounds: [0, 120, 2400, 900], focusable: true, scrollable: true, children: [] },
      {
        ...PLAIN,
        id: 'n3',
        class: 'android.widget.EditText',
        text: 'Message',
        desc: '',
        resourceId: 'com.example.chat:id/compose',
        package: 'com.example.chat',
        bounds: [0, 900, 2100, 1080],
        clickable: true,
        longClickable: true,
        focusable: true,
        focused: true,
        editable: true,
        children: [],
      },
      {
        ...PLAIN,
        id: 'n4',
        class: 'android.widget.EditText',
        text: '',
        desc: 'PIN',
        resourceId: 'com.example.chat:id/pin',
        package: 'com.example.chat',
        bounds: [2100, 900, 2250, 1080],
        clickable: true,
        enabled: false,
        focusable: true,
        password: true,
        editable: true,
        children: [],
      },
      { ...PLAIN, id: 'n5', class: 'android.widget.CheckBox', text: '', desc: '', resourceId: '', package: 'com.example.chat', bounds: [2250, 900, 2400, 1080], clickable: true, focusable: true, checkable: true, checked: true, children: [] },
    ]);
  });
});

describe('parseUiHierarchyXml details', () => {
  const wrap = (nodes: string, hierarchy = 'rotation="0" width="100" height="200"') => `<hierarchy ${hierarchy}>${nodes}</hierarchy>`;

  it('reads a field\'s hint where the dump has one (Appium\'s hint attribute), and leaves it out otherwise', () => {
    const parsed = parseUiHierarchyXml(
      wrap('<android.widget.EditText index="0" class="android.widget.EditText" text="" hint="Search &amp; type" bounds="[0,0][100,50]"/><android.widget.EditText index="1" class="android.widget.EditText" text="x" hint="" bounds="[0,50][100,100]"/>'),
    );
    expect(parsed.nodes.map((n) => [n.id, n.hint])).toEqual([
      ['n0', 'Search & type'],
      ['n1', undefined],
    ]);
    expect(Object.hasOwn(parsed.nodes[1] as object, 'hint')).toBe(false);
  });

  it('accepts a byte-order mark, surrounding whitespace and comments', () => {
    const tree = parseUiHierarchyXml(`\uFEFF\n  <?xml version="1.0" encoding="UTF-8"?>\n<!-- dumped -->\n${wrap('<node bounds="[0,0][100,200]"/>')}\n`);
    expect(tree).toEqual({ screen: { width: 100, height: 200, rotation: 0 }, nodes: [{ ...PLAIN, id: 'n0', class: '', text: '', desc: '', resourceId: '', package: '', bounds: [0, 0, 100, 200], children: [] }] });
  });

  it('uses the tag as class when an Appium element has no class attribute', () => {
    const tree = parseUiHierarchyXml(wrap('<android.widget.Button text="OK" bounds="[0,0][50,50]"/>'));
    expect(tree.nodes[0]).toMatchObject({ class: 'android.widget.Button', text: 'OK' });
  });

  it('prefers an editable attribute over the class name', () => {
    const tree = parseUiHierarchyXml(
      wrap('<node class="android.view.View" editable="true" bounds="[0,0][1,1]"/><node class="android.widget.EditText" editable="false" bounds="[0,0][1,1]"/><node class="com.google.android.material.textfield.TextInputEditText" bounds="[0,0][1,1]"/>'),
    );
    expect(tree.nodes.map((n) => n.editable)).toEqual([true, false, true]);
  });

  it('treats an absent enabled as true and other absent flags as false', () => {
    const [n] = parseUiHierarchyXml(wrap('<node bounds="[0,0][1,1]"/>')).nodes;
    expect(n).toMatchObject(PLAIN);
  });

  it('reads negative bounds (views scrolled partly off screen)', () => {
    expect(parseUiHierarchyXml(wrap('<node bounds="[-40,-10][60,90]"/>')).nodes[0]?.bounds).toEqual([-40, -10, 60, 90]);
  });

  it('accepts an empty hierarchy when its size is given', () => {
    expect(parseUiHierarchyXml(wrap(''))).toEqual({ screen: { width: 100, height: 200, rotation: 0 }, nodes: [] });
  });

  it('accepts nesting up to the depth limit without recursion', () => {
    const depth = UI_HIERARCHY_MAX_DEPTH;
    const xml = wrap('<node bounds="[0,0][1,1]">'.repeat(depth) + '</node>'.repeat(depth));
    let n = parseUiHierarchyXml(xml).nodes[0];
    let levels = 0;
    while (n) {
      levels++;
      n = n.children[0];
    }
    expect(levels).toBe(depth);
  });

  it('normalises literal tabs and newlines in attribute values to spaces, as XML does', () => {
    expect(parseUiHierarchyXml(wrap('<node text="a\tb\nc&#10;d" bounds="[0,0][1,1]"/>')).nodes[0]?.text).toBe('a b c\nd');
  });

  it('does not expand DTD entities', () => {
    const err = parseError(`<!DOCTYPE hierarchy [<!ENTITY boom "expanded">]>${wrap('<node text="&boom;" bounds="[0,0][1,1]"/>')}`);
    expect(err.message).toMatch(/unknown entity reference &boom; in attribute text of node n0/);
  });
});

describe('parseUiHierarchyXml refuses what it cannot read', () => {
  const cases: [string, string, RegExp][] = [
    ['an empty string', '', /UI hierarchy is empty/],
    ['whitespace and a BOM only', '\uFEFF  \n', /UI hierarchy is empty/],
    ['plain text', 'UI hierchary dumped to: /dev/tty', /not well-formed XML: .*line 1/],
    ['JSON', '{"nodes":[]}', /not well-formed XML/],
    ['an unclosed element', '<hierarchy><node bounds="[0,0][1,1]">', /not well-formed XML/],
    ['mismatched tags', '<hierarchy><node bounds="[0,0][1,1]"></nodes></hierarchy>', /not well-formed XML: Expected closing tag 'node'/],
    ['another root element', '<html><body/></html>', /root must be <hierarchy>, found <html>/],
    ['two root elements', '<hierarchy width="1" height="1"/><hierarchy width="1" height="1"/>', /exactly one root element, found 2/],
    ['malformed bounds', '<hierarchy><node class="android.widget.Button" bounds="[0,0][10]"/></hierarchy>', /node n0 <android.widget.Button>: bounds="\[0,0\]\[10\]" is not of the form \[left,top\]\[right,bottom\]/],
    ['non-numeric bounds', '<hierarchy><node bounds="[a,b][c,d]"/></hierarchy>', /node n0 <node>: bounds="\[a,b\]\[c,d\]"/],
    ['a malformed boolean', '<hierarchy><node checked="yes" bounds="[0,0][1,1]"/></hierarchy>', /node n0 <node>: checked="yes" is not "true" or "false"/],
    ['a malformed rotation', '<hierarchy rotation="90"><node bounds="[0,0][1,1]"/></hierarchy>', /rotation="90" is not 0, 1, 2 or 3/],
    ['a malformed width', '<hierarchy width="wide" height="10"/>', /width="wide" is not a positive integer/],
    ['no nodes and no size', '<hierarchy rotation="0"></hierarchy>', /no nodes and no width\/height/],
    ['a bare ampersand', '<hierarchy><node text="Tom & Jerry" bounds="[0,0][1,1]"/></hierarchy>', /unescaped "&" in attribute text of node n0/],
    ['an HTML entity', '<hierarchy><node text="a&nbsp;b" bounds="[0,0][1,1]"/></hierarchy>', /unknown entity reference &nbsp; in attribute text of node n0/],
    ['a reference to a non-character', '<hierarchy><node text="&#0;" bounds="[0,0][1,1]"/></hierarchy>', /character reference &#0; is not an XML character/],
  ];

  it.each(cases)('%s', (_name, input, message) => {
    const err = parseError(input);
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('UiHierarchyParseError');
    expect(err.code).toBe('INVALID_UI_HIERARCHY');
    expect(err.message).toMatch(message);
  });

  it('a non-string input', () => {
    expect(parseError(undefined as unknown as string).message).toBe('UI hierarchy must be a string, got undefined');
  });

  it('nesting one level deeper than the limit', () => {
    const depth = UI_HIERARCHY_MAX_DEPTH + 1;
    const err = parseError(`<hierarchy width="1" height="1">${'<node bounds="[0,0][1,1]">'.repeat(depth)}${'</node>'.repeat(depth)}</hierarchy>`);
    expect(err.message).toBe(`UI hierarchy is nested deeper than ${UI_HIERARCHY_MAX_DEPTH} levels`);
  });

  it('a self-closing node one level deeper than the limit', () => {
    const depth = UI_HIERARCHY_MAX_DEPTH;
    const err = parseError(`<hierarchy width="1" height="1">${'<node bounds="[0,0][1,1]">'.repeat(depth)}<node bounds="[0,0][1,1]"/>${'</node>'.repeat(depth)}</hierarchy>`);
    expect(err.message).toBe(`UI hierarchy is nested deeper than ${UI_HIERARCHY_MAX_DEPTH} levels`);
  });

  it('a huge depth, without exhausting the stack', () => {
    const depth = 200_000;
    const err = parseError(`<hierarchy>${'<node>'.repeat(depth)}${'</node>'.repeat(depth)}</hierarchy>`);
    expect(err.message).toBe(`UI hierarchy is nested deeper than ${UI_HIERARCHY_MAX_DEPTH} levels`);
  });
});
