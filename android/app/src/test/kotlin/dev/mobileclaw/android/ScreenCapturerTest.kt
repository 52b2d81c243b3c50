package dev.mobileclaw.android

import dev.mobileclaw.core.command.ImageFormat
import dev.mobileclaw.core.command.PhoneError
import dev.mobileclaw.core.command.PhoneErrorCode
import dev.mobileclaw.core.command.ScreenGeometry
import dev.mobileclaw.core.command.ScreenshotRequest
import kotlinx.coroutines.runBlocking
import org.junit.Assert.assertEquals
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.Robolectric
import org.robolectric.RobolectricTestRunner
import org.robolectric.annotation.Config

/**
 * Robolectric's stand-in for `takeScreenshot` hands over a 1×1 hardware buffer made without
 * `USAGE_GPU_SAMPLED_IMAGE`, which the real `Bitmap.wrapHardwareBuffer` refuses: the capturer must turn
 * that into a clean refusal. (Encoding a captured bitmap is covered by ScreenImageEncoderTest.)
 */
@RunWith(RobolectricTestRunner::class)
@Config(sdk = [35], manifest = Config.NONE)
class ScreenCapturerTest {
    @Test
    fun `a capture whose buffer cannot be read is COMMAND_FAILED, not a crash`() {
        val service = Robolectric.setupService(MobileClawAccessibilityService::class.java)
        val error = try {
            runBlocking { ScreenCapturer(service, 35).capture(ScreenshotRequest(ImageFormat.JPEG, 60, null, 10_000_000), ScreenGeometry(1080, 2400, 0)) }
            throw AssertionError("expected a PhoneError")
        } catch (e: PhoneError) {
            e
        }
        assertEquals(PhoneErrorCode.COMMAND_FAILED, error.code)
        assertEquals("the screenshot's hardware buffer could not be read", error.message)
    }
}
