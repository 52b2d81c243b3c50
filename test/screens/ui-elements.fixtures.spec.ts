/**
 * The compact element list planners read ({@link toUiElements}), checked with exact values on the
 * real recorded Android screens in test/fixtures/screens, imported by the protocol's XML importer.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { formatUiElement, toUiElements, type UiElement, type UiLabelSource } from '@mobileclaw/domain';
import { parseUiHierarchyXml } from '@mobileclaw/ui-hierarchy';

const SCREENS = path.resolve(__dirname, '../fixtures/screens');

function elements(file: string): UiElement[] {
  return toUiElements(parseUiHierarchyXml(readFileSync(path.join(SCREENS, file), 'utf8')).nodes);
}

function byNode(list: UiElement[], nodeId: string): UiElement | undefined {
  return list.find((e) => e.nodeId === nodeId);
}

const WIFI = 'Wi\u2011Fi'; // the recorded text uses U+2011 NON-BREAKING HYPHEN
const ALARM_0830 = '8:30\u200aAM'; // the recorded times use U+200A HAIR SPACE
const ALARM_0900 = '9:00\u200aAM';

describe('toUiElements on settings-network-internet-wifi.xml', () => {
  const list = elements('settings-network-internet-wifi.xml');

  it('lists exactly the actionable and readable elements, rows labelled by their texts', () => {
    expect(list).toEqual([
      { index: 0, nodeId: 'n5', type: 'ImageButton', bounds: [0, 66, 154, 220], center: [77, 143], desc: 'Navigate up', label: 'Navigate up', labelSource: 'desc', clickable: true },
      { index: 1, nodeId: 'n6', type: 'TextView', bounds: [198, 106, 651, 180], center: [424, 143], text: 'Network & internet' },
      { index: 2, nodeId: 'n8', type: 'TextView', bounds: [948, 77, 1080, 209], center: [1014, 143], desc: 'Search settings', label: 'Search settings', labelSource: 'desc', clickable: true },
      { index: 3, nodeId: 'n15', type: 'LinearLayout', bounds: [0, 220, 1080, 420], center: [540, 320], text: `${WIFI} · AndroidWifi / No internet`, label: WIFI, labelSource: 'text', clickable: true },
      { index: 4, nodeId: 'n24', type: 'LinearLayout', bounds: [860, 220, 1080, 420], center: [970, 320], resourceId: 'android:id/widget_frame', label: WIFI, labelSource: 'row', clickable: true },
      {
        index: 5,
        nodeId: 'n25',
        type: 'Switch',
        bounds: [860, 220, 1080, 420],
        center: [970, 320],
        text: 'ON',
        desc: WIFI,
        label: WIFI,
        labelSource: 'desc',
        resourceId: 'com.android.settings:id/switchWidget',
        checkable: true,
        checked: true,
      },
      { index: 6, nodeId: 'n26', type: 'LinearLayout', bounds: [0, 420, 1080, 620], center: [540, 520], text: 'Mobile network · T-Mobile', label: 'Mobile network', labelSource: 'text', clickable: true },
      { index: 7, nodeId: 'n33', type: 'LinearLayout', bounds: [0, 620, 1080, 767], center: [540, 693], text: 'Airplane mode', label: 'Airplane mode', labelSource: 'text', clickable: true },
      {
        index: 8,
        nodeId: 'n39',
        type: 'Switch',
        bounds: [908, 656, 1036, 730],
        center: [972, 693],
        text: 'OFF',
        label: 'Airplane mode',
        labelSource: 'row',
        resourceId: 'android:id/switch_widget',
        checkable: true,
        checked: false,
      },
      { index: 9, nodeId: 'n40', type: 'LinearLayout', bounds: [0, 767, 1080, 914], center: [540, 840], text: 'Mobile plan', label: 'Mobile plan', labelSource: 'text', clickable: true },
      { index: 10, nodeId: 'n44', type: 'LinearLayout', bounds: [0, 914, 1080, 1114], center: [540, 1014], text: 'Data Saver · Off', label: 'Data Saver', labelSource: 'text', clickable: true },
      { index: 11, nodeId: 'n50', type: 'LinearLayout', bounds: [0, 1114, 1080, 1308], center: [540, 1211], text: 'Advanced · VPN, Private DNS', label: 'Advanced', labelSource: 'text', clickable: true },
    ]);
  });

  it('finds the Wi‑Fi switch by its label: on, with its bounds and centre', () => {
    const switches = list.filter((e) => e.type === 'Switch' && e.label === WIFI);
    expect(switches.map((e) => [e.checked, e.bounds, e.center])).toEqual([[true, [860, 220, 1080, 420], [970, 320]]]);
    expect(formatUiElement(switches[0] as UiElement)).toBe(`[5] Switch "ON" desc="${WIFI}" id=com.android.settings:id/switchWidget checked (860,220,1080,420)`);
  });

  it('lists the Airplane mode switch with the title of its row as its label', () => {
    expect(formatUiElement(byNode(list, 'n39') as UiElement)).toBe('[8] Switch "OFF" id=android:id/switch_widget unchecked label="Airplane mode" (row) (908,656,1036,730)');
  });

  it('has no scrollable container on this recording', () => {
    expect(list.filter((e) => e.scrollable)).toEqual([]);
  });
});

describe('toUiElements on settings-top.xml', () => {
  const list = elements('settings-top.xml');

  it('makes the Network & internet row one clickable element with the row’s bounds and centre', () => {
    const rows = list.filter((e) => e.text?.includes('Network & internet'));
    expect(rows).toEqual([
      {
        index: 4,
        nodeId: 'n26',
        type: 'LinearLayout',
        bounds: [0, 397, 1080, 597],
        center: [540, 497],
        text: `Network & internet · ${WIFI}, mobile, data usage, and hotspot`,
        label: 'Network & internet',
        labelSource: 'text',
        clickable: true,
      },
    ]);
  });

  it('lists the search bar, the avatar, the scroll container, the card and one element per category row', () => {
    expect(list).toHaveLength(13);
    expect(list.slice(0, 4)).toEqual([
      {
        index: 0,
        nodeId: 'n7',
        type: 'ViewGroup',
        bounds: [22, 88, 1058, 220],
        center: [540, 154],
        text: 'Search settings',
        label: 'Search settings',
        labelSource: 'text',
        resourceId: 'com.android.settings:id/search_action_bar',
        clickable: true,
      },
      {
        index: 1,
        nodeId: 'n10',
        type: 'ImageView',
        bounds: [926, 88, 1058, 220],
        center: [992, 154],
        desc: 'Profile picture, double tap to open Google Account',
        label: 'Profile picture, double tap to open Google Account',
        labelSource: 'desc',
        resourceId: 'com.android.settings:id/account_avatar',
        clickable: true,
      },
      { index: 2, nodeId: 'n11', type: 'ScrollView', bounds: [0, 66, 1080, 2088], center: [540, 1077], resourceId: 'com.android.settings:id/main_content_scrollable_container', scrollable: true },
      { index: 3, nodeId: 'n16', type: 'MaterialCardView', bounds: [22, 242, 1058, 375], center: [540, 308], desc: 'Show', label: 'Show', labelSource: 'desc', clickable: true },
    ]);
    expect(list.slice(4).map((e) => [e.text, e.center])).toEqual([
      [`Network & internet · ${WIFI}, mobile, data usage, and hotspot`, [540, 497]],
      ['Connected devices · Bluetooth, driving mode, NFC', [540, 697]],
      ['Apps & notifications · Assistant, recent apps, default apps', [540, 897]],
      ['Battery · 100%', [540, 1097]],
      ['Display · Styles, wallpapers, screen timeout, font size', [540, 1297]],
      ['Sound · Volume, vibration, Do Not Disturb', [540, 1497]],
      ['Storage · 37% used - 40.53 GB free', [540, 1697]],
      ['Privacy · Permissions, account activity, personal data', [540, 1897]],
      ['Location', [540, 2042]],
    ]);
    expect(list.slice(4).every((e) => e.clickable === true && e.type === 'LinearLayout')).toBe(true);
  });
});

describe('toUiElements on signup-form-textfields.xml', () => {
  const list = elements('signup-form-textfields.xml');

  it('marks the two password fields and gives them no text', () => {
    expect(list.filter((e) => e.password)).toEqual([
      {
        index: 8,
        nodeId: 'n32',
        type: 'EditText',
        bounds: [44, 627, 1036, 768],
        center: [540, 697],
        label: 'Password',
        labelSource: 'preceding',
        resourceId: 'jp.co.app.android:id/textInputEditText',
        clickable: true,
        longClickable: true,
        editable: true,
        password: true,
      },
      {
        index: 12,
        nodeId: 'n44',
        type: 'EditText',
        bounds: [44, 902, 1036, 1043],
        center: [540, 972],
        label: 'Confirm Password',
        labelSource: 'preceding',
        resourceId: 'jp.co.app.android:id/textInputEditText',
        clickable: true,
        longClickable: true,
        editable: true,
        password: true,
      },
    ]);
    expect(formatUiElement(list[8] as UiElement)).toBe(
      '[8] EditText id=jp.co.app.android:id/textInputEditText clickable long-clickable editable password label="Password" (preceding) (44,627,1036,768)',
    );
    expect(JSON.stringify(list)).not.toContain('password1');
  });

  it('keeps each field label as its own element (the scroll container does not swallow them)', () => {
    expect(list).toHaveLength(18);
    expect(list.filter((e) => e.type === 'TextView' || e.type === 'EditText').map((e) => [e.index, e.type, e.text ?? null])).toEqual([
      [1, 'TextView', 'Text2'],
      [3, 'TextView', 'Mail Address'],
      [4, 'TextView', '(Mandatory)'],
      [5, 'EditText', 'hoge@example.com'],
      [6, 'TextView', 'Password'],
      [7, 'TextView', '(Mandatory)'],
      [8, 'EditText', null],
      [10, 'TextView', 'Confirm Password'],
      [11, 'TextView', '(Mandatory)'],
      [12, 'EditText', null],
      [14, 'TextView', 'Full Name'],
      [15, 'TextView', '(Mandatory)'],
      [16, 'EditText', 'First Name'],
      [17, 'EditText', 'Last Name'],
    ]);
    expect(byNode(list, 'n25')).toEqual({ index: 6, nodeId: 'n25', type: 'TextView', bounds: [44, 561, 209, 605], center: [126, 583], text: 'Password', resourceId: 'jp.co.app.android:id/labelPassword' });
  });

  it('marks the scroll container, the show-password toggles, and skips nodes recorded without bounds', () => {
    expect(list.filter((e) => e.scrollable)).toEqual([{ index: 2, nodeId: 'n13', type: 'ScrollView', bounds: [0, 220, 1080, 2088], center: [540, 1154], scrollable: true }]);
    expect(list.filter((e) => e.desc === 'Show password').map((e) => [e.nodeId, e.checkable, e.checked, e.center])).toEqual([
      ['n35', true, false, [970, 697]],
      ['n47', true, false, [970, 972]],
    ]);
    expect(list.map((e) => e.nodeId)).not.toEqual(expect.arrayContaining(['n10']));
    expect(list.some((e) => e.text === 'Image3' || e.text === 'Dummy Image' || e.text === 'Dummy Image B')).toBe(false);
  });
});

describe('toUiElements on settings-security-list.xml', () => {
  const list = elements('settings-security-list.xml');

  it('marks the list scrollable and keeps section headers as their own elements', () => {
    expect(list).toHaveLength(17);
    expect(list.filter((e) => e.scrollable)).toEqual([
      { index: 4, nodeId: 'n15', type: 'RecyclerView', bounds: [0, 220, 1080, 2088], center: [540, 1154], resourceId: 'com.android.settings:id/recycler_view', scrollable: true },
    ]);
    expect(list.filter((e) => !e.clickable && !e.scrollable).map((e) => e.text)).toEqual(['Security', 'SECURITY STATUS', 'DEVICE SECURITY']);
  });

  it('labels rows by title and summary, and keeps the row’s separate settings button', () => {
    expect(byNode(list, 'n46')).toEqual({ index: 11, nodeId: 'n46', type: 'LinearLayout', bounds: [0, 1278, 1080, 1478], center: [540, 1378], text: 'Screen lock · Password', label: 'Screen lock', labelSource: 'text', clickable: true });
    expect(byNode(list, 'n54')).toEqual({
      index: 12,
      nodeId: 'n54',
      type: 'ImageView',
      bounds: [904, 1278, 1080, 1478],
      center: [992, 1378],
      desc: 'Settings',
      label: 'Settings',
      labelSource: 'desc',
      resourceId: 'com.android.settings:id/settings_button',
      clickable: true,
    });
    expect(byNode(list, 'n9')).toEqual({ index: 3, nodeId: 'n9', type: 'TextView', bounds: [948, 77, 1080, 209], center: [1014, 143], desc: 'Help & feedback', label: 'Help & feedback', labelSource: 'desc', clickable: true });
    expect(byNode(list, 'n67')?.text).toBe('Encryption & credentials');
  });
});

describe('toUiElements on playstore-games-scroll.xml', () => {
  const list = elements('playstore-games-scroll.xml');

  it('marks all five scrollable containers', () => {
    expect(list).toHaveLength(26);
    expect(list.filter((e) => e.scrollable).map((e) => [e.index, e.nodeId, e.type, e.bounds])).toEqual([
      [0, 'n14', 'HorizontalScrollView', [0, 220, 1080, 352]],
      [5, 'n20', 'ViewPager', [0, 66, 1080, 1931]],
      [6, 'n23', 'RecyclerView', [0, 66, 1080, 1931]],
      [7, 'n25', 'RecyclerView', [0, 396, 1080, 761]],
      [13, 'n37', 'RecyclerView', [0, 956, 1080, 1501]],
    ]);
  });

  it('labels app cards from their descriptions and keeps a described button’s own label', () => {
    expect(byNode(list, 'n39')).toEqual({
      index: 14,
      nodeId: 'n39',
      type: 'ViewGroup',
      bounds: [50, 956, 702, 1501],
      center: [376, 1228],
      text: 'App: Gardenscapes\nCasual\nPuzzle\nStar rating: 4.3',
      label: 'App: Gardenscapes',
      labelSource: 'text',
      resourceId: 'com.android.vending:id/play_card',
      clickable: true,
      longClickable: true,
    });
    expect(byNode(list, 'n84')).toEqual({
      index: 21,
      nodeId: 'n84',
      type: 'FrameLayout',
      bounds: [66, 77, 220, 209],
      center: [143, 143],
      desc: 'Show navigation drawer',
      label: 'Show navigation drawer',
      labelSource: 'desc',
      resourceId: 'com.android.vending:id/0_resource_name_obfuscated',
      clickable: true,
    });
    expect(byNode(list, 'n86')?.desc).toBe('Show navigation drawer. New notifications available.');
  });

  it('lists the tabs and the bottom navigation with their selection', () => {
    expect(list.filter((e) => e.clickable && ['For you', 'Top charts', 'New', 'Events', 'Games', 'Apps', 'Books', 'Movies & TV'].includes(e.text ?? '')).map((e) => [e.text, e.selected ?? false, e.center])).toEqual([
      ['For you', true, [204, 286]],
      ['Top charts', false, [508, 286]],
      ['New', false, [783, 286]],
      ['Events', false, [985, 286]],
      ['Games', true, [135, 2011]],
      ['Apps', false, [405, 2011]],
      ['Books', false, [675, 2011]],
      ['Movies & TV', false, [945, 2011]],
    ]);
  });
});

describe('toUiElements on settings-languages.xml', () => {
  const list = elements('settings-languages.xml');

  it('lists the languages, their numbers and the add button; a description equal to the text is not repeated', () => {
    expect(list).toHaveLength(8);
    expect(list.slice(3)).toEqual([
      { index: 3, nodeId: 'n20', type: 'TextView', bounds: [66, 628, 904, 826], center: [485, 727], text: 'English (United States)', resourceId: 'com.android.settings:id/label' },
      { index: 4, nodeId: 'n21', type: 'TextView', bounds: [66, 628, 132, 826], center: [99, 727], text: '1', resourceId: 'com.android.settings:id/miniLabel' },
      { index: 5, nodeId: 'n25', type: 'TextView', bounds: [66, 826, 904, 1024], center: [485, 925], text: '日本語 (日本)', desc: 'Japanese (Japan)', resourceId: 'com.android.settings:id/label' },
      { index: 6, nodeId: 'n26', type: 'TextView', bounds: [66, 826, 132, 1024], center: [99, 925], text: '2', resourceId: 'com.android.settings:id/miniLabel' },
      {
        index: 7,
        nodeId: 'n28',
        type: 'Button',
        bounds: [0, 1024, 1080, 1222],
        center: [540, 1123],
        text: 'Add a language',
        label: 'Add a language',
        labelSource: 'text',
        resourceId: 'com.android.settings:id/add_language',
        clickable: true,
      },
    ]);
    expect(byNode(list, 'n10')).toEqual({ index: 2, nodeId: 'n10', type: 'ImageButton', bounds: [969, 147, 1080, 279], center: [1024, 213], desc: 'More options', label: 'More options', labelSource: 'desc', clickable: true, longClickable: true });
    expect(list.filter((e) => e.scrollable)).toEqual([]);
  });
});

describe('toUiElements on settings-connected-devices-bluetooth.xml', () => {
  const list = elements('settings-connected-devices-bluetooth.xml');

  it('lists the header, the two connection rows and the scrollable list', () => {
    expect(list).toHaveLength(8);
    expect(list.slice(3, 7)).toEqual([
      { index: 3, nodeId: 'n14', type: 'RecyclerView', bounds: [0, 220, 1080, 2088], center: [540, 1154], resourceId: 'com.android.settings:id/recycler_view', scrollable: true },
      { index: 4, nodeId: 'n17', type: 'TextView', bounds: [198, 286, 1036, 327], center: [617, 306], text: 'CURRENTLY CONNECTED', resourceId: 'android:id/title' },
      { index: 5, nodeId: 'n18', type: 'LinearLayout', bounds: [0, 349, 1080, 549], center: [540, 449], text: 'USB · Charging this device', label: 'USB', labelSource: 'text', clickable: true },
      { index: 6, nodeId: 'n24', type: 'LinearLayout', bounds: [0, 549, 1080, 749], center: [540, 649], text: 'Connection preferences · Bluetooth', label: 'Connection preferences', labelSource: 'text', clickable: true },
    ]);
  });
});

/**
 * An element the user acts on that may carry no text of its own: a switch, checkbox or other checkable,
 * a field, a tappable image button or image view, or any other tap target without text.
 */
