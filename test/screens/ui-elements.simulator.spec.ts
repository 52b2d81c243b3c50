/**
 * Labels in the compact element list ({@link toUiElements}) on every screen of the simulated phone:
 * each switch is named, and no actionable element (scroll containers aside) is left without a label.
 */
import { toUiElements, type UiElement } from '@mobileclaw/domain';
import { PhoneUi, type ShownScreen } from '@mobileclaw/simulator';

function elements(ui: PhoneUi): UiElement[] {
  return toUiElements(ui.uiTree().nodes);
}

function tap(ui: PhoneUi, label: string): void {
  const target = elements(ui).find((e) => e.label === label && e.clickable);
  if (!target) throw new Error(`no clickable element labelled ${label} on ${ui.current.screen}`);
  ui.click(target.center[0], target.center[1]);
}

/** Every simulated screen, reached as a user would: from the launcher, by taps. */
function everyScreen(): { screen: ShownScreen; list: UiElement[] }[] {
  const ui = new PhoneUi();
  const seen = (): { screen: ShownScreen; list: UiElement[] } => ({ screen: ui.current.screen, list: elements(ui) });
  const screens = [seen()];
  tap(ui, 'Settings');
  screens.push(seen());
  ui.home();
  tap(ui, 'Messages');
  screens.push(seen());
  tap(ui, 'Alice');
  screens.push(seen());
  ui.back();
  tap(ui, 'Start chat');
  screens.push(seen());
  ui.home();
  tap(ui, 'Contacts');
  screens.push(seen());
  tap(ui, 'Bob');
  screens.push(seen());
  ui.home();
  tap(ui, 'Browser');
  screens.push(seen());
  return screens;
}

describe('element labels on the simulated phone', () => {
  const screens = everyScreen();

  it('visits every simulated screen', () => {
    expect(screens.map((s) => s.screen)).toEqual(['launcher', 'settings', 'messages', 'conversation', 'new_chat', 'contacts', 'contact', 'browser']);
  });

  it('names every switch, by its description, and its row by the row’s title', () => {
    const toggles = screens.flatMap(({ screen, list }) => list.filter((e) => e.checkable).map((e) => [screen, e.type, e.label, e.labelSource]));
    expect(toggles).toEqual([
      ['settings', 'Switch', 'Wi-Fi', 'desc'],
      ['settings', 'Switch', 'Bluetooth', 'desc'],
    ]);
    const settings = screens.find((s) => s.screen === 'settings')!.list;
    expect(settings.filter((e) => e.type === 'LinearLayout').map((e) => [e.text, e.label, e.labelSource])).toEqual([
      ['Wi-Fi · Off', 'Wi-Fi', 'text'],
      ['Bluetooth · Off', 'Bluetooth', 'text'],
    ]);
  });

  it('labels every actionable element but the scroll containers', () => {
    const unlabelled = screens.flatMap(({ screen, list }) =>
      list.filter((e) => (e.clickable || e.longClickable || e.checkable || e.editable) && e.label === undefined).map((e) => `${screen}: ${e.type} ${e.nodeId}`),
    );
    expect(unlabelled).toEqual([]);
  });

  it('labels each text field, which shows no caption, by its hint', () => {
    const fields = screens.flatMap(({ screen, list }) => list.filter((e) => e.editable).map((e) => [screen, e.label, e.labelSource]));
    expect(fields).toEqual([
      ['conversation', 'Text message', 'hint'],
      ['new_chat', 'Type a name', 'hint'],
      ['browser', 'Search or type web address', 'hint'],
    ]);
  });
});
