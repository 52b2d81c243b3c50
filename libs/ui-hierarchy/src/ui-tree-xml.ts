/**
 * Importer for Android UI hierarchy XML: converts a recorded screen into `ui_tree` nodes
 * (docs/protocol.md, "ui_tree data"). Two formats are read:
 *
 * - Appium UiAutomator2 page source: `<hierarchy rotation width height>` whose elements are named by
 *   class (`<android.widget.Switch class="android.widget.Switch" …>`);
 * - plain `uiautomator dump`: `<hierarchy rotation>` whose elements are all `<node class="…" …>`.
 *
 * Both carry the same attribute set (`text`, `resource-id`, `content-desc`, `bounds="[x1,y1][x2,y2]"`,
 * `checked`, `password`, `scrollable`, …). Attribute values are decoded by XML's rules only: the five
 * predefined entities and numeric character references; no DTD is read and no other entity is expanded.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** `[left, top, right, bottom]` in device px of the recorded rotation; right/bottom exclusive. */
export type UiTreeBounds = [number, number, number, number];

/** One imported node, in the `ui_tree` node schema of wire protocol v1; every field is present. */
export interface UiTreeNode {
  /** `n0`, `n1`, … in document (depth-first, pre-order) order. */
  id: string;
  /** Android class name, e.g. `android.widget.Switch` (`""` if the dump names none). */
  class: string;
  /** Visible text (`""` if none); always `""` on password nodes. */
  text: string;
  /** Content description (`content-desc`), `""` if none. */
  desc: string;
  /** View id resource name (`resource-id`), e.g. `android:id/switch_widget`, `""` if none. */
  resourceId: string;
  package: string;
  bounds: UiTreeBounds;
  clickable: boolean;
  longClickable: boolean;
  focusable: boolean;
  focused: boolean;
  checkable: boolean;
  checked: boolean;
  /** `true` unless the dump says `enabled="false"`. */
  enabled: boolean;
  scrollable: boolean;
  selected: boolean;
  password: boolean;
  /** A field's hint (placeholder) text (Appium's `hint` attribute, API 26+); absent when the dump has none. */
  hint?: string;
  /** The dump's `editable` attribute where present, otherwise whether the class is an EditText. */
  editable: boolean;
  children: UiTreeNode[];
}

/** Rotation in quarter turns (Android `Surface.ROTATION_*`). */
export type UiTreeRotation = 0 | 1 | 2 | 3;

/** An imported hierarchy: the screen it was recorded on and the root node of each window. */
export interface UiTreeXml {
  /**
   * Screen size in px of the recorded rotation: the hierarchy's `width`/`height` attributes when
   * present (Appium), otherwise the extent of the root nodes' bounds (right and bottom edges).
   */
  screen: { width: number; height: number; rotation: UiTreeRotation };
  nodes: UiTreeNode[];
}

/** Deepest node level accepted (the hierarchy's children are level 1). Deeper input is refused. */
export const UI_HIERARCHY_MAX_DEPTH = 500;

/** Thrown by {@link parseUiHierarchyXml} for input that is not a UI hierarchy it can read. */
export class UiHierarchyParseError extends Error {
  readonly code = 'INVALID_UI_HIERARCHY' as const;

  constructor(message: string) {
    super(message);
    this.name = 'UiHierarchyParseError';
  }
}

/** One element of fast-xml-parser's `preserveOrder` output: `{ [tagName]: children, ':@'?: attributes }`. */
type OrderedItem = Record<string, unknown>;
type Attributes = Record<string, string>;

const ATTRIBUTES_KEY = ':@';

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  processEntities: false,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  // Levels counted by the parser include <hierarchy>; deeper input throws before building further.
  maxNestedTags: UI_HIERARCHY_MAX_DEPTH + 1,
});

const PREDEFINED_ENTITIES: ReadonlyMap<string, string> = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
]);

const BOUNDS_PATTERN = /^\s*\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]\s*\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]\s*$/;

/** Simple class names of Android's editable text views (EditText and its framework subclasses). */
const EDITABLE_CLASS = /(?:^|\.)(?:\w*EditText|AutoCompleteTextView|MultiAutoCompleteTextView)$/;

/**
 * Parses an Appium page source or a `uiautomator dump` into `ui_tree` nodes.
 *
 * - A leading byte-order mark, surrounding whitespace, an `<?xml …?>` declaration and comments are accepted.
 * - Node ids are `n0, n1, …` in document order; bounds come from `[x1,y1][x2,y2]` (px). A node
 *   without a `bounds` attribute (not laid out on screen) gets the empty bounds `[0, 0, 0, 0]`.
 * - Password nodes keep `password: true` and never carry their text (`text` is `""`).
 * - Absent boolean attributes are `false`, except `enabled` (absent = `true`).
 *
 * @throws {UiHierarchyParseError} (`code: 'INVALID_UI_HIERARCHY'`) for an empty or non-XML input, a root
 *   other than `<hierarchy>`, a node with malformed `bounds`, a malformed boolean,
 *   rotation or size attribute, an unknown entity reference, or nesting deeper than
 *   {@link UI_HIERARCHY_MAX_DEPTH}; the message says what and where.
 */
