/**
 * Draws a view tree as SVG (rasterised by sharp/librsvg in screenshot.ts). Each view is drawn
 * inside its own bounds (a partly visible view: its whole box, clipped to the visible bounds),
 * parents before children, so the picture matches `ui_tree` exactly.
 */
import { ellipsize, ellipsizeStart, textWidth } from './text-metrics';
import type { Paint, View } from './view';

const FONT = "'DejaVu Sans', sans-serif";

// XML 1.0 forbids most C0 controls even as character references, and a lone surrogate is not
// a character: either would make librsvg reject the whole document.
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Escapes text for SVG content and attributes; characters XML cannot carry become U+FFFD. */
export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML, '\ufffd')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function n(value: number): string {
  return String(Math.round(value * 10) / 10);
}

interface TextOptions {
  size: number;
  color: string;
  bold?: boolean;
  anchor?: 'start' | 'middle';
}

function text(x: number, baseline: number, content: string, o: TextOptions): string {
  const weight = o.bold ? ' font-weight="bold"' : '';
  const anchor = o.anchor === 'middle' ? ' text-anchor="middle"' : '';
  return `<text x="${n(x)}" y="${n(baseline)}" font-family="${FONT}" font-size="${n(o.size)}" fill="${o.color}"${weight}${anchor} xml:space="preserve">${escapeXml(content)}</text>`;
}

/** Baseline that centres a line of `size` px text vertically between top and bottom. */
function centredBaseline(top: number, bottom: number, size: number): number {
  return (top + bottom) / 2 + size * 0.36;
}

class SvgWriter {
  private readonly parts: string[] = [];
  /** Drawn after everything else (wireframe labels stay readable over later siblings' boxes). */
  private readonly overlays: string[] = [];
  private gradients = 0;
  private clips = 0;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {}

  push(s: string): void {
    this.parts.push(s);
  }

  overlay(s: string): void {
    this.overlays.push(s);
  }

  /** Defines a clip path to the box `[l, t, r, b]` (px) and returns its reference. */
  clip([l, t, r, b]: View['bounds']): string {
    const id = `c${++this.clips}`;
    this.parts.push(`<defs><clipPath id="${id}"><rect x="${l}" y="${t}" width="${r - l}" height="${b - t}"/></clipPath></defs>`);
    return `url(#${id})`;
  }

  gradient(from: string, to: string): string {
    const id = `g${++this.gradients}`;
    this.parts.push(`<defs><linearGradient id="${id}" x1="0" y1="0" x2="0.3" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>`);
    return `url(#${id})`;
  }

  toString(): string {
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${this.width}" height="${this.height}" viewBox="0 0 ${this.width} ${this.height}">${this.parts.join('')}${this.overlays.join('')}</svg>`;
  }
}

function draw(out: SvgWriter, v: View): void {
  if (v.drawBounds && v.paint.kind !== 'none') {
    // A partly visible view is drawn whole, clipped to its visible bounds.
    out.push(`<g clip-path="${out.clip(v.bounds)}">`);
    paint(out, v, v.paint);
    out.push('</g>');
  } else {
    paint(out, v, v.paint);
  }
  for (const child of v.children) draw(out, child);
}

