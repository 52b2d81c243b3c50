/**
 * The phone's `settings` provider (`settings get|put|delete|list system|secure|global …`). Most keys
 * are stored values; a few read the UI state so that they never disagree with it:
 * `system user_rotation` is the screen's rotation (and writing it rotates the screen, as on a
 * phone with auto-rotate off), `global wifi_on` / `bluetooth_on` are the Settings switches.
 */
import type { PhoneUi, Rotation } from '../phone-ui';

export type SettingsNamespace = 'system' | 'secure' | 'global';

export const SETTINGS_NAMESPACES: readonly SettingsNamespace[] = ['system', 'secure', 'global'];

const DEFAULTS: Record<SettingsNamespace, Record<string, string>> = {
  system: {
    accelerometer_rotation: '0',
    font_scale: '1.0',
    screen_brightness: '102',
    screen_off_timeout: '60000',
  },
  secure: {
    default_input_method: 'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME',
    enabled_input_methods: 'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME',
    show_ime_with_hard_keyboard: '0',
  },
  global: {
    adb_enabled: '1',
    airplane_mode_on: '0',
    animator_duration_scale: '1.0',
    development_settings_enabled: '1',
    stay_on_while_plugged_in: '0',
    transition_animation_scale: '1.0',
    window_animation_scale: '1.0',
  },
};

export class DeviceSettings {
  private readonly values: Record<SettingsNamespace, Map<string, string>>;

  constructor(
    private readonly ui: PhoneUi,
    androidId: string,
  ) {
    this.values = {
      system: new Map(Object.entries(DEFAULTS.system)),
      secure: new Map([...Object.entries(DEFAULTS.secure), ['android_id', androidId]]),
      global: new Map(Object.entries(DEFAULTS.global)),
    };
  }

  /** The value, or undefined when the key is not set (`settings get` prints `null`). */
  get(namespace: SettingsNamespace, key: string): string | undefined {
    const live = this.live(namespace, key);
    return live !== undefined ? live : this.values[namespace].get(key);
  }

  /**
   * Sets a value. `system user_rotation` must be 0–3 and rotates the screen; it throws RangeError
   * for another value, and PhoneError INVALID_ARGUMENT on a replayed screen that cannot turn.
   */
  put(namespace: SettingsNamespace, key: string, value: string): void {
    if (namespace === 'system' && key === 'user_rotation') {
      if (!/^[0-3]$/.test(value)) throw new RangeError(`user_rotation must be 0, 1, 2 or 3, got ${JSON.stringify(value)}`);
      this.ui.rotate(Number(value) as Rotation);
      return;
    }
    if (namespace === 'global' && key === 'wifi_on') this.ui.state.wifi = value === '1';
    else if (namespace === 'global' && key === 'bluetooth_on') this.ui.state.bluetooth = value === '1';
    else this.values[namespace].set(key, value);
  }

  delete(namespace: SettingsNamespace, key: string): boolean {
    return this.values[namespace].delete(key);
  }

  /** Every `key=value` of the namespace, sorted by key. */
  list(namespace: SettingsNamespace): [string, string][] {
    const entries = new Map(this.values[namespace]);
    for (const key of LIVE_KEYS[namespace]) entries.set(key, this.live(namespace, key) as string);
    return [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  private live(namespace: SettingsNamespace, key: string): string | undefined {
    if (namespace === 'system' && key === 'user_rotation') return String(this.ui.screen.rotation);
    if (namespace === 'global' && key === 'wifi_on') return this.ui.state.wifi ? '1' : '0';
    if (namespace === 'global' && key === 'bluetooth_on') return this.ui.state.bluetooth ? '1' : '0';
    return undefined;
  }
}

const LIVE_KEYS: Record<SettingsNamespace, string[]> = { system: ['user_rotation'], secure: [], global: ['wifi_on', 'bluetooth_on'] };
