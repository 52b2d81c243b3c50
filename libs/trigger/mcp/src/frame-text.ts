import { CoordinateSpace, describeUiElement, type UiElement } from '@mobileclaw/domain';
import type { ScreenFrame } from '@mobileclaw/case-device-control';

/** The coordinate space a model reads a frame in: its image's px, or the screen's when it has no image. */
export function frameSpace(frame: ScreenFrame): CoordinateSpace {
  return frame.image ? CoordinateSpace.ofImage(frame.image, frame.screen) : CoordinateSpace.ofScreen(frame.screen);
}

/**
 * One line per element, bounds and centre in `space` (the image the model sees), e.g.
 * `[3] Switch "Wi-Fi" clickable checked center=(471,122) bounds=(424,100,519,144)` for a switch at
 * (848,200)–(1037,287) on a 1080×2400 screen seen as a 540×1200 image (each value rounded). A label found
 * around the element shows with its source before the geometry, e.g. `label="Airplane mode" (row)`.
 * Password fields never show their text. Unlabelled actionable elements are listed too (type and flags only).
 */
export function formatElement(e: UiElement, space: CoordinateSpace): string {
  const [cx, cy] = space.fromDevice(e.center[0], e.center[1]);
  return `${describeUiElement(e)} center=(${cx},${cy}) bounds=(${space.boundsFromDevice(e.bounds).join(',')})`;
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