function needsLabel(e: UiElement): boolean {
  if (e.checkable || e.editable) return true;
  return !!(e.clickable || e.longClickable) && (/^Image(Button|View)$/.test(e.type) || e.text === undefined);
}

/**
 * Per recorded screen (file name in test/fixtures/screens), every element {@link needsLabel} picks, by
 * node id: its type, and its expected label and source, or `null` where nothing on the screen names it
 * (the reason beside it). Adding a recording: add its file and one entry here.
 */
const EXPECTED_LABELS: Record<string, Record<string, [type: string, label: string, source: UiLabelSource] | [type: string, null]>> = {
  'clock-alarm-list.xml': {
    n11: ['ImageView', 'More options', 'desc'],
    // Each alarm card is described only "Alarm"; its switch is the switch of the alarm its time names.
    n18: ['CardView', 'Alarm', 'desc'],
    n21: ['ImageButton', 'Expand alarm', 'desc'],
    n24: ['Switch', ALARM_0830, 'card'],
    n25: ['CardView', 'Alarm', 'desc'],
    n28: ['ImageButton', 'Expand alarm', 'desc'],
    n31: ['Switch', ALARM_0900, 'card'],
    n33: ['Button', 'Add alarm', 'desc'],
    n42: ['FrameLayout', 'Clock', 'desc'],
    n47: ['FrameLayout', 'Timer', 'desc'],
    n52: ['FrameLayout', 'Stopwatch', 'desc'],
    n57: ['FrameLayout', 'Bedtime', 'desc'],
  },
  // Its two buttons say "Close app" and "Wait".
  'dialog-app-not-responding.xml': {},
  // Its one button says "GOT IT".
  'gmail-welcome-tour.xml': {},
  'homee-welcome.xml': {
    n43: ['Button', 'Log In', 'desc'],
    n44: ['Button', 'I am new here', 'desc'],
    n47: ['View', 'Terms of Service', 'desc'],
    n49: ['View', 'Privacy Policy', 'desc'],
  },
  'launcher-home-pixel.xml': {
    n12: ['FrameLayout', 'Search', 'desc'],
    n13: ['ImageView', 'Google app', 'desc'],
    n14: ['ImageView', 'Voice search', 'desc'],
    n15: ['ImageButton', 'Google Lens', 'desc'],
  },
  // Right to left; every button draws an icon-font glyph and is named by its description.
  'pharmacy-home-ar.xml': {
    n26: ['Button', 'الإشعارات', 'desc'],
    n28: ['Button', 'السلة', 'desc'],
    n36: ['Button', 'ابحث عن دواء، مستحضر، أو كود…', 'desc'],
    n48: ['Button', 'سيرينجي للبالغين 3 كم', 'desc'],
    n58: ['Button', 'Add to cart', 'desc'],
    n60: ['Button', 'كلوكسيدي 30 كبسولة', 'desc'],
    n70: ['Button', 'Add to cart', 'desc'],
    n72: ['Button', 'عرض الكل', 'desc'],
    n93: ['View', 'الرئيسية', 'desc'],
    n99: ['View', 'أدويتي', 'desc'],
    n104: ['View', 'المتجر', 'desc'],
    n109: ['View', 'طلباتي', 'desc'],
    n114: ['View', 'حسابي', 'desc'],
  },
  'quick-settings-zh.xml': {
    // The dimmed background behind the panel: nothing on screen names it.
    n1: ['View', 'scrim behind', 'resource-id'],
    // Tiles: a description "title,state" or "title。" names the tile by the title its label text shows.
    n15: ['Switch', '互联网', 'desc'],
    n24: ['Switch', '蓝牙', 'desc'],
    n30: ['Switch', '热点', 'desc'],
    n36: ['Switch', '飞行模式', 'desc'],
    n42: ['LinearLayout', '闹钟', 'desc'],
    n50: ['Switch', '位置信息', 'desc'],
    n56: ['Switch', '省电模式', 'desc'],
    n62: ['LinearLayout', '一键冻结', 'desc'],
    n73: ['ImageView', '修改设置顺序', 'desc'],
    // The empty carrier area beside the clock, and the header strip over the clock and status icons: the
    // clock "07:20" and "48%" are values, not captions, so only their ids name them.
    n79: ['LinearLayout', 'carrier group', 'resource-id'],
    n94: ['LinearLayout', 'quick status bar date privacy', 'resource-id'],
    // 3 px of it above the bottom edge; its settings button inside is recorded without an area.
    n98: ['FrameLayout', 'settings button container', 'resource-id'],
    n100: ['ImageView', '电源菜单', 'desc'],
  },
  'samsung-app-drawer.xml': {
    n40: ['ImageButton', 'More options', 'desc'],
  },
  'samsung-open-with-chooser.xml': {
    n7: ['ImageView', 'Information', 'desc'],
    // The app grid: a list (long-clickable, as every AbsListView) takes only a label of its own, and it has none.
    n13: ['GridView', null],
    // The grid's last row, cut off by the screen's bottom edge under the button bar: only the tops of the
    // icons are on screen; the names are recorded without an area.
    n46: ['LinearLayout', null],
    n50: ['LinearLayout', null],
    n54: ['LinearLayout', null],
    n58: ['LinearLayout', null],
  },
  'settings-date-time.xml': {
    n7: ['ImageButton', 'Navigate up', 'desc'],
    n19: ['Switch', 'Set time automatically', 'row'],
    n35: ['Switch', 'Set time zone automatically', 'row'],
    n40: ['Switch', 'Use location to set time zone', 'row'],
    n52: ['Switch', 'Use locale default', 'row'],
  },
  'settings-date-time-ja.xml': {
    n7: ['ImageButton', '上へ移動', 'desc'],
    n19: ['Switch', '日時を自動的に設定', 'row'],
    n35: ['Switch', 'タイムゾーンを自動的に設定', 'row'],
    n40: ['Switch', 'タイムゾーンの設定に位置情報を使用', 'row'],
    // The last row, cut off by the screen's bottom edge: its title is below it; the section header
    // "時刻の表示形式" above it names the section, not the row.
    n48: ['LinearLayout', null],
  },
  'playstore-games-scroll.xml': {
    // The next carousel card, 26 px of it inside the screen's right edge: no text, description or id.
    n32: ['FrameLayout', null],
    n35: ['FrameLayout', 'Discover recommended games', 'desc'],
    n36: ['ImageView', 'More results for Discover recommended games', 'desc'],
    // The search bar's frame: its texts all belong to the controls inside it; its id is obfuscated.
    n82: ['FrameLayout', null],
    n84: ['FrameLayout', 'Show navigation drawer', 'desc'],
    n88: ['ImageView', 'Voice Search', 'desc'],
    // The spoken sentence's final full stop is not part of the name.
    n89: ['FrameLayout', 'Signed in as Foo foo@example.com\nAccount and settings', 'desc'],
  },
  'settings-connected-devices-bluetooth.xml': {
    n5: ['ImageButton', 'Navigate up', 'desc'],
    n8: ['TextView', 'Search settings', 'desc'],
    // The last row, cut off by the screen's bottom edge: only its icon is on screen.
    n28: ['LinearLayout', null],
  },
  'settings-languages.xml': {
    n7: ['ImageButton', 'Navigate up', 'desc'],
    n10: ['ImageButton', 'More options', 'desc'],
  },
  'settings-network-internet-wifi.xml': {
    n5: ['ImageButton', 'Navigate up', 'desc'],
    n8: ['TextView', 'Search settings', 'desc'],
    n24: ['LinearLayout', WIFI, 'row'],
    n25: ['Switch', WIFI, 'desc'],
    n39: ['Switch', 'Airplane mode', 'row'],
  },
  'settings-security-list.xml': {
    n5: ['ImageButton', 'Navigate up', 'desc'],
    n8: ['TextView', 'Search settings', 'desc'],
    n9: ['TextView', 'Help & feedback', 'desc'],
    n54: ['ImageView', 'Settings', 'desc'],
  },
  'settings-top.xml': {
    n10: ['ImageView', 'Profile picture, double tap to open Google Account', 'desc'],
    n16: ['MaterialCardView', 'Show', 'desc'],
  },
  'signup-form-textfields.xml': {
    // The recording's anonymised text "button1" on an image button, which draws no text: its description wins.
    n8: ['ImageButton', 'Navigate up', 'desc'],
    n23: ['EditText', 'Mail Address', 'preceding'],
    n32: ['EditText', 'Password', 'preceding'],
    n35: ['ImageButton', 'Show password', 'desc'],
    n44: ['EditText', 'Confirm Password', 'preceding'],
    n47: ['ImageButton', 'Show password', 'desc'],
    // "Full Name (Mandatory)" captions the first of the two name fields; the second shows its own hint.
    n55: ['EditText', 'Full Name', 'preceding'],
    n61: ['EditText', 'Last Name', 'text'],
  },
};

