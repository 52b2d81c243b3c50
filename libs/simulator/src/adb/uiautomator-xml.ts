/**
 * The current screen as `uiautomator dump` writes it: one line, `<hierarchy rotation="N">` and one
 * `<node>` per view with Android's attribute set and order, bounds as `[l,t][r,b]` in px. Attribute
 * values are escaped as Android's XML serializer does (`&amp; &lt; &gt; &quot;`, and control
 * characters as numeric references), so the dump reads back through `parseUiHierarchyXml`.
 */
import type { Rotation } from '../phone-ui';
import type { UiNode } from '../view';

export const XML_DECLARATION = "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>";

/** The dump of `roots` (the windows, topmost last) on a screen turned by `rotation`. */
export function uiautomatorXml(roots: readonly UiNode[], rotation: Rotation): string {
  const out: string[] = [XML_DECLARATION, `<hierarchy rotation="${rotation}">`];
  const visit = (node: UiNode, index: number): void => {
    const [l, t, r, b] = node.bounds;
    const attributes: [string, string | boolean | number][] = [
      ['index', index],
      ['text', node.text],
      ['resource-id', node.resourceId],
      ['class', node.class],
      ['package', node.package],
      ['content-desc', node.desc],
      ['checkable', node.checkable],
      ['checked', node.checked],
      ['clickable', node.clickable],
      ['enabled', node.enabled],
      ['focusable', node.focusable],
      ['focused', node.focused],
      ['scrollable', node.scrollable],
      ['long-clickable', node.longClickable ?? false],
      ['password', node.password ?? false],
      ['selected', node.selected],
      ['bounds', `[${l},${t}][${r},${b}]`],
    ];
    const head = `<node ${attributes.map(([name, value]) => `${name}="${escapeAttribute(String(value))}"`).join(' ')}`;
    if (node.children.length === 0) {
      out.push(`${head} />`);
      return;
    }
    out.push(`${head}>`);
    node.children.forEach(visit);
    out.push('</node>');
  };
  roots.forEach(visit);
  out.push('</hierarchy>');
  return out.join('');
}

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"\u0000-\u001f]/g, (c) => {
    switch (c) {
      case '&':
        return '&amp;';
      case '<':
        return '&lt;';
      case '>':
        return '&gt;';
      case '"':
        return '&quot;';
      default:
        // XML 1.0 has no representation for the other C0 controls; Android drops them too.
        return c === '\n' || c === '\r' || c === '\t' ? `&#${c.charCodeAt(0)};` : '';
    }
  });
}
