/**
 * A recorded Android screen (imported by `parseUiHierarchyXml` from an Appium page source or a
 * `uiautomator dump`) turned into simulator views, so that replay mode hit-tests and draws it with
 * the same machinery as the simulated apps. The views carry no behaviour: the screen is static.
 *
 * Drawing is a plain wireframe: tappable nodes outlined in blue, scroll containers dashed green,
 * fields outlined grey, images as light grey boxes, checked checkables tinted, switches drawn on or
 * off, and each node's text (or a leaf's content description) written inside its bounds.
 */
import type { UiTreeNode } from '@mobileclaw/ui-hierarchy';
import { textWidth } from './text-metrics';
import type { Paint, View } from './view';

const ACCENT = '#1a73e8';
const SCROLL = '#188038';
const FIELD = '#5f6368';
const QUIET = '#dadce0';
const IMAGE_FILL = '#f1f3f4';
const CHECKED_FILL = '#d2e3fc';
const SELECTED_FILL = '#e8f0fe';
const TEXT = '#202124';
const TEXT_2 = '#5f6368';
const DISABLED_TEXT = '#9aa0a6';

/** Class names drawn as an on/off switch when checkable. */
const TOGGLE_CLASS = /(?:Switch|Toggle)\w*$/;
const IMAGE_CLASS = /Image\w*$/;

/** Smallest text drawn, in px; smaller boxes get ellipsized text at this size. */
const MIN_TEXT_PX = 10;
/** Text height relative to the line box it sits in (Android TextViews are ~1.6× their font size tall). */
const TEXT_FILL = 0.62;

/**
 * Views for the recorded nodes, in the same tree shape and with the same ids, bounds and states.
 * Editable nodes get `field` = their node id, so a click focuses them and `input` is accepted.
 * `screenWidth` (px) caps the text size at about 16 sp on a phone (width / 24).
 */
export function recordedViews(nodes: readonly UiTreeNode[], screenWidth: number): View[] {
  const maxText = Math.max(MIN_TEXT_PX, Math.round(screenWidth / 24));
  const toView = (node: UiTreeNode): View => {
    const v: View = {
      id: node.id,
      cls: node.class,
      pkg: node.package,
      bounds: [...node.bounds],
      text: node.password ? '' : node.text,
      desc: node.desc,
      ...(node.hint === undefined ? {} : { hint: node.hint }),
      resourceId: node.resourceId,
      clickable: node.clickable || node.longClickable,
      editable: node.editable,
      checkable: node.checkable,
      checked: node.checked,
      enabled: node.enabled,
      focused: node.focused,
      scrollable: node.scrollable,
      selected: node.selected,
      paint: { kind: 'none' },
      children: node.children.map(toView),
    };
    if (node.editable) v.field = node.id;
    v.paint = wireframePaint(node, v.children.length === 0, maxText);
    return v;
  };
  return nodes.map(toView);
}

/** The recorded editable fields: their text by node id (password fields start empty), and the focused one. */
export function recordedFields(nodes: readonly UiTreeNode[]): { fields: Record<string, string>; focus: string | null } {
  const fields: Record<string, string> = {};
  let focus: string | null = null;
  const visit = (node: UiTreeNode): void => {
    if (node.editable) {
      fields[node.id] = node.password ? '' : node.text;
      if (node.focused && focus === null) focus = node.id;
    }
    node.children.forEach(visit);
  };
  nodes.forEach(visit);
  return { fields, focus };
}

function wireframePaint(node: UiTreeNode, leaf: boolean, maxText: number): Paint {
  const [l, t, r, b] = node.bounds;
  const w = r - l;
  const h = b - t;
  if (w <= 0 || h <= 0) return { kind: 'none' };
  const toggle = node.checkable && TOGGLE_CLASS.test(node.class);
  const tappable = node.clickable || node.longClickable;
  const stroke = tappable || node.checkable ? ACCENT : node.editable ? FIELD : node.scrollable ? SCROLL : leaf ? QUIET : null;
  const fill = node.checkable && !toggle && node.checked ? CHECKED_FILL : node.selected ? SELECTED_FILL : leaf && IMAGE_CLASS.test(node.class) && !node.text ? IMAGE_FILL : null;
  // A switch shows its state as a glyph; its own "ON"/"OFF" text is not repeated beside it.
  const own = node.password || toggle ? '' : node.text.trim();
  const label = own !== '' ? own : leaf && !toggle ? node.desc.trim() : '';
  const lines = label === '' ? [] : label.split('\n').filter((line) => line.trim() !== '');
  const labelSize = lines.length === 0 ? 0 : fittedTextSize(lines, w, h, maxText);
  const labelColor = !node.enabled ? DISABLED_TEXT : own !== '' ? TEXT : TEXT_2;
  if (stroke === null && fill === null && lines.length === 0 && !toggle) return { kind: 'none' };
  return { kind: 'wire', stroke, dashed: node.scrollable && !tappable, fill, lines, labelSize, labelColor, toggle, accent: ACCENT };
}

/** The largest size ≤ maxText (px) at which the lines fit the box, never below {@link MIN_TEXT_PX}. */
function fittedTextSize(lines: string[], w: number, h: number, maxText: number): number {
  const pad = Math.min(8, w / 10);
  // One line fills TEXT_FILL of the box; several lines share 90 % of it at 1.2 line spacing.
  const byHeight = lines.length === 1 ? h * TEXT_FILL : (h * 0.9) / (lines.length * 1.2);
  const widest = Math.max(...lines.map((line) => textWidth(line, 1)));
  const byWidth = widest > 0 ? (w - 2 * pad) / widest : maxText;
  // Floored to 0.1 px (what the SVG carries), so the renderer's own fit check never ellipsizes it.
  return Math.max(MIN_TEXT_PX, Math.floor(Math.min(maxText, byHeight, byWidth) * 10) / 10);
}
