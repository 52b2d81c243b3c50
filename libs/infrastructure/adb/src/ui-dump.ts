/**
 * Reading what `uiautomator dump /dev/tty` prints: the hierarchy XML, then the trailer
 * `UI hierchary dumped to: /dev/tty` (sic), or instead an error line such as
 * `ERROR: could not get idle state.` (the screen kept changing, e.g. an animation) or
 * `ERROR: null root node returned by UiTestAutomationBridge.` (no window yet, e.g. mid-transition).
 */

/** The shell command that prints the current window hierarchy to stdout. */
export const UI_DUMP_COMMAND = 'uiautomator dump /dev/tty';

/** What one `uiautomator dump` printed: the XML, or why there is none and whether trying again can help. */
export type UiDumpOutput = { ok: true; xml: string } | { ok: false; retryable: boolean; reason: string };

/** Failures of `uiautomator dump` that pass once the screen settles. */
const TRANSIENT_FAILURES = [/could not get idle state/i, /null root node/i, /UiAutomationService .* already registered/i, /^Killed\b/m];

/**
 * The hierarchy XML in `output` (from `<?xml` or `<hierarchy` to the last `</hierarchy>`, so the
 * trailer and any warnings before it are dropped), or the failure: a known transient one, or empty
 * or cut-off output, is retryable; anything else (e.g. `uiautomator: not found`) is not.
 */
export function readUiDump(output: string): UiDumpOutput {
  const start = output.search(/<\?xml|<hierarchy[\s>]/);
  const end = output.lastIndexOf('</hierarchy>');
  if (start >= 0 && end > start) return { ok: true, xml: output.slice(start, end + '</hierarchy>'.length) };
  const text = output.trim();
  if (start >= 0) return { ok: false, retryable: true, reason: 'the dump was cut off before </hierarchy>' };
  if (text === '') return { ok: false, retryable: true, reason: 'uiautomator printed nothing' };
  const firstLines = text.split(/\r?\n/).slice(0, 3).join(' | ');
  return { ok: false, retryable: TRANSIENT_FAILURES.some((p) => p.test(text)), reason: firstLines.length > 300 ? `${firstLines.slice(0, 300)}…` : firstLines };
}
