/**
 * Device commands that launch and list apps: `am start` / `am force-stop`, `monkey -p PKG -c
 * android.intent.category.LAUNCHER N` (it launches the app; no random events are simulated), `pm
 * list packages|features`, `pm path`, `cmd package resolve-activity --brief`, and `cmd` routing to
 * `package`, `activity`, `input`, `settings` and `window`. Output and errors read as Android 14's.
 */
import type { PhoneUi } from '../phone-ui';
import { installedPackages, LAUNCHER_ACTIVITIES, packagePath, parseComponent, resumedActivity, shortComponent, type ActivityName } from './android-apps';
import { settingsCommand, wmCommand } from './display-commands';
import { inputCommand } from './input-command';
import type { ShellCommandContext } from './shell-runtime';

const ACTION_MAIN = 'android.intent.action.MAIN';
const CATEGORY_LAUNCHER = 'android.intent.category.LAUNCHER';
const FLAG_ACTIVITY_NEW_TASK = '0x10000000';

/** Settings screens reachable by action (`am start -a android.settings.SETTINGS`). */
const SETTINGS_ACTIONS = new Set(['android.settings.SETTINGS', 'android.settings.WIFI_SETTINGS', 'android.settings.BLUETOOTH_SETTINGS', 'android.settings.WIRELESS_SETTINGS']);

/** Hardware features `pm list features` reports. */
const FEATURES = ['android.hardware.bluetooth', 'android.hardware.camera', 'android.hardware.screen.landscape', 'android.hardware.screen.portrait', 'android.hardware.touchscreen', 'android.hardware.touchscreen.multitouch', 'android.hardware.wifi', 'android.software.app_widgets', 'android.software.input_methods'];

/** Options of `am start` that take a value, besides the intent's own. */
const AM_VALUE_OPTIONS = new Set(['-P', '--start-profiler', '-R', '--sampling', '--user', '--display', '--windowingMode', '--activityType', '--task', '--attach-agent', '--attach-agent-bind']);

interface Intent {
  action?: string;
  categories: string[];
  data?: string;
  type?: string;
  package?: string;
  component?: ActivityName;
  flags?: string;
}

export function amCommand(ctx: ShellCommandContext): number {
  const [verb, ...rest] = ctx.args;
  switch (verb) {
    case 'start':
    case 'start-activity':
      return amStart(ctx, rest);
    case 'force-stop': {
      const pkg = rest.filter((a, i, all) => a !== '--user' && all[i - 1] !== '--user')[0];
      if (pkg !== undefined && resumedActivity(ctx.device.ui).package === pkg) ctx.device.ui.home();
      return 0;
    }
    default:
      ctx.stderr.write(`Unknown command: ${verb ?? ''}\n`);
      return 255;
  }
}

function amStart(ctx: ShellCommandContext, args: string[]): number {
  const intent: Intent = { categories: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const value = (): string => args[++i] ?? '';
    if (arg === '-a') intent.action = value();
    else if (arg === '-c') intent.categories.push(value());
    else if (arg === '-d') intent.data = value();
    else if (arg === '-t') intent.type = value();
    else if (arg === '-p') intent.package = value();
    else if (arg === '-f') intent.flags = value();
    else if (arg === '-n') {
      const text = value();
      const component = parseComponent(text);
      if (!component) {
        ctx.stderr.write(`Exception occurred while executing 'start':\njava.lang.IllegalArgumentException: Bad component name: ${text}\n`);
        return 255;
      }
      intent.component = component;
    } else if (/^--e[sizlfu]?$|^--e(sn|z|cn)$/.test(arg)) i += arg === '--esn' ? 1 : 2;
    else if (AM_VALUE_OPTIONS.has(arg)) i++;
    else if (arg.startsWith('-')) continue;
    else intent.data ??= arg;
  }
  ctx.stdout.write(`Starting: Intent { ${describeIntent(intent, false)} }\n`);
  const ui = ctx.device.ui;
  if (intent.component) {
    const { package: pkg, class: cls } = intent.component;
    if (LAUNCHER_ACTIVITIES[pkg] !== cls) {
      ctx.stderr.write(`Error type 3\nError: Activity class {${pkg}/${cls}} does not exist.\n`);
      return 1;
    }
    return launch(ui, pkg);
  }
  if (intent.action !== undefined && SETTINGS_ACTIONS.has(intent.action) && (intent.package === undefined || intent.package === 'com.android.settings')) return launch(ui, 'com.android.settings');
  const launchable = intent.package !== undefined && LAUNCHER_ACTIVITIES[intent.package] !== undefined;
  const mainOrNone = intent.action === undefined || intent.action === ACTION_MAIN;
  const categoriesMatch = intent.categories.every((c) => c === CATEGORY_LAUNCHER || c === 'android.intent.category.DEFAULT');
  if (launchable && mainOrNone && categoriesMatch && intent.data === undefined) return launch(ui, intent.package as string);
  ctx.stderr.write(`Error: Activity not started, unable to resolve Intent { ${describeIntent(intent, true)} }\n`);
  return 1;
}

function launch(ui: PhoneUi, pkg: string): number {
  ui.open(pkg);
  return 0;
}