export function parseUiHierarchyXml(xml: string): UiTreeXml {
  if (typeof xml !== 'string') throw new UiHierarchyParseError(`UI hierarchy must be a string, got ${typeof xml}`);
  const source = xml.replace(/^\uFEFF/, '').trim();
  if (source === '') throw new UiHierarchyParseError('UI hierarchy is empty');
  const validation = XMLValidator.validate(source);
  if (validation !== true) {
    const { msg, line, col } = validation.err;
    throw new UiHierarchyParseError(`UI hierarchy is not well-formed XML: ${msg} (line ${line}${col === undefined ? '' : `, column ${col}`})`);
  }
  let document: OrderedItem[];
  try {
    document = parser.parse(source) as OrderedItem[];
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/nested tags/i.test(message)) throw new UiHierarchyParseError(`UI hierarchy is nested deeper than ${UI_HIERARCHY_MAX_DEPTH} levels`);
    throw new UiHierarchyParseError(`UI hierarchy could not be parsed: ${message}`);
  }
  const roots = document.filter((item) => tagOf(item) !== undefined);
  if (roots.length !== 1) throw new UiHierarchyParseError(`UI hierarchy must have exactly one root element, found ${roots.length}`);
  const root = roots[0] as OrderedItem;
  const rootTag = tagOf(root) as string;
  if (rootTag !== 'hierarchy') throw new UiHierarchyParseError(`UI hierarchy root must be <hierarchy>, found <${rootTag}>`);
  const attributes = attributesOf(root);
  const nodes = convertNodes(childrenOf(root, rootTag));
  return { screen: screenOf(attributes, nodes), nodes };
}

/** The element's tag, or undefined for text, comments and declarations. */
function tagOf(item: OrderedItem): string | undefined {
  for (const key of Object.keys(item)) {
    if (key === ATTRIBUTES_KEY || key.startsWith('#') || key.startsWith('?')) continue;
    return key;
  }
  return undefined;
}

function childrenOf(item: OrderedItem, tag: string): OrderedItem[] {
  const children = item[tag];
  return Array.isArray(children) ? (children as OrderedItem[]) : [];
}

function attributesOf(item: OrderedItem): Attributes {
  const attributes = item[ATTRIBUTES_KEY];
  return attributes && typeof attributes === 'object' ? (attributes as Attributes) : {};
}

/** A raw attribute value, or undefined when the attribute is absent. */
function raw(attributes: Attributes, name: string): string | undefined {
  return Object.prototype.hasOwnProperty.call(attributes, name) ? attributes[name] : undefined;
}

/** Depth-first conversion with an explicit stack, so that input depth never grows the JS call stack. */
function convertNodes(top: OrderedItem[]): UiTreeNode[] {
  const result: UiTreeNode[] = [];
  const stack: { items: OrderedItem[]; next: number; out: UiTreeNode[]; depth: number }[] = [{ items: top, next: 0, out: result, depth: 1 }];
  let counter = 0;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as (typeof stack)[number];
    if (frame.next >= frame.items.length) {
      stack.pop();
      continue;
    }
    const item = frame.items[frame.next++] as OrderedItem;
    const tag = tagOf(item);
    if (tag === undefined) continue;
    if (frame.depth > UI_HIERARCHY_MAX_DEPTH) throw new UiHierarchyParseError(`UI hierarchy is nested deeper than ${UI_HIERARCHY_MAX_DEPTH} levels`);
    const node = convertNode(`n${counter++}`, tag, attributesOf(item));
    frame.out.push(node);
    stack.push({ items: childrenOf(item, tag), next: 0, out: node.children, depth: frame.depth + 1 });
  }
  return result;
}

function convertNode(id: string, tag: string, attributes: Attributes): UiTreeNode {
  const cls = text(attributes, 'class', id, tag) || (tag === 'node' ? '' : tag);
  const where = `node ${id} <${cls || tag}>`;
  const read = (name: string): string => text(attributes, name, id, tag);
  const flag = (name: string, absent = false): boolean => bool(attributes, name, absent, where);
  const password = flag('password');
  const editableAttr = raw(attributes, 'editable');
  const hint = read('hint');
  return {
    id,
    class: cls,
    text: password ? '' : read('text'),
    desc: read('content-desc'),
    resourceId: read('resource-id'),
    package: read('package'),
    bounds: bounds(attributes, where),
    clickable: flag('clickable'),
    longClickable: flag('long-clickable'),
    focusable: flag('focusable'),
    focused: flag('focused'),
    checkable: flag('checkable'),
    checked: flag('checked'),
    enabled: flag('enabled', true),
    scrollable: flag('scrollable'),
    selected: flag('selected'),
    password,
    ...(hint === '' ? {} : { hint }),
    editable: editableAttr === undefined ? EDITABLE_CLASS.test(cls) : flag('editable'),
    children: [],
  };
}

