/** A width and height, in px. */
export interface PixelSize {
  width: number;
  height: number;
}

/**
 * The pixel space a model or client reads and answers in, and its mapping to device px. Pure math.
 *
 * For a model that sees the screen it is the downscaled image it was sent (e.g. 576×1280 for a
 * 1080×2400 screen, or the image of an MCP `get_screen` result); otherwise it is the screen itself
 * (identity). Each axis scales by `screen / space` on its own, so a rounding difference in the image's
 * aspect ratio never shifts a point.
 */
export class CoordinateSpace {
  private constructor(
    /** Size of the space the model uses, in its px. */
    readonly size: PixelSize,
    /** Size of the screen, in device px (current rotation). */
    readonly screen: PixelSize,
  ) {}

  /** The screen's own px: no scaling. */
  static ofScreen(screen: PixelSize): CoordinateSpace {
    return new CoordinateSpace({ width: screen.width, height: screen.height }, screen);
  }

  /** The px of an image of the whole screen, `image` px large. */
  static ofImage(image: PixelSize, screen: PixelSize): CoordinateSpace {
    return new CoordinateSpace({ width: image.width, height: image.height }, screen);
  }

  get isScreen(): boolean {
    return this.size.width === this.screen.width && this.size.height === this.screen.height;
  }

  /**
   * A point given in this space → device px: scaled per axis, rounded to the nearest px, clamped to
   * `0 ≤ x < screen.width`, `0 ≤ y < screen.height`.
   */
  toDevice(x: number, y: number): [number, number] {
    return [
      scale(x, this.screen.width / this.size.width, this.screen.width),
      scale(y, this.screen.height / this.size.height, this.screen.height),
    ];
  }

  /** A device point → this space (rounded and clamped), to show the model earlier coordinates. */
  fromDevice(x: number, y: number): [number, number] {
    return [
      scale(x, this.size.width / this.screen.width, this.size.width),
      scale(y, this.size.height / this.screen.height, this.size.height),
    ];
  }

  /** Device bounds `[left, top, right, bottom]` → this space (each edge rounded, never past the space's size). */
  boundsFromDevice(bounds: readonly [number, number, number, number]): [number, number, number, number] {
    const sx = this.size.width / this.screen.width;
    const sy = this.size.height / this.screen.height;
    return [
      clamp(Math.round(bounds[0] * sx), 0, this.size.width),
      clamp(Math.round(bounds[1] * sy), 0, this.size.height),
      clamp(Math.round(bounds[2] * sx), 0, this.size.width),
      clamp(Math.round(bounds[3] * sy), 0, this.size.height),
    ];
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function scale(value: number, factor: number, extent: number): number {
  return clamp(Math.round(value * factor), 0, extent - 1);
}
