/**
 * What Android's package manager and activity manager know about the simulated phone's apps:
 * each app's launcher activity, the activity showing each screen, and the packages installed
 * besides the apps (`pm list packages`).
 */
import type { PhoneUi } from '../phone-ui';
import { APPS, LAUNCHER_PACKAGE, packageOf, SYSTEM_UI_PACKAGE, type ScreenName } from '../screens';

/** An activity: `package` and fully qualified `class`. */
export interface ActivityName {
  package: string;
  class: string;
}

/** The `MAIN`/`LAUNCHER` activity of each app, by package. */
export const LAUNCHER_ACTIVITIES: Readonly<Record<string, string>> = {
  'com.android.settings': 'com.android.settings.Settings',
  'com.google.android.apps.messaging': 'com.google.android.apps.messaging.ui.ConversationListActivity',
  'com.android.contacts': 'com.android.contacts.activities.PeopleActivity',
  'com.android.chrome': 'com.google.android.apps.chrome.Main',
};

const SCREEN_ACTIVITIES: Record<ScreenName, string> = {
  launcher: 'com.google.android.apps.nexuslauncher.NexusLauncherActivity',
  settings: 'com.android.settings.Settings',
  messages: 'com.google.android.apps.messaging.ui.ConversationListActivity',
  conversation: 'com.google.android.apps.messaging.ui.conversation.ConversationActivity',
  new_chat: 'com.google.android.apps.messaging.ui.conversation.ConversationActivity',
  contacts: 'com.android.contacts.activities.PeopleActivity',
  contact: 'com.android.contacts.quickcontact.QuickContactActivity',
  browser: 'com.google.android.apps.chrome.Main',
};

/** Installed packages that are not apps of their own here (framework, system UI, launcher, keyboard). */
const SYSTEM_PACKAGES = ['android', SYSTEM_UI_PACKAGE, LAUNCHER_PACKAGE, 'com.google.android.inputmethod.latin', 'com.android.shell'];

/** Every installed package: the apps first, then the system packages. */
export function installedPackages(): string[] {
  return [...APPS.map((a) => a.package), ...SYSTEM_PACKAGES];
}

/** Where a package's APK lives (`pm path`). */
export function packagePath(pkg: string): string {
  if (pkg === 'android') return '/system/framework/framework-res.apk';
  const last = pkg.split('.').pop() ?? pkg;
  const name = `${last.charAt(0).toUpperCase()}${last.slice(1)}`;
  return `/system/priv-app/${name}/${name}.apk`;
}

/** The activity in front: the simulated screen's, or for a replayed screen the recording's package. */
export function resumedActivity(ui: PhoneUi): ActivityName {
  if (ui.replaying) {
    const pkg = firstPackage(ui.nodes()) ?? LAUNCHER_PACKAGE;
    return { package: pkg, class: `${pkg}.MainActivity` };
  }
  const screen = ui.state.screen;
  return { package: packageOf(screen), class: SCREEN_ACTIVITIES[screen] };
}

/** `pkg/.Rest` when the class lies inside the package, else `pkg/class` (ComponentName.flattenToShortString). */
export function shortComponent(activity: ActivityName): string {
  return activity.class.startsWith(`${activity.package}.`) ? `${activity.package}/${activity.class.slice(activity.package.length)}` : `${activity.package}/${activity.class}`;
}

/** Parses `pkg/cls` or `pkg/.cls` (ComponentName.unflattenFromString); null when malformed. */
export function parseComponent(text: string): ActivityName | null {
  const slash = text.indexOf('/');
  if (slash <= 0 || slash === text.length - 1) return null;
  const pkg = text.slice(0, slash);
  const cls = text.slice(slash + 1);
  return { package: pkg, class: cls.startsWith('.') ? pkg + cls : cls };
}

function firstPackage(nodes: readonly { package: string; children: readonly { package: string; children: readonly unknown[] }[] }[]): string | undefined {
  for (const node of nodes) {
    if (node.package !== '' && node.package !== SYSTEM_UI_PACKAGE) return node.package;
    const inner = firstPackage(node.children as typeof nodes);
    if (inner) return inner;
  }
  return undefined;
}
