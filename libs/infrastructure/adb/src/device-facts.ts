/**
 * Parsers of what Android's shell tools print about the device: `getprop`, `wm size`, `wm density`
 * and the display rotation in `dumpsys input` (or `dumpsys window`). Tolerant of `\r\n`, extra
 * lines and missing ones; they return undefined/null for what is not there rather than guess.
 */

/** A size in px. */
export interface Size {
  width: number;
  height: number;
}

/** The screen as it is now: px of the current rotation, density, rotation in quarter turns. */
export interface ScreenGeometry {
  width: number;
  height: number;
  densityDpi?: number;
  rotation: 0 | 1 | 2 | 3;
}

/** Properties from `getprop` (`[ro.product.model]: [Pixel 7]` lines), by name. Multi-line values keep only their first line. */
export function parseGetprop(output: string): Map<string, string> {
  const props = new Map<string, string>();
  for (const line of output.split(/\r?\n/)) {
    const match = /^\[([^\]]+)\]:\s*\[(.*)\]?\s*$/.exec(line);
    if (match) props.set(match[1] as string, (match[2] as string).replace(/\]$/, ''));
  }
  return props;
}

/**
 * `wm size`: `Physical size: 1080x2400` and, when set, `Override size: 720x1600` (what the display
 * really uses, e.g. after `wm size 720x1600`). Both are the natural (rotation 0) size.
 * @returns undefined when no physical size is printed.
 */
export function parseWmSize(output: string): { physical: Size; override?: Size } | undefined {
  const physical = sizeAfter(output, 'Physical size');
  if (!physical) return undefined;
  const override = sizeAfter(output, 'Override size');
  return override ? { physical, override } : { physical };
}

/** `wm density`: `Physical density: 420` and, when set, `Override density: 360`; the one in effect, or undefined. */
export function parseWmDensity(output: string): number | undefined {
  const value = (label: string): number | undefined => {
    const match = new RegExp(`^\\s*${label}:\\s*(\\d+)\\s*$`, 'm').exec(output);
    return match ? Number(match[1]) : undefined;
  };
  return value('Override density') ?? value('Physical density');
}

/**
 * The display rotation in quarter turns (Android `Surface.ROTATION_*`), from whichever of these the
 * output has, in this order: the internal display's viewport in `dumpsys input`
 * (`Viewport INTERNAL: … orientation=1, …`, or `orientation=ROTATION_90` on Android 14+), a touch
 * device's `SurfaceOrientation: 1` (`dumpsys input`, Android ≤ 12), any other `orientation=N`, or
 * `dumpsys window`'s `mRotation=1` / `mCurrentRotation=ROTATION_90`.
 * @returns null when none is there.
 */
export function parseRotation(output: string): 0 | 1 | 2 | 3 | null {
  const patterns = [
    /Viewport INTERNAL:[^\n]*?\borientation=(ROTATION_\d+|\d+)/,
    /\bSurfaceOrientation:\s*(\d+)/,
    /\borientation=(ROTATION_\d+|\d+)/,
    /\bm(?:Current)?Rotation=(ROTATION_\d+|\d+)/,
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(output);
    const rotation = match ? quarterTurns(match[1] as string) : null;
    if (rotation !== null) return rotation;
  }
  return null;
}

/**
 * The screen in the current rotation: the size in effect (`wm size` override, else physical; both
 * natural) with width and height swapped for rotations 1 and 3.
 */
export function currentGeometry(wmSize: { physical: Size; override?: Size }, rotation: 0 | 1 | 2 | 3, densityDpi?: number): ScreenGeometry {
  const natural = wmSize.override ?? wmSize.physical;
  const swap = rotation % 2 === 1;
  return {
    width: swap ? natural.height : natural.width,
    height: swap ? natural.width : natural.height,
    ...(densityDpi === undefined ? {} : { densityDpi }),
    rotation,
  };
}

function sizeAfter(output: string, label: string): Size | undefined {
  const match = new RegExp(`^\\s*${label}:\\s*(\\d+)\\s*x\\s*(\\d+)\\s*$`, 'm').exec(output);
  if (!match) return undefined;
  const width = Number(match[1]);
  const height = Number(match[2]);
  return width > 0 && height > 0 ? { width, height } : undefined;
}

function quarterTurns(value: string): 0 | 1 | 2 | 3 | null {
  const degrees = /^ROTATION_(\d+)$/.exec(value);
  const turns = degrees ? Number(degrees[1]) / 90 : Number(value);
  return turns === 0 || turns === 1 || turns === 2 || turns === 3 ? turns : null;
}
