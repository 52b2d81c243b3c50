/** A child of {@link h}: nodes, text (strings and numbers), or nothing (null, undefined, false). */
export type Child = Node | string | number | null | undefined | false;

/** Attribute values: `true` sets an empty attribute, `false`/`undefined` leaves it out; `on…` functions become listeners. */
export type Attributes = Record<string, string | number | boolean | undefined | ((event: Event) => void)>;

function build<E extends Element>(element: E, attrs: Attributes, children: (Child | Child[])[]): E {
  for (const [name, value] of Object.entries(attrs)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== undefined) element.setAttribute(name, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    element.append(typeof child === 'number' ? String(child) : child);
  }
  return element;
}

/** Creates an HTML element: `h('button', {type: 'button', onclick: f}, 'Cancel')`. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attributes = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  return build(document.createElement(tag), attrs, children);
}

/** Creates an SVG element (coordinates in the enclosing `viewBox` units). */
export function s<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Attributes = {}, ...children: (Child | Child[])[]): SVGElementTagNameMap[K] {
  return build(document.createElementNS('http://www.w3.org/2000/svg', tag), attrs, children);
}

/** The element with this id; throws when the page lacks it (a broken index.html). */
export function byId<E extends HTMLElement = HTMLElement>(id: string): E {
  const element = document.getElementById(id);
  if (!element) throw new Error(`index.html has no #${id}`);
  return element as E;
}

/** `123 ms`, or `1.2 s` from 1 000 ms. */
export function formatMs(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '—';
  return ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`;
}

/** Local wall-clock time of an ISO-8601 instant, e.g. `14:03:27`. */
export function formatTime(iso: string | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleTimeString();
}

/** `1 step`, `0 steps`, `3 steps`: `count` and `word` with an English plural `s` unless count is 1 (or `many`, e.g. `memories`). */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}
