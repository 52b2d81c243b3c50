import { SimulatedPhone } from '@mobileclaw/simulator';
import { allOf, browserAt, dataUnchanged, fieldShows, messageSent, screenIs, snapshotPhone, switchesAre, switchIs, unchanged } from './phone-checks';

/** A phone that never connects: the checkers read only its UI state. */
function phone(): SimulatedPhone {
  return new SimulatedPhone({ port: 1, token: 'unused-token-0123456789' });
}

function tap(p: SimulatedPhone, text: string): void {
  const centre = p.ui.centreOf((n) => n.text === text);
  if (!centre) throw new Error(`no ${text}`);
  p.ui.click(centre.x, centre.y);
}

describe('phone checks', () => {
  it('switchIs wants the switch set and every other switch untouched', () => {
    const p = phone();
    const before = snapshotPhone(p);
    expect(switchIs('wifi', true)(p, before)).toBe('Wi-Fi is off, expected on');
    p.ui.state.wifi = true;
    expect(switchIs('wifi', true)(p, before)).toBe(true);
    p.ui.state.bluetooth = true;
    expect(switchIs('wifi', true)(p, before)).toBe('Bluetooth changed from off to on');
    expect(switchesAre({ wifi: true, bluetooth: true })(p, before)).toBe(true);
    expect(switchesAre({ wifi: true })(p, before)).toBe('Bluetooth is on, expected off');
  });

  it('messageSent wants exactly one new message from me, and no other conversation touched', () => {
    const p = phone();
    const before = snapshotPhone(p);
    const check = messageSent('Alice', 'Hello 世界 👋');
    expect(check(p, before)).toBe('conversation with Alice gained [], expected [me: "Hello 世界 👋"]');
    p.ui.state.conversations['Alice']?.push({ from: 'me', text: 'Hello 世界 👋' });
    expect(check(p, before)).toBe(true);
    p.ui.state.conversations['Alice']?.push({ from: 'me', text: 'Hello 世界 👋' });
    expect(check(p, before)).toBe('conversation with Alice gained [me: "Hello 世界 👋", me: "Hello 世界 👋"], expected [me: "Hello 世界 👋"]');
    p.ui.state.conversations['Alice']?.pop();
    p.ui.state.conversations['Nina'] = [{ from: 'me', text: 'oops' }];
    expect(check(p, before)).toBe('the conversation with Nina changed too');
  });

  it('screenIs, fieldShows and browserAt read the screen on top and its nodes', () => {
    const p = phone();
    p.ui.open('com.google.android.apps.messaging');
    tap(p, 'Bob');
    expect(screenIs('conversation', 'Bob')(p, snapshotPhone(p))).toBe(true);
    expect(screenIs('conversation', 'Alice')(p, snapshotPhone(p))).toBe('the phone shows conversation (Bob), expected conversation (Alice)');
    const compose = 'com.google.android.apps.messaging:id/compose_message_text';
    expect(fieldShows(compose, 'hi')(p, snapshotPhone(p))).toBe(`field ${compose} shows "", expected "hi"`);
    const field = p.ui.centreOf((n) => n.resourceId === compose);
    p.ui.click(field?.x ?? 0, field?.y ?? 0);
    p.ui.input('hi');
    expect(fieldShows(compose, 'hi')(p, snapshotPhone(p))).toBe(true);
    expect(fieldShows('com.android.chrome:id/url_bar', 'hi')(p, snapshotPhone(p))).toBe('no field com.android.chrome:id/url_bar is on the screen (conversation (Bob))');
    expect(browserAt('https://example.com')(p, snapshotPhone(p))).toBe('the browser is at "", expected "https://example.com"');
  });

  it('unchanged compares state, screen and back stack; dataUnchanged ignores where the phone is', () => {
    const p = phone();
    const before = snapshotPhone(p);
    expect(unchanged()(p, before)).toBe(true);
    p.ui.open('com.android.settings');
    expect(unchanged()(p, before)).toBe(`the phone's state changed: ${JSON.stringify(before.state)} → ${JSON.stringify(p.ui.state)}`);
    expect(dataUnchanged()(p, before)).toBe(true);
    p.ui.state.browser = { url: 'https://a.example', title: 'a.example' };
    expect(dataUnchanged()(p, before)).toMatch(/^the phone's data changed: /);
    expect(allOf(screenIs('settings'), dataUnchanged())(p, before)).toMatch(/^the phone's data changed: /);
    expect(allOf(screenIs('settings'), switchIs('wifi', false))(p, before)).toBe(true);
  });
});
