import sharp from 'sharp';

/**
 * The libvips settings the simulated phone rasterises its screenshots with:
 * - `cache: false` — no operation cache. Every screenshot is a new SVG buffer, so a cached operation
 *   is never looked up again; libvips' default cache only keeps the last 100 operations alive.
 * - `concurrency: 1` — one libvips thread per image. A phone renders one screenshot at a time, and
 *   fewer threads means fewer per-thread allocator arenas. (This is already sharp's default on glibc
 *   Linux without jemalloc; it is fixed here so every platform behaves the same.)
 *
 * Both are process-wide in libvips, not per pipeline: in a gateway that embeds the phone they also
 * apply to the gateway's own use of sharp (the LLM planner's screenshot downscaling, whose inputs are
 * new buffers too, so it loses no cache hit; it then runs on one thread per image).
 */
export const RASTERISER_SETTINGS = { cache: false, concurrency: 1 } as const;

let applied = false;

/**
 * Applies {@link RASTERISER_SETTINGS} to sharp, once per process, before the phone's first screenshot
 * (a process that imports the simulator without rendering keeps sharp's defaults).
 */
export function applyRasteriserSettings(): void {
  if (applied) return;
  applied = true;
  sharp.cache(RASTERISER_SETTINGS.cache);
  sharp.concurrency(RASTERISER_SETTINGS.concurrency);
}
