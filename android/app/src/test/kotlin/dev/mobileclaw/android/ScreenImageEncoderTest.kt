package dev.mobileclaw.android

import android.graphics.Bitmap
import android.graphics.BitmapFactory
import android.graphics.Color
import dev.mobileclaw.core.command.ImageFormat
import dev.mobileclaw.core.command.ScreenGeometry
import dev.mobileclaw.core.command.ScreenshotRequest
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.RobolectricTestRunner
import org.robolectric.annotation.Config
import org.robolectric.annotation.GraphicsMode

@RunWith(RobolectricTestRunner::class)
@Config(sdk = [35], manifest = Config.NONE)
@GraphicsMode(GraphicsMode.Mode.NATIVE)
class ScreenImageEncoderTest {
    private val screen = ScreenGeometry(1080, 2400, 0)

    private fun screenBitmap(): Bitmap = Bitmap.createBitmap(1080, 2400, Bitmap.Config.ARGB_8888).apply { eraseColor(Color.rgb(30, 136, 229)) }

    @Test
    fun `maxWidth downscales keeping the aspect ratio, and the PNG decodes to that size`() {
        val image = ScreenImageEncoder.encode(screenBitmap(), screen, ScreenshotRequest(ImageFormat.PNG, null, 540, 10_000_000))
        assertEquals(540, image.width)
        assertEquals(1200, image.height)
        val decoded = BitmapFactory.decodeByteArray(image.bytes, 0, image.bytes.size)
        assertEquals(540, decoded.width)
        assertEquals(1200, decoded.height)
        assertEquals(Color.rgb(30, 136, 229), decoded.getPixel(270, 600))
        assertEquals(screen, image.screen)
    }

    @Test
    fun `a maxWidth above the screen never upscales`() {
        val image = ScreenImageEncoder.encode(screenBitmap(), screen, ScreenshotRequest(ImageFormat.JPEG, 70, 4000, 10_000_000))
        assertEquals(1080, image.width)
        assertEquals(2400, image.height)
        assertEquals(0xff, image.bytes[0].toInt() and 0xff)
        assertEquals(0xd8, image.bytes[1].toInt() and 0xff)
    }

    @Test
    fun `a lower JPEG quality gives fewer bytes`() {
        val noisy = screenBitmap().apply { for (x in 0 until 1080 step 3) for (y in 0 until 2400 step 7) setPixel(x, y, Color.rgb(x % 256, y % 256, (x * y) % 256)) }
        val high = ScreenImageEncoder.encode(noisy, screen, ScreenshotRequest(ImageFormat.JPEG, 95, null, 10_000_000))
        val low = ScreenImageEncoder.encode(noisy, screen, ScreenshotRequest(ImageFormat.JPEG, 20, null, 10_000_000))
        assertTrue("${low.bytes.size} < ${high.bytes.size}", low.bytes.size < high.bytes.size)
    }
}
