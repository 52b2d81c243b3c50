package dev.mobileclaw.android

import android.content.Context
import android.hardware.display.DisplayManager
import android.os.Build
import android.util.DisplayMetrics
import android.view.Display
import dev.mobileclaw.core.command.Command
import dev.mobileclaw.core.command.DeviceDescription
import dev.mobileclaw.core.command.ScreenGeometry
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put

/**
 * The facts of this phone for `hello` and for frame checks, read from the framework each time (a
 * rotation or a fold changes them): the default display's real size in px of its current rotation, its
 * density and rotation (`Display.getRotation`, 0–3), the model, maker and Android version, and the
 * commands this API level can carry out ([capabilitiesFor]).
 *
 * The default display is the one the accessibility service reads and gestures land on; on a foldable
 * it is the panel in use (the logical display keeps its id when the device folds or unfolds).
 */
class DeviceFacts(context: Context, private val sdkInt: Int = Build.VERSION.SDK_INT) {
    private val displays: DisplayManager = context.requireSystemService()

    /** The default display's geometry now. @throws IllegalStateException when there is no default display. */
    fun geometry(): ScreenGeometry {
        val display = displays.getDisplay(Display.DEFAULT_DISPLAY) ?: throw IllegalStateException("no default display")
        val metrics = realMetrics(display)
        return ScreenGeometry(metrics.widthPixels, metrics.heightPixels, display.rotation)
    }

    /** The `device` object and `capabilities` of `hello`. */
    fun describe(): DeviceDescription {
        val display = displays.getDisplay(Display.DEFAULT_DISPLAY) ?: throw IllegalStateException("no default display")
        val metrics = realMetrics(display)
        val device = buildJsonObject {
            put("model", Build.MODEL)
            put("manufacturer", Build.MANUFACTURER)
            put("android", Build.VERSION.RELEASE)
            put("sdk", sdkInt)
            put("screen", buildJsonObject {
                put("width", metrics.widthPixels)
                put("height", metrics.heightPixels)
                put("densityDpi", metrics.densityDpi)
                put("rotation", display.rotation)
            })
        }
        return DeviceDescription(device, capabilitiesFor(sdkInt))
    }

    // Display.getRealMetrics is deprecated from API 31 in favour of WindowMetrics, which a service (a
    // non-visual context) may not ask for; it still reports the whole display, which is what gestures
    // and screenshots use.
    @Suppress("DEPRECATION")
    private fun realMetrics(display: Display): DisplayMetrics = DisplayMetrics().also { display.getRealMetrics(it) }

    companion object {
        /** Android 11 (API 30): `AccessibilityService.takeScreenshot` exists from here on. */
        const val SCREENSHOT_MIN_SDK = 30

        /** The commands a phone on [sdkInt] can carry out: all of protocol v1, `screenshot` only from API 30. */
        fun capabilitiesFor(sdkInt: Int): List<String> = Command.ALL.filter { it != Command.SCREENSHOT || sdkInt >= SCREENSHOT_MIN_SDK }
    }
}
