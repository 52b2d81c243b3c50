import { findNode, type PhoneState, type ScreenName, type SimulatedPhone } from '@mobileclaw/simulator';

/**
 * Checkers on a simulated phone's final state, for the evaluation suite. A checker answers `true`
 * when the phone is in the expected state, otherwise a short reason saying what it found instead.
 * They read only the phone ({@link SimulatedPhone.ui}), never the planner's own claim.
 */

/** The phone as it was when the goal was set up, before the task started (deep copy). */
export interface PhoneSnapshot {
  state: PhoneState;
  /** Top of the back stack (`param`: conversation or contact name). */
  current: { screen: ScreenName; param?: string };
  backStack: ScreenName[];
}

/** `true` when satisfied, otherwise why not. */
export type CheckResult = true | string;

/** A checker: the phone now, and the phone as it was before the task. */
export type PhoneCheck = (phone: SimulatedPhone, before: PhoneSnapshot) => CheckResult;

/** A switch in the simulated Settings app. */
export type SwitchName = 'wifi' | 'bluetooth';

const SWITCH_LABELS: Record<SwitchName, string> = { wifi: 'Wi-Fi', bluetooth: 'Bluetooth' };
const SWITCHES = Object.keys(SWITCH_LABELS) as SwitchName[];

/** Deep copy of the phone's observable state, screen and back stack. */
export function snapshotPhone(phone: SimulatedPhone): PhoneSnapshot {
  return structuredClone({ state: phone.ui.state, current: phone.ui.current, backStack: phone.ui.backStack });
}

/** Every check must pass; the first failing one gives the reason. */
export function allOf(...checks: PhoneCheck[]): PhoneCheck {
  return (phone, before) => {
    for (const check of checks) {
      const result = check(phone, before);
      if (result !== true) return result;
    }
    return true;
  };
}

function onOff(on: boolean): string {
  return on ? 'on' : 'off';
}

/** The switch is `on`, and every other switch kept its value from before the task. */
export function switchIs(name: SwitchName, on: boolean): PhoneCheck {
  return (phone, before) => {
    const now = phone.ui.state[name];
    if (now !== on) return `${SWITCH_LABELS[name]} is ${onOff(now)}, expected ${onOff(on)}`;
    for (const other of SWITCHES.filter((s) => s !== name)) {
      if (phone.ui.state[other] !== before.state[other])
        return `${SWITCH_LABELS[other]} changed from ${onOff(before.state[other])} to ${onOff(phone.ui.state[other])}`;
    }
    return true;
  };
}

/** Several switches at once (a compound goal): each has its value; the others are unchanged. */
export function switchesAre(expected: Partial<Record<SwitchName, boolean>>): PhoneCheck {
  return (phone, before) => {
    for (const name of SWITCHES) {
      const want = expected[name] ?? before.state[name];
      const now = phone.ui.state[name];
      if (now !== want) return `${SWITCH_LABELS[name]} is ${onOff(now)}, expected ${onOff(want)}`;
    }
    return true;
  };
}

function describeScreen(current: { screen: ScreenName; param?: string }): string {
  return current.param === undefined ? current.screen : `${current.screen} (${current.param})`;
}

/** The screen on top is `screen` (and shows `param`, the conversation or contact name, when given). */
export function screenIs(screen: ScreenName, param?: string): PhoneCheck {
  return (phone) => {
    const current = phone.ui.current;
    const matches = current.screen === screen && (param === undefined || current.param === param);
    return matches ? true : `the phone shows ${describeScreen(current)}, expected ${describeScreen({ screen, ...(param === undefined ? {} : { param }) })}`;
  };
}

/**
 * `text` was sent to `name` exactly once by this task: the conversation is the one from before plus
 * one message from me with exactly that text, and no other conversation changed.
 */
export function messageSent(name: string, text: string): PhoneCheck {
  return (phone, before) => {
    const now = phone.ui.state.conversations;
    const was = before.state.conversations[name] ?? [];
    const expected = [...was, { from: 'me', text }];
    const actual = now[name] ?? [];
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      const added = actual.slice(was.length).map((m) => `${m.from}: ${JSON.stringify(m.text)}`);
      return `conversation with ${name} gained [${added.join(', ')}], expected [me: ${JSON.stringify(text)}]`;
    }
    for (const other of Object.keys({ ...now, ...before.state.conversations })) {
      if (other !== name && JSON.stringify(now[other] ?? []) !== JSON.stringify(before.state.conversations[other] ?? []))
        return `the conversation with ${other} changed too`;
    }
    return true;
  };
}

/** The browser has loaded exactly `url`. */
export function browserAt(url: string): PhoneCheck {
  return (phone) => {
    const loaded = phone.ui.state.browser.url;
    return loaded === url ? true : `the browser is at ${JSON.stringify(loaded)}, expected ${JSON.stringify(url)}`;
  };
}

/** The field with resource id `resourceId` is on screen and shows exactly `text`. */
export function fieldShows(resourceId: string, text: string): PhoneCheck {
  return (phone) => {
    const field = findNode(phone.ui.nodes(), (n) => n.resourceId === resourceId);
    if (!field) return `no field ${resourceId} is on the screen (${describeScreen(phone.ui.current)})`;
    return field.text === text ? true : `field ${resourceId} shows ${JSON.stringify(field.text)}, expected ${JSON.stringify(text)}`;
  };
}

/** Nothing observable changed: state, screen and back stack are as before the task. */
export function unchanged(): PhoneCheck {
  return (phone, before) => {
    const now = snapshotPhone(phone);
    for (const key of ['state', 'current', 'backStack'] as const) {
      if (JSON.stringify(now[key]) !== JSON.stringify(before[key])) return `the phone's ${key} changed: ${JSON.stringify(before[key])} → ${JSON.stringify(now[key])}`;
    }
    return true;
  };
}

/** The phone's data (switches, messages, browser page) is as before; the screen may have moved. */
export function dataUnchanged(): PhoneCheck {
  return (phone, before) => {
    const { screen: _now, ...now } = phone.ui.state;
    const { screen: _was, ...was } = before.state;
    return JSON.stringify(now) === JSON.stringify(was) ? true : `the phone's data changed: ${JSON.stringify(was)} → ${JSON.stringify(now)}`;
  };
}