/** A decoded string attribute (`""` when absent). */
function text(attributes: Attributes, name: string, id: string, tag: string): string {
  const value = raw(attributes, name);
  return value === undefined ? '' : decodeAttribute(value, () => `in attribute ${name} of node ${id} <${tag}>`);
}

function bool(attributes: Attributes, name: string, absent: boolean, where: string): boolean {
  const value = raw(attributes, name);
  if (value === undefined) return absent;
  const trimmed = value.trim();
  if (trimmed === 'true') return true;
  if (trimmed === 'false') return false;
  throw new UiHierarchyParseError(`${where}: ${name}=${JSON.stringify(value)} is not "true" or "false"`);
}

function bounds(attributes: Attributes, where: string): UiTreeBounds {
  const value = raw(attributes, 'bounds');
  if (value === undefined) return [0, 0, 0, 0];
  const match = BOUNDS_PATTERN.exec(value);
  if (!match) throw new UiHierarchyParseError(`${where}: bounds=${JSON.stringify(value)} is not of the form [left,top][right,bottom]`);
  const numbers = match.slice(1, 5).map(Number);
  if (!numbers.every(Number.isSafeInteger)) throw new UiHierarchyParseError(`${where}: bounds=${JSON.stringify(value)} holds a number out of range`);
  return numbers as UiTreeBounds;
}

function screenOf(attributes: Attributes, nodes: UiTreeNode[]): UiTreeXml['screen'] {
  const rotation = rotationOf(raw(attributes, 'rotation'));
  const width = raw(attributes, 'width');
  const height = raw(attributes, 'height');
  if (width !== undefined && height !== undefined) return { width: size(width, 'width'), height: size(height, 'height'), rotation };
  if (nodes.length === 0) throw new UiHierarchyParseError('UI hierarchy has no nodes and no width/height attributes: the screen size is unknown');
  const right = Math.max(...nodes.map((n) => n.bounds[2]));
  const bottom = Math.max(...nodes.map((n) => n.bounds[3]));
  if (right <= 0 || bottom <= 0) throw new UiHierarchyParseError(`UI hierarchy root bounds give no screen size (right ${right}, bottom ${bottom})`);
  return { width: right, height: bottom, rotation };
}

function rotationOf(value: string | undefined): UiTreeRotation {
  if (value === undefined) return 0;
  const trimmed = value.trim();
  if (!/^[0-3]$/.test(trimmed)) throw new UiHierarchyParseError(`<hierarchy>: rotation=${JSON.stringify(value)} is not 0, 1, 2 or 3`);
  return Number(trimmed) as UiTreeRotation;
}

function size(value: string, name: 'width' | 'height'): number {
  const trimmed = value.trim();
  const n = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || !Number.isSafeInteger(n) || n <= 0) throw new UiHierarchyParseError(`<hierarchy>: ${name}=${JSON.stringify(value)} is not a positive integer`);
  return n;
}

/**
 * Decodes an attribute value as XML does: literal tab/CR/LF become spaces (attribute-value
 * normalisation), then `&amp; &lt; &gt; &quot; &apos;` and `&#N;`/`&#xH;` references are replaced.
 * Any other `&` is an error (no DTD entities are expanded).
 */
function decodeAttribute(value: string, where: () => string): string {
  const normalised = value.replace(/\r\n|[\t\n\r]/g, ' ');
  if (!normalised.includes('&')) return normalised;
  return normalised.replace(/&([^&;]*)(;?)/g, (whole: string, name: string, semicolon: string) => {
    if (semicolon === ';') {
      const predefined = PREDEFINED_ENTITIES.get(name);
      if (predefined !== undefined) return predefined;
      const codePoint = /^#x[0-9a-fA-F]{1,8}$/.test(name) ? parseInt(name.slice(2), 16) : /^#[0-9]{1,10}$/.test(name) ? Number(name.slice(1)) : undefined;
      if (codePoint !== undefined && isXmlChar(codePoint)) return String.fromCodePoint(codePoint);
      if (codePoint !== undefined) throw new UiHierarchyParseError(`character reference ${whole} is not an XML character ${where()}`);
      throw new UiHierarchyParseError(`unknown entity reference ${whole} ${where()} (only &amp; &lt; &gt; &quot; &apos; and numeric references are read)`);
    }
    throw new UiHierarchyParseError(`unescaped "&" ${where()}`);
  });
}

/** XML 1.0 `Char`. */
function isXmlChar(cp: number): boolean {
  return cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
}