function paint(out: SvgWriter, v: View, p: Paint): void {
  const [l, t, r, b] = v.drawBounds ?? v.bounds;
  const w = r - l;
  const h = b - t;
  const cx = (l + r) / 2;
  const cy = (t + b) / 2;
  switch (p.kind) {
    case 'none':
      return;
    case 'fill': {
      const fill = p.gradient ? out.gradient(p.gradient[0], p.gradient[1]) : p.color;
      out.push(`<rect x="${l}" y="${t}" width="${w}" height="${h}" rx="${p.radius ?? 0}" fill="${fill}"/>`);
      return;
    }
    case 'row':
      out.push(`<rect x="${l}" y="${t}" width="${w}" height="${h}" fill="#ffffff"/>`);
      if (p.divider) out.push(`<rect x="${l}" y="${b - 2}" width="${w}" height="2" fill="#e8eaed"/>`);
      return;
    case 'text': {
      const shown = ellipsize(v.text, p.size, w);
      const x = p.align === 'middle' ? cx : l;
      out.push(text(x, centredBaseline(t, b, p.size), shown, { size: p.size, color: p.color, bold: p.bold ?? false, anchor: p.align ?? 'start' }));
      return;
    }
    case 'statusbar':
      out.push(`<rect x="${l}" y="${t}" width="${w}" height="${h}" fill="${p.color}"/>`);
      return;
    case 'navbar':
      out.push(`<rect x="${l}" y="${t}" width="${w}" height="${h}" fill="#000000"/>`);
      return;
    case 'nav-button': {
      const s = h * 0.18;
      const style = 'fill="none" stroke="#ffffff" stroke-width="5" stroke-linejoin="round"';
      if (p.glyph === 'back') out.push(`<path d="M${n(cx + s)} ${n(cy - s)} L${n(cx - s)} ${n(cy)} L${n(cx + s)} ${n(cy + s)} Z" ${style}/>`);
      else if (p.glyph === 'home') out.push(`<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(s)}" ${style}/>`);
      else out.push(`<rect x="${n(cx - s * 0.9)}" y="${n(cy - s * 0.9)}" width="${n(s * 1.8)}" height="${n(s * 1.8)}" rx="4" ${style}/>`);
      return;
    }
    case 'up-button': {
      const s = h * 0.16;
      out.push(
        `<path d="M${n(cx + s)} ${n(cy)} L${n(cx - s)} ${n(cy)} M${n(cx - s * 0.1)} ${n(cy - s * 0.9)} L${n(cx - s)} ${n(cy)} L${n(cx - s * 0.1)} ${n(cy + s * 0.9)}" fill="none" stroke="${p.color}" stroke-width="6" stroke-linecap="round" stroke-linejoin="round"/>`,
      );
      return;
    }
    case 'battery': {
      const bw = w * 0.8;
      out.push(`<rect x="${n(l)}" y="${n(t)}" width="${n(bw)}" height="${n(h)}" rx="4" fill="none" stroke="${p.color}" stroke-width="3"/>`);
      out.push(`<rect x="${n(l + 5)}" y="${n(t + 5)}" width="${n(bw - 10)}" height="${n(h - 10)}" fill="${p.color}"/>`);
      out.push(`<rect x="${n(l + bw)}" y="${n(cy - h * 0.2)}" width="${n(w * 0.12)}" height="${n(h * 0.4)}" fill="${p.color}"/>`);
      return;
    }
    case 'switch': {
      const trackH = h * 0.42;
      switchGlyph(out, cx - (trackH * 1.9) / 2, cy, trackH, v.checked, p.accent);
      return;
    }
    case 'wire':
      wireframe(out, v, p);
      return;
    case 'edit': {
      const border = v.focused ? p.accent : '#dadce0';
      if (p.underline) {
        out.push(`<rect x="${l}" y="${b - (v.focused ? 5 : 3)}" width="${w}" height="${v.focused ? 5 : 3}" fill="${border}"/>`);
      } else {
        out.push(`<rect x="${n(l + 1.5)}" y="${n(t + 1.5)}" width="${n(w - 3)}" height="${n(h - 3)}" rx="${n(h / 2)}" fill="#ffffff" stroke="${border}" stroke-width="${v.focused ? 4 : 3}"/>`);
      }
      const pad = p.underline ? 0 : Math.min(h / 2, p.size);
      const room = w - 2 * pad - p.size * 0.4;
      const baseline = centredBaseline(t, b, p.size);
      if (v.text === '') {
        out.push(text(l + pad, baseline, ellipsize(v.hint ?? '', p.size, room), { size: p.size, color: '#80868b' }));
      } else {
        // Like a real field scrolled to its cursor: the end of the text stays visible.
        out.push(text(l + pad, baseline, ellipsizeStart(v.text, p.size, room), { size: p.size, color: '#202124' }));
      }
      if (v.focused) {
        const x = l + pad + Math.min(room, textWidth(v.text, p.size)) + 2;
        out.push(`<rect x="${n(x)}" y="${n(cy - p.size * 0.7)}" width="4" height="${n(p.size * 1.4)}" fill="${p.accent}"/>`);
      }
      return;
    }
    case 'button': {
      const fill = v.enabled ? p.color : '#dadce0';
      out.push(`<rect x="${l}" y="${t}" width="${w}" height="${h}" rx="${n(Math.min(h / 2, w / 2))}" fill="${fill}"/>`);
      out.push(text(cx, centredBaseline(t, b, p.size), ellipsize(v.text, p.size, w - p.size), { size: p.size, color: p.textColor, bold: true, anchor: 'middle' }));
      return;
    }
    case 'icon': {
      const labelSize = p.size * 0.25;
      const top = t + Math.max(0, (h - p.size - labelSize * 1.8) / 2);
      out.push(`<rect x="${n(cx - p.size / 2)}" y="${n(top)}" width="${n(p.size)}" height="${n(p.size)}" rx="${n(p.size * 0.28)}" fill="${p.color}"/>`);
      out.push(text(cx, top + p.size * 0.5 + p.size * 0.18, p.glyph, { size: p.size * 0.5, color: '#ffffff', bold: true, anchor: 'middle' }));
      out.push(text(cx, top + p.size + labelSize * 1.45, ellipsize(v.text, labelSize, w), { size: labelSize, color: '#ffffff', anchor: 'middle' }));
      return;
    }
    case 'avatar': {
      const radius = Math.min(w, h) / 2;
      out.push(`<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(radius)}" fill="${p.color}"/>`);
      out.push(text(cx, cy + radius * 0.36, p.glyph, { size: radius, color: '#ffffff', anchor: 'middle' }));
      return;
    }
    case 'bubble': {
      const fill = p.mine ? p.accent : '#e8eaed';
      const color = p.mine ? '#ffffff' : '#202124';
      out.push(`<rect x="${l}" y="${t}" width="${w}" height="${h}" rx="${n(Math.min(h / 2, p.size * 1.2))}" fill="${fill}"/>`);
      p.lines.forEach((line, i) => {
        const top = t + p.padY + i * p.lineHeight;
        // Lines scrolled out of a clipped bubble are not drawn at all (a long message has hundreds).
        if (top + p.lineHeight <= v.bounds[1] || top >= v.bounds[3]) return;
        out.push(text(l + p.padX, centredBaseline(top, top + p.lineHeight, p.size), line, { size: p.size, color }));
      });
      return;
    }
  }
}

