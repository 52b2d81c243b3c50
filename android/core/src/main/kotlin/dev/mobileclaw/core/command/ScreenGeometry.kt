package dev.mobileclaw.core.command

import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put

/**
 * The screen as coordinates refer to it: [width] and [height] in px of the current rotation, and
 * [rotation] in quarter turns (0–3, Android's `Surface.ROTATION_0…ROTATION_270`). This is what a
 * `frameId` is bound to: a change of any of the three makes earlier frames stale.
 */
data class ScreenGeometry(val width: Int, val height: Int, val rotation: Int) {
    init {
        require(width > 0 && height > 0) { "screen size must be positive, got ${width}x$height" }
        require(rotation in 0..3) { "rotation must be 0-3 quarter turns, got $rotation" }
    }

    /** True when (x, y) in px lies on the screen: `0 ≤ x < width`, `0 ≤ y < height`. */
    fun contains(x: Int, y: Int): Boolean = x in 0 until width && y in 0 until height

    /** `{"width":…,"height":…,"rotation":…}`, the `screen` of screenshot and ui_tree data. */
    fun toJson(): JsonObject = buildJsonObject {
        put("width", width)
        put("height", height)
        put("rotation", rotation)
    }
}
