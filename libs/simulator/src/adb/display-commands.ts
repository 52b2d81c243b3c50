/**
 * Device commands that report the phone's display, state and screen: `getprop`, `wm`, `settings`,
 * `dumpsys` (the `window`, `input` and `activity` sections bridges grep for the rotation and the
 * resumed activity), `screencap` and `uiautomator dump`. Their output follows Android 14's format.
 */
import sharp from 'sharp';
import { applyRasteriserSettings } from '../rasteriser-settings';
import { renderScreenshot } from '../screenshot';
import { resumedActivity, shortComponent } from './android-apps';
import { SETTINGS_NAMESPACES, type SettingsNamespace } from './device-settings';
import { javaException, type ShellCommandContext, type ShellDevice } from './shell-runtime';
import { uiautomatorXml } from './uiautomator-xml';

/** Where `uiautomator dump` writes when no file is named. */
export const DEFAULT_DUMP_PATH = '/sdcard/window_dump.xml';

/** `screencap`'s raw format: `PIXEL_FORMAT_RGBA_8888`, and the sRGB colour space code of its header. */
const PIXEL_FORMAT_RGBA_8888 = 1;
const COLORSPACE_SRGB = 1;

/** `getprop` (every property as `[key]: [value]`, sorted) or `getprop KEY [DEFAULT]`. */
export function getpropCommand(ctx: ShellCommandContext): number {
  const properties = ctx.device.properties;
  const [key, fallback] = ctx.args.filter((a) => !a.startsWith('-'));
  if (key === undefined) {
    const keys = Object.keys(properties).sort();
    ctx.stdout.write(keys.map((k) => `[${k}]: [${properties[k] as string}]\n`).join(''));
    return 0;
  }
  ctx.stdout.write(`${properties[key] ?? fallback ?? ''}\n`);
  return 0;
}

/** `wm size`, `wm density` (physical values), `wm user-rotation [lock N]`; changing size or density is not simulated. */
export function wmCommand(ctx: ShellCommandContext): number {
  const [sub, ...rest] = ctx.args;
  const ui = ctx.device.ui;
  const natural = ui.screen.rotation % 2 === 1 ? { width: ui.screen.height, height: ui.screen.width } : { width: ui.screen.width, height: ui.screen.height };
  switch (sub) {
    case 'size':
      if (rest.length > 0) return unsimulated(ctx, 'wm size', 'changing the display size');
      ctx.stdout.write(`Physical size: ${natural.width}x${natural.height}\n`);
      return 0;
    case 'density':
      if (rest.length > 0) return unsimulated(ctx, 'wm density', 'changing the display density');
      ctx.stdout.write(`Physical density: ${ui.screen.densityDpi}\n`);
      return 0;
    case 'user-rotation': {
      const [mode, value] = rest.filter((a, i, all) => a !== '-d' && all[i - 1] !== '-d');
      if (mode === undefined) {
        ctx.stdout.write(`lock ${ui.screen.rotation}\n`);
        return 0;
      }
      if (mode === 'lock' && value !== undefined && /^[0-3]$/.test(value)) return rotate(ctx, value);
      if (mode === 'lock' && value === undefined) return 0;
      ctx.stderr.write(javaException('user-rotation', 'java.lang.IllegalArgumentException', `Invalid rotation mode ${mode} ${value ?? ''}`.trim()));
      return 255;
    }
    default:
      ctx.stderr.write(`Unknown command: ${sub ?? ''}\n`);
      return 255;
  }
}

/** `settings get|put|delete|list NAMESPACE [KEY [VALUE]]`; an unset key reads `null`. */
export function settingsCommand(ctx: ShellCommandContext): number {
  const args = ctx.args.filter((a, i, all) => a !== '--user' && all[i - 1] !== '--user');
  const [verb, namespace, key, ...values] = args;
  if (verb === undefined || !['get', 'put', 'delete', 'list'].includes(verb) || namespace === undefined) {
    ctx.stderr.write('usage:  settings [--user <USER_ID> | current] get namespace key\n        settings [--user <USER_ID> | current] put namespace key value\n        settings [--user <USER_ID> | current] delete namespace key\n        settings [--user <USER_ID> | current] list namespace\n');
    return 1;
  }
  if (!SETTINGS_NAMESPACES.includes(namespace as SettingsNamespace)) {
    ctx.stderr.write(`Invalid namespace '${namespace}'\n`);
    return 255;
  }
  const ns = namespace as SettingsNamespace;
  const settings = ctx.device.settings;
  if (verb === 'list') {
    ctx.stdout.write(settings.list(ns).map(([k, v]) => `${k}=${v}\n`).join(''));
    return 0;
  }
  if (key === undefined) {
    ctx.stderr.write(javaException(verb, 'java.lang.IllegalArgumentException', 'Key name not specified'));
    return 255;
  }
  if (verb === 'get') {
    ctx.stdout.write(`${settings.get(ns, key) ?? 'null'}\n`);
    return 0;
  }
  if (verb === 'delete') {
    ctx.stdout.write(`Deleted ${settings.delete(ns, key) ? 1 : 0} rows\n`);
    return 0;
  }
  const value = values.filter((v) => v !== 'default').join(' ');
  if (values.length === 0) {
    ctx.stderr.write(javaException(verb, 'java.lang.IllegalArgumentException', 'Value not specified'));
    return 255;
  }
  if (ns === 'system' && key === 'user_rotation') return rotate(ctx, value);
  settings.put(ns, key, value);
  return 0;
}

