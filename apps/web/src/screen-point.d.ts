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
/** A size in px. */
export interface PixelSize {
    width: number;
    height: number;
}
/** How the image fills its box (CSS `object-fit`): `fill` stretches it, `contain` keeps its aspect, centred, with bars. */
export type ImageFit = 'fill' | 'contain';
/**
 * The device pixel under page point (`clientX`, `clientY`, CSS px) on an element showing the whole
 * screen of `device` size (px) in `box`, drawn as `fit` says (`contain`: centred, as with the default
 * `object-position`). The element must have no padding or border (its box is the drawn area's frame).
 * Pixel `x` covers device coordinates [x, x + 1): the result is the pixel the point lies in, 0 ≤ x <
 * width, 0 ≤ y < height. Undefined when the point is outside the drawn screen (on a `contain` bar, or
 * off the element), or when the box or the screen has no area.
 */
export declare function devicePointAt(clientX: number, clientY: number, box: RenderedBox, device: PixelSize, fit?: ImageFit): {
    x: number;
    y: number;
} | undefined;
/** The page point (CSS px) at the centre of device pixel (`x`, `y`): the inverse of {@link devicePointAt}. */
export declare function pagePointOf(x: number, y: number, box: RenderedBox, device: PixelSize, fit?: ImageFit): {
    clientX: number;
    clientY: number;
};
//# sourceMappingURL=screen-point.d.ts.map