/** A Material-style switch: a track of height `trackH` px starting at x0, the thumb at the end when `on`. */
function switchGlyph(out: SvgWriter, x0: number, cy: number, trackH: number, on: boolean, accent: string): void {
  const trackW = trackH * 1.9;
  const thumbR = trackH * 0.62;
  if (on) {
    out.push(`<rect x="${n(x0)}" y="${n(cy - trackH / 2)}" width="${n(trackW)}" height="${n(trackH)}" rx="${n(trackH / 2)}" fill="${accent}" fill-opacity="0.45"/>`);
    out.push(`<circle cx="${n(x0 + trackW - trackH / 2)}" cy="${n(cy)}" r="${n(thumbR)}" fill="${accent}"/>`);
  } else {
    out.push(`<rect x="${n(x0)}" y="${n(cy - trackH / 2)}" width="${n(trackW)}" height="${n(trackH)}" rx="${n(trackH / 2)}" fill="#bdc1c6"/>`);
    out.push(`<circle cx="${n(x0 + trackH / 2)}" cy="${n(cy)}" r="${n(thumbR)}" fill="#f8f9fa" stroke="#9aa0a6" stroke-width="2"/>`);
  }
}

/**
 * A replayed node: box, optional switch glyph at the right end, and its text lines from the left
 * (drawn on top of all boxes: a recording does not say which views are opaque).
 */
function wireframe(out: SvgWriter, v: View, p: Extract<Paint, { kind: 'wire' }>): void {
  const [l, t, r, b] = v.bounds;
  const w = r - l;
  const h = b - t;
  const cy = (t + b) / 2;
  if (p.fill !== null || p.stroke !== null) {
    const stroke = p.stroke === null ? '' : ` stroke="${p.stroke}" stroke-width="2"${p.dashed ? ' stroke-dasharray="12 8"' : ''}`;
    out.push(`<rect x="${n(l + 1)}" y="${n(t + 1)}" width="${n(Math.max(0, w - 2))}" height="${n(Math.max(0, h - 2))}" fill="${p.fill ?? 'none'}"${stroke}/>`);
  }
  let textRight = r;
  if (p.toggle) {
    const trackH = Math.min(h * 0.5, w * 0.3, 60);
    const trackW = trackH * 1.9;
    // A switch widget alone is centred; one that spans its label's row sits at the row's end.
    const x0 = w < trackW * 1.6 ? l + (w - trackW) / 2 : r - trackW - trackH * 0.5;
    switchGlyph(out, x0, cy, trackH, v.checked, p.accent);
    textRight = x0;
  }
  if (p.lines.length === 0) return;
  const pad = Math.min(8, w / 10);
  const room = textRight - l - 2 * pad;
  if (room <= 0) return;
  const lineHeight = p.labelSize * 1.2;
  const shown = p.lines.slice(0, Math.max(1, Math.floor(h / lineHeight)));
  const top = cy - (shown.length * lineHeight) / 2;
  shown.forEach((line, i) => {
    const baseline = centredBaseline(top + i * lineHeight, top + (i + 1) * lineHeight, p.labelSize);
    out.overlay(text(l + pad, baseline, ellipsize(line, p.labelSize, room), { size: p.labelSize, color: p.labelColor }));
  });
}

/** An SVG document of `width`x`height` px showing the views (first = bottom-most). */
export function renderSvg(views: readonly View[], width: number, height: number): string {
  const out = new SvgWriter(width, height);
  out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  for (const v of views) draw(out, v);
  return out.toString();
}