/** Rotates through the settings provider; a replayed screen that cannot turn prints the refusal. */
function rotate(ctx: ShellCommandContext, value: string): number {
  try {
    ctx.device.settings.put('system', 'user_rotation', value);
    return 0;
  } catch (err) {
    ctx.stderr.write(javaException('put', 'java.lang.IllegalArgumentException', (err as Error).message));
    return 255;
  }
}

function unsimulated(ctx: ShellCommandContext, command: string, what: string): number {
  ctx.stderr.write(`${command}: ${what} is not simulated\n`);
  return 1;
}

/** `dumpsys window [displays|windows]`, `dumpsys input`, `dumpsys activity [activities]`, `dumpsys display`. */
export function dumpsysCommand(ctx: ShellCommandContext): number {
  const [service, section] = ctx.args;
  const device = ctx.device;
  switch (service) {
    case 'window':
      if (section === 'displays' || section === 'd') ctx.stdout.write(windowDisplays(device));
      else if (section === 'windows' || section === 'w') ctx.stdout.write(windowWindows(device));
      else ctx.stdout.write(`${windowDisplays(device)}\n${windowWindows(device)}`);
      return 0;
    case 'input':
      ctx.stdout.write(inputState(device));
      return 0;
    case 'activity':
      ctx.stdout.write(activities(device));
      return 0;
    case 'display':
      ctx.stdout.write(displayState(device));
      return 0;
    case undefined:
      ctx.stdout.write('Currently running services:\n  activity\n  display\n  input\n  window\n');
      return 0;
    default:
      ctx.stderr.write(`Can't find service: ${service}\n`);
      return 0;
  }
}

function focus(device: ShellDevice): { window: string; app: string } {
  const activity = resumedActivity(device.ui);
  return {
    window: `Window{8c1f2e3 u0 ${activity.package}/${activity.class}}`,
    app: `ActivityRecord{5d6e7f8 u0 ${shortComponent(activity)} t12}`,
  };
}

function windowDisplays(device: ShellDevice): string {
  const { width, height, densityDpi, rotation } = device.ui.screen;
  const naturalW = rotation % 2 === 1 ? height : width;
  const naturalH = rotation % 2 === 1 ? width : height;
  const { window, app } = focus(device);
  return [
    'WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)',
    '  Display: mDisplayId=0 rootTasks=2',
    `    init=${naturalW}x${naturalH} ${densityDpi}dpi base=${naturalW}x${naturalH} ${densityDpi}dpi cur=${width}x${height} app=${width}x${height} rng=${Math.min(width, height)}x${Math.min(width, height)}-${Math.max(width, height)}x${Math.max(width, height)}`,
    `    mCurrentFocus=${window}`,
    `    mFocusedApp=${app}`,
    '  DisplayRotation',
    '    mCurrentAppOrientation=SCREEN_ORIENTATION_UNSPECIFIED',
    `    mRotation=${rotation} mDeferredRotationPauseCount=0`,
    `    mUserRotationMode=USER_ROTATION_LOCKED mUserRotation=ROTATION_${rotation * 90} mCameraRotationMode=0`,
    '',
  ].join('\n');
}

function windowWindows(device: ShellDevice): string {
  const { window, app } = focus(device);
  return ['WINDOW MANAGER WINDOWS (dumpsys window windows)', `  Window #0 ${window}:`, `  mCurrentFocus=${window}`, `  mFocusedApp=${app}`, ''].join('\n');
}

function inputState(device: ShellDevice): string {
  const { width, height, rotation } = device.ui.screen;
  return [
    'INPUT MANAGER (dumpsys input)',
    '',
    'Event Hub State:',
    '  Devices:',
    '    4: virtio_input_multi_touch_1',
    '      Classes: TOUCH | TOUCH_MT',
    '',
    'Input Reader State:',
    '  Device 4: virtio_input_multi_touch_1',
    '    Touch Input Mapper (mode - DIRECT):',
    `      Viewport INTERNAL: displayId=0, uniqueId=local:0, port=0, orientation=${rotation}, logicalFrame=[0, 0, ${width}, ${height}], isActive=[true]`,
    `      SurfaceWidth: ${width}px`,
    `      SurfaceHeight: ${height}px`,
    `      SurfaceOrientation: ${rotation}`,
    '',
  ].join('\n');
}

