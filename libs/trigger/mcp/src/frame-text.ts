import { CoordinateSpace, type UiElement } from '@mobileclaw/domain';
import type { ScreenFrame } from '@mobileclaw/case-device-control';

/** The coordinate space a model reads a frame in: its image's px, or the screen's when it has no image. */
export function frameSpace(frame: ScreenFrame): CoordinateSpace {
  return frame.image ? CoordinateSpace.ofImage(frame.image, frame.screen) : CoordinateSpace.ofScreen(frame.screen);
}

/**
 * One line per element, bounds and centre in `space` (the image the model sees), e.g.
 * `[3] Switch "Wi-Fi" clickable checked center=(471,122) bounds=(424,100,519,144)` for a switch at
 * (848,200)–(1037,287) on a 1080×2400 screen seen as a 540×1200 image (each value rounded). Password fields
 * never show their text. Unlabelled actionable elements are listed too (type and flags only).
 */
export function formatElement(e: UiElement, space: CoordinateSpace): string {
  const parts = [`[${e.index}]`, e.type];
  if (e.text !== undefined) parts.push(JSON.stringify(e.text));
  if (e.desc !== undefined) parts.push(`desc=${JSON.stringify(e.desc)}`);
  if (e.resourceId !== undefined) parts.push(`id=${e.resourceId}`);
  if (e.clickable) parts.push('clickable');
  if (e.longClickable) parts.push('long-clickable');
  if (e.editable) parts.push('editable');
  if (e.password) parts.push('password');
  if (e.checkable) parts.push(e.checked ? 'checked' : 'unchecked');
  if (e.scrollable) parts.push('scrollable');
  if (e.focused) parts.push('focused');
  if (e.selected) parts.push('selected');
  if (e.enabled === false) parts.push('disabled');
  const [cx, cy] = space.fromDevice(e.center[0], e.center[1]);
  parts.push(`center=(${cx},${cy})`, `bounds=(${space.boundsFromDevice(e.bounds).join(',')})`);
  return parts.join(' ');
}

/** The text block of a screen: what the frame is, how to act on it, then every element. */
export function describeFrame(frame: ScreenFrame): string {
  const space = frameSpace(frame);
  const { width, height } = space.size;
  const lines = [
    `frameId: ${frame.frameId}`,
    `device: ${frame.deviceId}; screen ${frame.screen.width}×${frame.screen.height} px${frame.foregroundPackage ? `; foreground app ${frame.foregroundPackage}` : ''}`,
    frame.image
      ? `image: ${width}×${height} px JPEG; coordinates below and in tap/long_press/swipe with this frameId are in the image's px`
      : `coordinates below are screen px`,
    `elements (${frame.elements.length}; act on one with {frameId, element}):`,
    ...frame.elements.map((e) => formatElement(e, space)),
  ];
  return lines.join('\n');
}