describe('labels of switches, checkboxes, icon buttons and fields on every recorded screen', () => {
  const files = readdirSync(SCREENS)
    .filter((f) => f.endsWith('.xml'))
    .sort();

  it('has expected labels for every recording', () => {
    expect(Object.keys(EXPECTED_LABELS).sort()).toEqual(files);
  });

  it.each(files)('%s: each such element has exactly the expected label and source', (file) => {
    const actual = Object.fromEntries(elements(file).filter(needsLabel).map((e) => [e.nodeId, e.label === undefined ? [e.type, null] : [e.type, e.label, e.labelSource]]));
    expect(actual).toEqual(EXPECTED_LABELS[file]);
  });

  it.each(files)('%s: every actionable element but a scroll container has a label, unless listed as unnamed above', (file) => {
    const unnamed = Object.entries(EXPECTED_LABELS[file] ?? {})
      .filter(([, expected]) => expected[1] === null)
      .map(([nodeId]) => nodeId);
    const unlabelled = elements(file).filter((e) => (e.clickable || e.longClickable || e.checkable || e.editable) && e.label === undefined);
    expect(unlabelled.map((e) => e.nodeId)).toEqual(unnamed);
  });

  it('labels every toggle on the recorded screens by a name, never by its on/off state', () => {
    const toggles = files.flatMap((file) => elements(file).filter((e) => e.checkable).map((e) => [file, e.nodeId, e.text ?? null, e.label]));
    expect(toggles).toEqual([
      ['clock-alarm-list.xml', 'n24', null, ALARM_0830],
      ['clock-alarm-list.xml', 'n31', null, ALARM_0900],
      ['quick-settings-zh.xml', 'n15', '开启', '互联网'],
      ['quick-settings-zh.xml', 'n24', '关闭', '蓝牙'],
      ['quick-settings-zh.xml', 'n30', '关闭', '热点'],
      ['quick-settings-zh.xml', 'n36', '开启', '飞行模式'],
      ['quick-settings-zh.xml', 'n50', '关闭', '位置信息'],
      ['quick-settings-zh.xml', 'n56', '关闭', '省电模式'],
      ['settings-date-time-ja.xml', 'n19', null, '日時を自動的に設定'],
      ['settings-date-time-ja.xml', 'n35', null, 'タイムゾーンを自動的に設定'],
      ['settings-date-time-ja.xml', 'n40', null, 'タイムゾーンの設定に位置情報を使用'],
      ['settings-date-time.xml', 'n19', null, 'Set time automatically'],
      ['settings-date-time.xml', 'n35', null, 'Set time zone automatically'],
      ['settings-date-time.xml', 'n40', null, 'Use location to set time zone'],
      ['settings-date-time.xml', 'n52', null, 'Use locale default'],
      ['settings-network-internet-wifi.xml', 'n25', 'ON', WIFI],
      ['settings-network-internet-wifi.xml', 'n39', 'OFF', 'Airplane mode'],
      ['signup-form-textfields.xml', 'n35', 'ButtonA', 'Show password'],
      ['signup-form-textfields.xml', 'n47', 'Button Y', 'Show password'],
    ]);
  });
});
