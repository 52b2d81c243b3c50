import type { CommandName } from './commands';

/** Screen geometry in px; `rotation` is 0, 1, 2 or 3 quarter turns (Android `Surface.ROTATION_*`). */
export interface ScreenInfo {
  width: number;
  height: number;
  densityDpi?: number;
  rotation?: number;
}

/** `screenshot` result data (wire protocol v1). */
export interface ScreenshotData {
  mime: string;
  width: number;
  height: number;
  /** The image, base64-encoded. */
  base64: string;
  frameId?: string;
  screen?: ScreenInfo;
}

/** One node of a `ui_tree` result; `bounds` are `[left, top, right, bottom]` in device px. */
export interface UiNode {
  id: string;
  class?: string;
  text?: string;
  desc?: string;
  resourceId?: string;
  package?: string;
  bounds: [number, number, number, number];
  clickable?: boolean;
  longClickable?: boolean;
  focusable?: boolean;
  editable?: boolean;
  checkable?: boolean;
  checked?: boolean;
  enabled?: boolean;
  focused?: boolean;
  scrollable?: boolean;
  selected?: boolean;
  password?: boolean;
  /** A field's hint (placeholder) text, shown while it is empty (Android `AccessibilityNodeInfo#getHintText`, API 26+). */
  hint?: string;
  /** `id` of the node that labels this one (Android `AccessibilityNodeInfo#getLabeledBy`), when the phone reports it. */
  labeledBy?: string;
  children?: UiNode[];
}

export interface UiTreeData {
  frameId?: string;
  screen?: ScreenInfo;
  nodes: UiNode[];
}

/** The awaited outcome of one command that the phone executed successfully. */
export interface CommandResult<T = Record<string, unknown>> {
  requestId: string;
  deviceId: string;
  command: CommandName;
  status: 'success';
  /** The phone's reply data (see {@link ScreenshotData}, {@link UiTreeData}). */
  data: T;
  /** From the call to the reply, in ms (queue time included). */
  durationMs: number;
  /** Time spent waiting behind other commands to the same phone, in ms. */
  queuedMs: number;
}