function activities(device: ShellDevice): string {
  const { app } = focus(device);
  return ['ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)', 'Display #0 (activities from top to bottom):', `  mResumedActivity: ${app}`, `  ResumedActivity: ${app}`, `  topResumedActivity=${app}`, ''].join('\n');
}

function displayState(device: ShellDevice): string {
  const { width, height, densityDpi, rotation } = device.ui.screen;
  return [
    'DISPLAY MANAGER (dumpsys display)',
    `  mViewports=[DisplayViewport{type=INTERNAL, valid=true, isActive=true, displayId=0, uniqueId='local:0', physicalPort=0, orientation=${rotation}, logicalFrame=Rect(0, 0 - ${width}, ${height}), deviceWidth=${width}, deviceHeight=${height}}]`,
    `  mCurrentOrientation=${rotation}`,
    `  DisplayInfo{"Built-in Screen", displayId 0, real ${width} x ${height}, rotation ${rotation}, density ${densityDpi}}`,
    '',
  ].join('\n');
}

/**
 * `screencap [-p] [-d ID] [FILE]`: the screen as a PNG with `-p` or a `.png` file name, otherwise
 * raw (width, height, format, colour space as uint32 LE, then RGBA pixels), to the file or to
 * standard output.
 */
export async function screencapCommand(ctx: ShellCommandContext): Promise<number> {
  const args = [...ctx.args];
  let png = false;
  let file: string | undefined;
  while (args.length > 0) {
    const arg = args.shift() as string;
    if (arg === '-p') png = true;
    else if (arg === '-d') args.shift();
    else if (arg === '-h') {
      ctx.stderr.write('usage: screencap [-hp] [-d display-id] [FILENAME]\n   -h: this message\n   -p: save the file as a png.\n   -d: specify the physical display ID to capture (default: first display)\nIf FILENAME ends with .png it will be saved as a png.\nIf FILENAME is not given, the results will be printed to stdout.\n');
      return 0;
    } else file = arg;
  }
  if (file !== undefined && file.endsWith('.png')) png = true;
  if (file !== undefined && !ctx.device.files.writable(file)) {
    ctx.stderr.write(`Error opening file: ${file} (Permission denied)\n`);
    return 1;
  }
  const bytes = png ? Buffer.from((await renderScreenshot(ctx.device.ui, { format: 'png' })).base64, 'base64') : await rawScreen(ctx.device);
  if (file === undefined) ctx.stdout.write(bytes);
  else ctx.device.files.write(file, bytes);
  return 0;
}

async function rawScreen(device: ShellDevice): Promise<Buffer> {
  applyRasteriserSettings();
  const { data, info } = await sharp(Buffer.from(device.ui.toSvg(), 'utf8')).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const header = Buffer.alloc(16);
  header.writeUInt32LE(info.width, 0);
  header.writeUInt32LE(info.height, 4);
  header.writeUInt32LE(PIXEL_FORMAT_RGBA_8888, 8);
  header.writeUInt32LE(COLORSPACE_SRGB, 12);
  return Buffer.concat([header, data]);
}

/** `uiautomator dump [--compressed] [FILE]` (default {@link DEFAULT_DUMP_PATH}; `/dev/tty` prints the XML). */
export function uiautomatorCommand(ctx: ShellCommandContext): number {
  const [sub, ...rest] = ctx.args;
  if (sub !== 'dump') {
    ctx.stderr.write('Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\nhelp: displays help message\n\nruntest: executes UI automation tests\n\ndump: creates an XML dump of current UI hierarchy\n\nevents: prints out accessibility events until terminated\n');
    return sub === 'help' ? 0 : 1;
  }
  const file = rest.filter((a) => !a.startsWith('--')).pop() ?? DEFAULT_DUMP_PATH;
  const ui = ctx.device.ui;
  const xml = uiautomatorXml(ui.nodes(), ui.screen.rotation);
  if (file === '/dev/tty' || file === '/dev/stdout') ctx.stdout.write(xml);
  else if (ctx.device.files.writable(file)) ctx.device.files.write(file, Buffer.from(xml, 'utf8'));
  else {
    ctx.stderr.write(`ERROR: could not write to ${file}\n`);
    return 1;
  }
  // "hierchary" is how the real tool spells it; scripts match on the line as printed.
  ctx.stdout.write(`UI hierchary dumped to: ${file}\n`);
  return 0;
}
