import type { UiNode, UiTreeData } from '@mobileclaw/domain';

/** Flags an outline line names, in this order, when the node has them. */
const FLAGS = ['clickable', 'longClickable', 'editable', 'scrollable', 'checkable', 'checked', 'selected', 'focused', 'password'] as const;
/** Longest text or description quoted in an outline line, in characters (code points). */
const MAX_QUOTED_CHARS = 80;

/**
 * A UI tree as text for a model: a header (phone, frame, screen size in px), then one line per node
 * that says something — a text, description, hint or resource id, or a flag such as `clickable` —
 * indented by depth: `[id] class "text" desc="…" id=… (left,top,right,bottom) clickable`. Nodes that
 * say nothing (layout containers) are left out, their children kept.
 */
export function describeUiTree(deviceId: string, tree: UiTreeData): string {
  const header = [`UI tree of ${deviceId}`];
  if (tree.frameId !== undefined) header.push(`frameId ${tree.frameId}`);
  if (tree.screen) header.push(`screen ${tree.screen.width}×${tree.screen.height} px`);
  const lines = [`${header.join(', ')}; bounds in device px:`];
  const visit = (node: UiNode, depth: number): void => {
    const line = nodeLine(node);
    if (line !== undefined) lines.push(`${'  '.repeat(depth)}${line}`);
    for (const child of node.children ?? []) visit(child, line === undefined ? depth : depth + 1);
  };
  for (const node of tree.nodes) visit(node, 0);
  return lines.join('\n');
}

function nodeLine(node: UiNode): string | undefined {
  const flags: string[] = FLAGS.filter((flag) => node[flag] === true);
  if (node.enabled === false) flags.push('disabled');
  const said = [node.text, node.desc, node.hint, node.resourceId].some((value) => value !== undefined && value !== '');
  if (!said && flags.length === 0) return undefined;
  const parts = [`[${node.id}]`];
  if (node.class) parts.push(node.class.slice(node.class.lastIndexOf('.') + 1));
  if (node.text) parts.push(JSON.stringify(cut(node.text)));
  if (node.desc) parts.push(`desc=${JSON.stringify(cut(node.desc))}`);
  if (node.hint) parts.push(`hint=${JSON.stringify(cut(node.hint))}`);
  if (node.resourceId) parts.push(`id=${node.resourceId}`);
  parts.push(`(${node.bounds.join(',')})`);
  parts.push(...flags);
  return parts.join(' ');
}

function cut(text: string): string {
  const chars = [...text];
  return chars.length <= MAX_QUOTED_CHARS ? text : `${chars.slice(0, MAX_QUOTED_CHARS).join('')}…`;
}
