package dev.mobileclaw.android

import android.accessibilityservice.AccessibilityService
import android.graphics.Bitmap
import android.view.Display
import dev.mobileclaw.core.command.PhoneError
import dev.mobileclaw.core.command.PhoneErrorCode
import dev.mobileclaw.core.command.ScreenGeometry
import dev.mobileclaw.core.command.ScreenImage
import dev.mobileclaw.core.command.ScreenshotRequest
import kotlinx.coroutines.delay
import kotlinx.coroutines.suspendCancellableCoroutine
import java.util.concurrent.Executor
import kotlin.coroutines.resume
import kotlin.coroutines.resumeWithException

/**
 * Screenshots through `AccessibilityService.takeScreenshot` (API 30): the default display as a hardware
 * buffer, copied to a software bitmap, then scaled and encoded by [ScreenImageEncoder]. Below API 30
 * there is no such call: `UNSUPPORTED`, and `hello` does not announce `screenshot`. The system allows
 * one screenshot per app about every 333 ms; a capture refused for that is retried once after
 * [RETRY_INTERVAL_MS].
 */
class ScreenCapturer(private val service: AccessibilityService, private val sdkInt: Int) {
    /**
     * Captures and encodes the screen for [request]; [screen] is the geometry at capture time.
     * @throws PhoneError UNSUPPORTED below API 30; COMMAND_FAILED when the system cannot capture (e.g. a
     * secure window is shown) — the message names the system's error code.
     */
    suspend fun capture(request: ScreenshotRequest, screen: ScreenGeometry): ScreenImage {
        if (sdkInt < DeviceFacts.SCREENSHOT_MIN_SDK) {
            throw PhoneError(PhoneErrorCode.UNSUPPORTED, "screenshot needs Android 11 (API 30) or later; this phone runs API $sdkInt")
        }
        val bitmap = try {
            take()
        } catch (e: Refused) {
            if (e.errorCode != AccessibilityService.ERROR_TAKE_SCREENSHOT_INTERVAL_TIME_SHORT) throw e.toPhoneError()
            delay(RETRY_INTERVAL_MS)
            try { take() } catch (again: Refused) { throw again.toPhoneError() }
        }
        try {
            return ScreenImageEncoder.encode(bitmap, screen, request)
        } finally {
            bitmap.recycle()
        }
    }

    private class Refused(val errorCode: Int) : Exception("takeScreenshot failed with error $errorCode") {
        fun toPhoneError() = PhoneError(PhoneErrorCode.COMMAND_FAILED, "the system could not take the screenshot: ${errorName(errorCode)}")
    }

    /** One capture as a software ARGB_8888 bitmap (the caller recycles it). */
    private suspend fun take(): Bitmap = suspendCancellableCoroutine { continuation ->
        val direct = Executor { it.run() }
        service.takeScreenshot(Display.DEFAULT_DISPLAY, direct, object : AccessibilityService.TakeScreenshotCallback {
            override fun onSuccess(screenshot: AccessibilityService.ScreenshotResult) {
                val buffer = screenshot.hardwareBuffer
                val software = try {
                    val hardware = Bitmap.wrapHardwareBuffer(buffer, screenshot.colorSpace)
                    hardware?.copy(Bitmap.Config.ARGB_8888, false).also { hardware?.recycle() }
                } catch (e: RuntimeException) {
                    null
                } finally {
                    buffer.close()
                }
                when {
                    software == null -> if (continuation.isActive) continuation.resumeWithException(PhoneError(PhoneErrorCode.COMMAND_FAILED, "the screenshot's hardware buffer could not be read"))
                    !continuation.isActive -> software.recycle()
                    else -> continuation.resume(software)
                }
            }

            override fun onFailure(errorCode: Int) {
                if (continuation.isActive) continuation.resumeWithException(Refused(errorCode))
            }
        })
    }

    companion object {
        /** Wait before the one retry of a capture refused as too soon after the last one, in ms. */
        const val RETRY_INTERVAL_MS = 350L

        /** The name of `AccessibilityService.ERROR_TAKE_SCREENSHOT_*` [code]. */
        fun errorName(code: Int): String = when (code) {
            AccessibilityService.ERROR_TAKE_SCREENSHOT_INTERNAL_ERROR -> "ERROR_TAKE_SCREENSHOT_INTERNAL_ERROR"
            AccessibilityService.ERROR_TAKE_SCREENSHOT_NO_ACCESSIBILITY_ACCESS -> "ERROR_TAKE_SCREENSHOT_NO_ACCESSIBILITY_ACCESS (the service may not take screenshots)"
            AccessibilityService.ERROR_TAKE_SCREENSHOT_INTERVAL_TIME_SHORT -> "ERROR_TAKE_SCREENSHOT_INTERVAL_TIME_SHORT (asked again too soon)"
            AccessibilityService.ERROR_TAKE_SCREENSHOT_INVALID_DISPLAY -> "ERROR_TAKE_SCREENSHOT_INVALID_DISPLAY"
            AccessibilityService.ERROR_TAKE_SCREENSHOT_INVALID_WINDOW -> "ERROR_TAKE_SCREENSHOT_INVALID_WINDOW"
            AccessibilityService.ERROR_TAKE_SCREENSHOT_SECURE_WINDOW -> "ERROR_TAKE_SCREENSHOT_SECURE_WINDOW (a secure window is shown)"
            else -> "error $code"
        }
    }
}
