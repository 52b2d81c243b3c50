import { compactLabel } from './goal-text';

/** An app the planner can launch by name. */
export interface KnownApp {
  /** Display name, e.g. `Settings`. */
  label: string;
  /** Android package launched with the `open` command. */
  package: string;
  /** Names users give it (English and Chinese), compared with {@link compactLabel}. */
  aliases: readonly string[];
}

/**
 * The apps of a stock Android phone (and of the simulated phone) with their usual names. An app not
 * listed here is still opened by tapping its launcher icon.
 */
export const KNOWN_APPS: readonly KnownApp[] = [
  { label: 'Settings', package: 'com.android.settings', aliases: ['settings', 'setting', 'system settings', '设置', '系统设置', '设定'] },
  {
    label: 'Messages',
    package: 'com.google.android.apps.messaging',
    aliases: ['messages', 'messaging', 'sms', 'text messages', '信息', '短信', '消息', '短消息'],
  },
  { label: 'Contacts', package: 'com.android.contacts', aliases: ['contacts', 'people', 'address book', '联系人', '通讯录'] },
  { label: 'Browser', package: 'com.android.chrome', aliases: ['browser', 'chrome', 'google chrome', 'web browser', '浏览器', '谷歌浏览器'] },
];

/** The package of the launcher (home screen) apps, recognised by name. */
export function isLauncherPackage(pkg: string): boolean {
  return /launcher|\.home$|trebuchet/i.test(pkg);
}

/** The known app called `name` (any alias, case, spacing and hyphens ignored), if any. */
export function findKnownApp(name: string): KnownApp | undefined {
  const key = compactLabel(name.replace(/\s*(app|application|应用|程序)$/i, ''));
  if (key === '') return undefined;
  return KNOWN_APPS.find((app) => app.aliases.some((alias) => compactLabel(alias) === key));
}
