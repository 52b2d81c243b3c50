package dev.mobileclaw.android

import android.accessibilityservice.AccessibilityService
import android.content.Context
import android.os.Build
import dev.mobileclaw.core.command.DeviceDescription
import dev.mobileclaw.core.command.InputOutcome
import dev.mobileclaw.core.command.PhoneError
import dev.mobileclaw.core.command.PhoneErrorCode
import dev.mobileclaw.core.command.PhoneExecutor
import dev.mobileclaw.core.command.ScreenGeometry
import dev.mobileclaw.core.command.ScreenImage
import dev.mobileclaw.core.command.ScreenshotRequest
import dev.mobileclaw.core.command.UiTreeCapture

/**
 * The phone's [PhoneExecutor]: every command through the MobileClaw accessibility service while it is
 * connected ([service] returns it, or null while the user has not enabled it: then each command
 * answers `PERMISSION_DENIED` with where to enable it).
 *
 * - `click`/`long_press`/`swipe`: [GestureRunner] (`dispatchGesture`, API 24; waits for the outcome);
 * - `back`/`home`: `performGlobalAction` (API 16);
 * - `input`: [TextTyper] (`ACTION_SET_TEXT`, API 21; read back);
 * - `open`: [AppLauncher] (launch intent);
 * - `screenshot`: [ScreenCapturer] (`takeScreenshot`, API 30; `UNSUPPORTED` below);
 * - `ui_tree`: [NodeTreeReader] (the windows' accessibility nodes).
 */
class AccessibilityExecutor(
    private val context: Context,
    private val service: () -> AccessibilityService?,
    private val sdkInt: Int = Build.VERSION.SDK_INT,
) : PhoneExecutor {
    private val facts = DeviceFacts(context, sdkInt)
    private val reader = NodeTreeReader()

    override suspend fun describe(): DeviceDescription = facts.describe()

    override fun geometry(): ScreenGeometry = facts.geometry()

    // Started from the service's context: Android lets a bound accessibility service start activities
    // from the background, where the foreground service's context would be silently blocked.
    override suspend fun open(packageName: String) = AppLauncher(connected()).open(packageName)

    override suspend fun click(x: Int, y: Int) = GestureRunner(connected()).tap(x, y)

    override suspend fun longPress(x: Int, y: Int, durationMs: Long?) = GestureRunner(connected()).longPress(x, y, durationMs)

    override suspend fun swipe(x1: Int, y1: Int, x2: Int, y2: Int, durationMs: Long?) = GestureRunner(connected()).swipe(x1, y1, x2, y2, durationMs)

    override suspend fun input(text: String, clear: Boolean): InputOutcome = TextTyper(connected()).type(text, clear)

    override suspend fun back() = globalAction(AccessibilityService.GLOBAL_ACTION_BACK, "back")

    override suspend fun home() = globalAction(AccessibilityService.GLOBAL_ACTION_HOME, "home")

    override suspend fun screenshot(request: ScreenshotRequest): ScreenImage = ScreenCapturer(connected(), sdkInt).capture(request, facts.geometry())

    override suspend fun uiTree(): UiTreeCapture {
        val screen = facts.geometry()
        return UiTreeCapture(screen, reader.read(connected()))
    }

    private fun globalAction(action: Int, name: String) {
        if (!connected().performGlobalAction(action)) throw PhoneError(PhoneErrorCode.COMMAND_FAILED, "the system refused the $name action")
    }

    /** The connected service. @throws PhoneError PERMISSION_DENIED when the user has not enabled it. */
    private fun connected(): AccessibilityService = service() ?: throw PhoneError(
        PhoneErrorCode.PERMISSION_DENIED,
        "the MobileClaw accessibility service is off: enable it in Settings → Accessibility → MobileClaw",
    )
}