/** Intent.toShortString: `act= cat=[…] dat= typ= flg= pkg= cmp=`. */
function describeIntent(intent: Intent, started: boolean): string {
  const parts: string[] = [];
  if (intent.action !== undefined) parts.push(`act=${intent.action}`);
  if (intent.categories.length > 0) parts.push(`cat=[${intent.categories.join(',')}]`);
  if (intent.data !== undefined) parts.push(`dat=${intent.data}`);
  if (intent.type !== undefined) parts.push(`typ=${intent.type}`);
  if (started || intent.flags !== undefined) parts.push(`flg=${started ? FLAG_ACTIVITY_NEW_TASK : intent.flags}`);
  if (intent.package !== undefined) parts.push(`pkg=${intent.package}`);
  if (intent.component) parts.push(`cmp=${shortComponent(intent.component)}`);
  return parts.join(' ');
}

/**
 * `monkey -p PKG [-c CATEGORY]… [options] COUNT`: with a launchable package the first event opens
 * it (the rest of the COUNT random events are counted, not simulated); with none it aborts as the
 * real monkey does.
 */
export function monkeyCommand(ctx: ShellCommandContext): number {
  const args = ctx.args;
  const packages: string[] = [];
  const categories: string[] = [];
  let count = 0;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-p') packages.push(args[++i] ?? '');
    else if (arg === '-c') categories.push(args[++i] ?? '');
    else if (arg === '-s' || arg === '--throttle' || arg.startsWith('--pct-') || arg === '--seed') i++;
    else if (/^\d+$/.test(arg)) count = Number(arg);
  }
  const lines = [...args.map((a) => `  bash arg: ${a}`), `args: [${args.join(', ')}]`, ...args.map((a) => ` arg: "${a}"`), ...[...packages, ...categories].map((d) => `data="${d}"`)];
  ctx.stdout.write(`${lines.join('\n')}\n`);
  const launcherOnly = categories.every((c) => c === CATEGORY_LAUNCHER || c === 'android.intent.category.MONKEY');
  const target = packages.find((p) => LAUNCHER_ACTIVITIES[p] !== undefined);
  if (target === undefined || !launcherOnly) {
    ctx.stdout.write('** No activities found to run, monkey aborted.\n');
    return 252;
  }
  if (count > 0) ctx.device.ui.open(target);
  ctx.stdout.write(`Events injected: ${count}\n## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)\n`);
  return 0;
}

/** `pm list packages [-f] [-s|-3] [FILTER]`, `pm list features`, `pm path PKG`, `pm resolve-activity --brief PKG`. */
export function pmCommand(ctx: ShellCommandContext): number {
  const [verb, ...rest] = ctx.args;
  const options = rest.filter((a) => a.startsWith('-'));
  const operands = rest.filter((a, i, all) => !a.startsWith('-') && all[i - 1] !== '--user');
  if (verb === 'list' && (operands[0] === 'packages' || operands[0] === 'package')) {
    // Every app here ships on the system image, so `-3` (third-party only) lists nothing.
    const packages = options.includes('-3') ? [] : installedPackages().filter((p) => operands[1] === undefined || p.includes(operands[1]));
    ctx.stdout.write(packages.map((p) => (options.includes('-f') ? `package:${packagePath(p)}=${p}\n` : `package:${p}\n`)).join(''));
    return 0;
  }
  if (verb === 'list' && operands[0] === 'features') {
    ctx.stdout.write(FEATURES.map((f) => `feature:${f}\n`).join(''));
    return 0;
  }
  if (verb === 'path') {
    const pkg = operands[0];
    if (pkg === undefined || !installedPackages().includes(pkg)) return 1;
    ctx.stdout.write(`package:${packagePath(pkg)}\n`);
    return 0;
  }
  if (verb === 'resolve-activity') {
    const pkg = operands[operands.length - 1];
    const cls = pkg === undefined ? undefined : LAUNCHER_ACTIVITIES[pkg];
    if (pkg === undefined || cls === undefined) {
      ctx.stdout.write('No activity found\n');
      return 0;
    }
    const component = shortComponent({ package: pkg, class: cls });
    ctx.stdout.write(options.includes('--brief') ? `priority=0 preferredOrder=0 match=0x108000 specificIndex=-1 isDefault=true\n${component}\n` : `${component}\n`);
    return 0;
  }
  ctx.stderr.write(`Unknown command: ${verb ?? ''}\n`);
  return 255;
}

/** `cmd SERVICE …`: the services whose shell commands exist here. */
export function cmdCommand(ctx: ShellCommandContext): number | Promise<number> {
  const [service, ...args] = ctx.args;
  const sub = { ...ctx, args };
  switch (service) {
    case 'package':
      return pmCommand(sub);
    case 'activity':
      return amCommand(sub);
    case 'input':
      return inputCommand(sub);
    case 'settings':
      return settingsCommand(sub);
    case 'window':
      return wmCommand(sub);
    case undefined:
      ctx.stderr.write('cmd: No service specified; use -l to list all running services. Use -w to start and wait for a service.\n');
      return 20;
    default:
      ctx.stderr.write(`cmd: Can't find service: ${service}\n`);
      return 20;
  }
}
