import type { EncodedScreenImage, ScreenInfo, UiElement } from '@mobileclaw/domain';

/**
 * One observation of a phone's screen, remembered so that a later action can name an element of it
 * or a point of its image. `frameId` is `<deviceId>@<n>` (`@` never occurs in a device id), so the
 * frame alone names its phone.
 */
export interface ScreenFrame {
  frameId: string;
  deviceId: string;
  /** The phone's own frame id, sent with each action so that the phone refuses it after a rotation or resize. */
  deviceFrameId?: string;
  /** Screen geometry when observed, device px. */
  screen: ScreenInfo;
  /** The bounded screenshot, when the observation asked for one; its px are the frame's coordinate space. */
  image?: EncodedScreenImage;
  /** The indexed element list (device px); every actionable element is in it, with or without text. */
  elements: UiElement[];
  /** Package of the app in the foreground (system UI not counted), when the tree tells. */
  foregroundPackage?: string;
  /** ISO-8601 time of the observation. */
  capturedAt: string;
}

/** The gateway frame id of the `n`-th observation of `deviceId`. */
export function frameIdOf(deviceId: string, n: number): string {
  return `${deviceId}@${n}`;
}

/** The device a gateway frame id names, or undefined when `frameId` is not of the form `<deviceId>@<n>`. */
export function deviceOfFrameId(frameId: string): string | undefined {
  const at = frameId.lastIndexOf('@');
  if (at <= 0 || !/^\d+$/.test(frameId.slice(at + 1))) return undefined;
  return frameId.slice(0, at);
}
