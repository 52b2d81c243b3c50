package dev.mobileclaw.android

import android.accessibilityservice.AccessibilityService
import android.accessibilityservice.GestureDescription
import android.graphics.Path
import android.view.ViewConfiguration
import dev.mobileclaw.core.command.PhoneError
import dev.mobileclaw.core.command.PhoneErrorCode
import kotlinx.coroutines.suspendCancellableCoroutine
import kotlin.coroutines.resume
import kotlin.coroutines.resumeWithException

/**
 * Touch gestures through `AccessibilityService.dispatchGesture` (API 24): one stroke per gesture, in
 * screen px. Each call returns only once the system reports the gesture `onCompleted`; `onCancelled`
 * (e.g. the user touched the screen meanwhile) is the error `GESTURE_CANCELLED`, so that a tap that did
 * not happen is never reported done.
 */
class GestureRunner(private val service: AccessibilityService) {
    /** Taps at (x, y): a stroke of [TAP_MS]. */
    suspend fun tap(x: Int, y: Int) = stroke(point(x, y), TAP_MS)

    /** Presses at (x, y) for [durationMs] ms, default [defaultLongPressMs]. */
    suspend fun longPress(x: Int, y: Int, durationMs: Long?) = stroke(point(x, y), durationMs ?: defaultLongPressMs())

    /** Swipes in a straight line from (x1, y1) to (x2, y2) over [durationMs] ms, default [SWIPE_MS]. */
    suspend fun swipe(x1: Int, y1: Int, x2: Int, y2: Int, durationMs: Long?) {
        val path = Path().apply {
            moveTo(x1.toFloat(), y1.toFloat())
            lineTo(x2.toFloat(), y2.toFloat())
        }
        stroke(path, durationMs ?: SWIPE_MS)
    }

    private fun point(x: Int, y: Int) = Path().apply { moveTo(x.toFloat(), y.toFloat()) }

    /**
     * Dispatches one stroke along [path] lasting [durationMs] ms and waits for its outcome.
     * @throws PhoneError COMMAND_FAILED when the system refuses it (the service cannot perform gestures),
     * GESTURE_CANCELLED when the system cancels it.
     */
    private suspend fun stroke(path: Path, durationMs: Long) {
        val gesture = GestureDescription.Builder()
            .addStroke(GestureDescription.StrokeDescription(path, 0, durationMs))
            .build()
        suspendCancellableCoroutine { continuation ->
            val callback = object : AccessibilityService.GestureResultCallback() {
                override fun onCompleted(gestureDescription: GestureDescription) {
                    if (continuation.isActive) continuation.resume(Unit)
                }

                override fun onCancelled(gestureDescription: GestureDescription) {
                    if (continuation.isActive) continuation.resumeWithException(PhoneError(PhoneErrorCode.GESTURE_CANCELLED, "the system cancelled the gesture (was the screen touched meanwhile?)"))
                }
            }
            // A null handler: the callback runs on the service's main thread.
            if (!service.dispatchGesture(gesture, callback, null)) {
                continuation.resumeWithException(PhoneError(PhoneErrorCode.COMMAND_FAILED, "the system refused the gesture; is the MobileClaw accessibility service allowed to perform gestures?"))
            }
        }
    }

    companion object {
        /** A tap's stroke, in ms: well below the long-press timeout, long enough for every view to see it. */
        const val TAP_MS = 50L

        /** A swipe's default duration, in ms. */
        const val SWIPE_MS = 300L

        /** The default long press, in ms: the phone's long-press timeout (user-adjustable, 400 ms by default) plus 500 ms. */
        fun defaultLongPressMs(): Long = ViewConfiguration.getLongPressTimeout().toLong() + 500
    }
}
