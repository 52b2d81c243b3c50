import type { UiTreeNode } from '@mobileclaw/ui-hierarchy';

/** The node fields the specs match on (the `ui_tree` node schema of wire protocol v1 has them all). */
export type ScreenNode = Pick<UiTreeNode, 'text' | 'desc' | 'class' | 'bounds'> & { children?: ScreenNode[] };

/**
 * The first node, depth-first (pre-order), that `match` accepts on `deviceId`'s current screen, read
 * with the `ui_tree` command through the REST API at `base` (`http://host:port`). The command must be
 * answered 200 (a failed expectation otherwise); throws `Error('no such node on the screen')` when no
 * node matches.
 */
export async function findScreenNode(base: string, deviceId: string, match: (node: ScreenNode) => boolean): Promise<ScreenNode> {
  const response = await fetch(`${base}/api/devices/${deviceId}/commands`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ command: 'ui_tree' }) });
  expect(response.status).toBe(200);
  const stack = [...((await response.json()) as { data: { nodes: ScreenNode[] } }).data.nodes];
  while (stack.length > 0) {
    const node = stack.shift()!;
    if (match(node)) return node;
    stack.unshift(...(node.children ?? []));
  }
  throw new Error('no such node on the screen');
}
