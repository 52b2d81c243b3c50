/**
 * What Android's shell tools print, in their real formats, for tests of the bridge: `getprop`,
 * `wm size`/`wm density`, the rotation lines of `dumpsys input`, and `uiautomator dump /dev/tty`.
 */

/** `getprop` of a Pixel 7 on Android 14 (an excerpt: the real list has ~1000 lines of this form). */
export const GETPROP_PIXEL_7 = [
  '[dalvik.vm.heapsize]: [512m]',
  '[persist.sys.timezone]: [Europe/Berlin]',
  '[ro.build.fingerprint]: [google/panther/panther:14/UQ1A.240205.004/11269751:user/release-keys]',
  '[ro.build.version.release]: [14]',
  '[ro.build.version.sdk]: [34]',
  '[ro.product.brand]: [google]',
  '[ro.product.manufacturer]: [Google]',
  '[ro.product.model]: [Pixel 7]',
  '[ro.product.name]: [panther]',
  '[sys.boot_completed]: [1]',
  '',
].join('\n');

/** `wm size` of a phone without an override, and of one whose resolution was lowered. */
export const WM_SIZE = 'Physical size: 1080x2400\n';
export const WM_SIZE_OVERRIDDEN = 'Physical size: 1440x3120\nOverride size: 1080x2340\n';

/** `wm density`, plain and with an override (display size set larger in the settings). */
export const WM_DENSITY = 'Physical density: 420\n';
export const WM_DENSITY_OVERRIDDEN = 'Physical density: 560\nOverride density: 480\n';

/** `dumpsys input | grep -E 'SurfaceOrientation|orientation='` on Android 12 (touch mapper and viewport), at a rotation 0–3. */
export function dumpsysInputRotation(rotation: 0 | 1 | 2 | 3, natural = { width: 1080, height: 2400 }): string {
  const [w, h] = rotation % 2 === 1 ? [natural.height, natural.width] : [natural.width, natural.height];
  return [
    `        Viewport INTERNAL: displayId=0, uniqueId=local:4619827259835644672, port=0, orientation=${rotation}, logicalFrame=[0, 0, ${w}, ${h}], physicalFrame=[0, 0, ${w}, ${h}], deviceSize=[${natural.width}, ${natural.height}], isActive=[1]`,
    `      SurfaceOrientation: ${rotation}`,
    '',
  ].join('\n');
}

/** The same on Android 14, whose viewport names the rotation (`ROTATION_90`) and whose touch mapper no longer prints SurfaceOrientation. */
export function dumpsysInputRotationAndroid14(rotation: 0 | 1 | 2 | 3): string {
  const [w, h] = rotation % 2 === 1 ? [2400, 1080] : [1080, 2400];
  return `    Viewport INTERNAL: displayId=0, uniqueId=local:4619827259835644672, port=0, orientation=ROTATION_${rotation * 90}, logicalFrame=[0, 0, ${w}, ${h}], physicalFrame=[0, 0, ${w}, ${h}], deviceSize=[1080, 2400], isActive=[1]\n`;
}

/** What the bridge's geometry read prints: `wm size` then the rotation lines. */
export function geometryOutput(rotation: 0 | 1 | 2 | 3 = 0, wmSize = WM_SIZE): string {
  return wmSize + dumpsysInputRotation(rotation);
}

/** The trailer `uiautomator dump /dev/tty` prints after the XML (Android's own spelling). */
export const UI_DUMP_TRAILER = 'UI hierchary dumped to: /dev/tty\n';

/** `uiautomator dump`'s failure when the screen never settles (e.g. an animation). */
export const UI_DUMP_IDLE_FAILURE = 'ERROR: could not get idle state.\n';

/** `uiautomator dump`'s failure before a window exists (e.g. mid-transition). */
export const UI_DUMP_NULL_ROOT = 'ERROR: null root node returned by UiTestAutomationBridge.\n';

/**
 * `uiautomator dump /dev/tty` of a messaging screen (one line of XML, then the trailer): a title,
 * an EditText with `fieldText` (focused when `focused`), and a Send button.
 */
export function uiDumpOutput(options: { fieldText?: string; focused?: boolean; password?: boolean; rotation?: 0 | 1 | 2 | 3 } = {}): string {
  const { fieldText = '', focused = true, password = false, rotation = 0 } = options;
  const attr = (v: string): string => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const common = 'checkable="false" checked="false"';
  const xml =
    `<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation="${rotation}">` +
    `<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="com.google.android.apps.messaging" content-desc="" ${common} clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[0,0][1080,2400]">` +
    `<node index="0" text="Alice" resource-id="com.google.android.apps.messaging:id/conversation_title" class="android.widget.TextView" package="com.google.android.apps.messaging" content-desc="" ${common} clickable="false" enabled="true" focusable="false" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[168,150][560,222]" />` +
    `<node index="1" text="${attr(password ? '' : fieldText)}" resource-id="com.google.android.apps.messaging:id/compose_message_text" class="android.widget.EditText" package="com.google.android.apps.messaging" content-desc="" ${common} clickable="true" enabled="true" focusable="true" focused="${focused}" scrollable="false" long-clickable="true" password="${password}" selected="false" bounds="[156,2202][876,2337]" />` +
    `<node index="2" text="" resource-id="com.google.android.apps.messaging:id/send_message_button_icon" class="android.widget.ImageView" package="com.google.android.apps.messaging" content-desc="Send SMS" ${common} clickable="true" enabled="true" focusable="true" focused="false" scrollable="false" long-clickable="false" password="false" selected="false" bounds="[912,2214][1056,2325]" />` +
    `</node></hierarchy>`;
  return xml + UI_DUMP_TRAILER;
}
