package dev.mobileclaw.android

import android.graphics.Bitmap
import dev.mobileclaw.core.command.ImageFormat
import dev.mobileclaw.core.command.ScreenGeometry
import dev.mobileclaw.core.command.ScreenImage
import dev.mobileclaw.core.command.ScreenshotRequest
import java.io.ByteArrayOutputStream

/**
 * Scales and encodes a captured screen as `screenshot` asks: never wider than `maxWidth` px (aspect
 * ratio kept, never upscaled), PNG or JPEG at `quality` (default [DEFAULT_JPEG_QUALITY]). The size
 * budget is the dispatcher's to enforce; the encoder only makes the image as asked.
 */
object ScreenImageEncoder {
    /** JPEG quality when the request names none. */
    const val DEFAULT_JPEG_QUALITY = 80

    /** Encodes [bitmap] (a software bitmap of [screen]) for [request]; recycles any scaled copy it makes. */
    fun encode(bitmap: Bitmap, screen: ScreenGeometry, request: ScreenshotRequest): ScreenImage {
        val scaled = scaledFor(bitmap, request.maxWidth)
        try {
            val out = ByteArrayOutputStream()
            val format = if (request.format == ImageFormat.PNG) Bitmap.CompressFormat.PNG else Bitmap.CompressFormat.JPEG
            val quality = if (request.format == ImageFormat.PNG) 100 else request.quality ?: DEFAULT_JPEG_QUALITY
            check(scaled.compress(format, quality, out)) { "the ${request.format.wire} encoder failed" }
            return ScreenImage(request.format, scaled.width, scaled.height, out.toByteArray(), screen)
        } finally {
            if (scaled !== bitmap) scaled.recycle()
        }
    }

    /** [bitmap] itself when it is at most [maxWidth] px wide, else a filtered downscale to that width. */
    fun scaledFor(bitmap: Bitmap, maxWidth: Int?): Bitmap {
        if (maxWidth == null || bitmap.width <= maxWidth) return bitmap
        val height = maxOf(1, Math.round(bitmap.height.toDouble() * maxWidth / bitmap.width).toInt())
        return Bitmap.createScaledBitmap(bitmap, maxWidth, height, true)
    }
}
