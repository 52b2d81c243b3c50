/**
 * Where a point of the page falls on a phone's screen shown in an image element. Pure arithmetic, no
 * DOM: the caller passes the element's rendered box and the screen's size.
 */

/** An element's rendered box in CSS px (as `getBoundingClientRect()` gives it). */
export interface RenderedBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The widths of an element's border plus padding on each side, CSS px (what lies between its border box and its content box). */
export interface BoxInsets {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** A size in px. */
export interface PixelSize {
  width: number;
  height: number;
}

/** How the image fills its box (CSS `object-fit`): `fill` stretches it, `contain` keeps its aspect, centred, with bars. */
export type ImageFit = 'fill' | 'contain';

/** Where the screen is drawn inside the box: CSS px per device px on each axis, and the offset of its top-left corner. */
function drawnScreen(box: RenderedBox, device: PixelSize, fit: ImageFit): { scaleX: number; scaleY: number; offsetX: number; offsetY: number } {
  if (fit === 'fill') return { scaleX: box.width / device.width, scaleY: box.height / device.height, offsetX: 0, offsetY: 0 };
  const scale = Math.min(box.width / device.width, box.height / device.height);
  return { scaleX: scale, scaleY: scale, offsetX: (box.width - device.width * scale) / 2, offsetY: (box.height - device.height * scale) / 2 };
}

/**
 * The content box of an element whose border box is `box` (as `getBoundingClientRect()` gives it) and
 * whose border plus padding are `insets` (CSS px): the area an `<img>` draws its picture in. A box
 * narrower than its insets has no area (width or height 0).
 */
export function contentBoxOf(box: RenderedBox, insets: BoxInsets): RenderedBox {
  return {
    left: box.left + insets.left,
    top: box.top + insets.top,
    width: Math.max(0, box.width - insets.left - insets.right),
    height: Math.max(0, box.height - insets.top - insets.bottom),
  };
}

/**
 * The device pixel under page point (`clientX`, `clientY`, CSS px) on an element showing the whole
 * screen of `device` size (px) in `box`, drawn as `fit` says (`contain`: centred, as with the default
 * `object-position`). `box` is the element's content box ({@link contentBoxOf}), not its border box.
 * Pixel `x` covers device coordinates [x, x + 1): the result is the pixel the point lies in, 0 ≤ x <
 * width, 0 ≤ y < height. Undefined when the point is outside the drawn screen (on a `contain` bar, or
 * off the element), or when the box or the screen has no area.
 */
export function devicePointAt(clientX: number, clientY: number, box: RenderedBox, device: PixelSize, fit: ImageFit = 'contain'): { x: number; y: number } | undefined {
  if (!(box.width > 0 && box.height > 0 && device.width > 0 && device.height > 0)) return undefined;
  const { scaleX, scaleY, offsetX, offsetY } = drawnScreen(box, device, fit);
  const x = (clientX - box.left - offsetX) / scaleX;
  const y = (clientY - box.top - offsetY) / scaleY;
  if (!(x >= 0 && y >= 0 && x < device.width && y < device.height)) return undefined;
  return { x: Math.floor(x), y: Math.floor(y) };
}

/** The page point (CSS px) at the centre of device pixel (`x`, `y`): the inverse of {@link devicePointAt}. */
export function pagePointOf(x: number, y: number, box: RenderedBox, device: PixelSize, fit: ImageFit = 'contain'): { clientX: number; clientY: number } {
  const { scaleX, scaleY, offsetX, offsetY } = drawnScreen(box, device, fit);
  return { clientX: box.left + offsetX + (x + 0.5) * scaleX, clientY: box.top + offsetY + (y + 0.5) * scaleY };
}
