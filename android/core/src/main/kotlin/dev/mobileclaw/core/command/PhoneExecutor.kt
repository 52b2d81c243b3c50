package dev.mobileclaw.core.command

import kotlinx.serialization.json.JsonObject

/**
 * What a phone says about itself in `hello` (docs/protocol.md §3): [device] is the `device` object
 * (model, manufacturer, android, screen with width/height px, densityDpi, rotation); [capabilities]
 * the commands this phone can actually carry out.
 */
data class DeviceDescription(val device: JsonObject, val capabilities: List<String>)

/** What `screenshot` asks of the executor: the command's encoding and size, and the budget the reply must fit. */
data class ScreenshotRequest(
    val format: ImageFormat,
    /** JPEG quality 1–100; null: the executor's default. Ignored for PNG. */
    val quality: Int?,
    /** Largest width of the encoded image in px (downscale keeping the aspect ratio, never upscale); null: full size. */
    val maxWidth: Int?,
    /** Largest size of the encoded image in bytes that still fits the gateway's frame limit once base64-encoded. */
    val maxImageBytes: Int,
)

/** An encoded screen capture: [bytes] of [format], [width]×[height] px, taken on [screen]. */
class ScreenImage(
    val format: ImageFormat,
    val width: Int,
    val height: Int,
    val bytes: ByteArray,
    val screen: ScreenGeometry,
)

/** The accessibility tree of [screen]: the root node of each window, top-level windows first. */
data class UiTreeCapture(val screen: ScreenGeometry, val nodes: List<UiNode>)

/**
 * What `input` did: the focused field's [text] read back after typing ("" for a password field),
 * whether it is what was asked ([verified]: equal with `clear`, containing the text without), and,
 * when it could not be read back, why ([verifyError]).
 */
data class InputOutcome(val text: String, val verified: Boolean, val verifyError: String? = null)

/**
 * Performs the commands of one phone: what the [CommandDispatcher] hands each validated [Command] to.
 * The link owns the wire (hello, heartbeat, replies, reconnects, deadlines, frame ids); the executor
 * owns the device. Every method may suspend; it is cancelled when the action's deadline passes or the
 * gateway cancels it, and must then stop waiting for the device at once. A refusal is a [PhoneError]
 * (its code and message go on the wire); any other exception is answered `INTERNAL_ERROR`.
 */
interface PhoneExecutor {
    /** The facts for `hello`, read at every connection. @throws Exception when the device cannot be described (the connection is retried later). */
    suspend fun describe(): DeviceDescription

    /** The screen geometry now (px of the current rotation), for `frameId` and coordinate checks. */
    fun geometry(): ScreenGeometry

    /** Launches [packageName]'s launcher activity. @throws PhoneError APP_NOT_FOUND */
    suspend fun open(packageName: String)

    /** Taps at (x, y) px; returns once the gesture completed. @throws PhoneError GESTURE_CANCELLED, COMMAND_FAILED */
    suspend fun click(x: Int, y: Int)

    /** Presses and holds at (x, y) px for [durationMs] (null: the phone's default). @throws PhoneError GESTURE_CANCELLED, COMMAND_FAILED */
    suspend fun longPress(x: Int, y: Int, durationMs: Long?)

    /** Swipes from (x1, y1) to (x2, y2) px over [durationMs] (null: the phone's default). @throws PhoneError GESTURE_CANCELLED, COMMAND_FAILED */
    suspend fun swipe(x1: Int, y1: Int, x2: Int, y2: Int, durationMs: Long?)

    /** Types [text] into the focused editable node, replacing its text when [clear]. @throws PhoneError NO_FOCUSED_INPUT, COMMAND_FAILED */
    suspend fun input(text: String, clear: Boolean): InputOutcome

    /** Back. @throws PhoneError COMMAND_FAILED */
    suspend fun back()

    /** Home. @throws PhoneError COMMAND_FAILED */
    suspend fun home()

    /** Captures and encodes the screen within [request]'s size and budget. @throws PhoneError UNSUPPORTED, PAYLOAD_TOO_LARGE, COMMAND_FAILED */
    suspend fun screenshot(request: ScreenshotRequest): ScreenImage

    /** The accessibility tree of the screen. @throws PhoneError PERMISSION_DENIED when nothing can be read */
    suspend fun uiTree(): UiTreeCapture
}

/** Called around every command the dispatcher runs (e.g. to hold a wake lock for exactly that long). */
interface ExecutionHooks {
    /** [command] starts; it will be abandoned after [timeoutMs] ms at most (null: no deadline). */
    fun started(command: Command, timeoutMs: Long?)

    /** [command] ended, whatever the outcome (success, refusal, deadline, cancel). */
    fun finished(command: Command)

    companion object {
        /** Hooks that do nothing. */
        val NONE: ExecutionHooks = object : ExecutionHooks {
            override fun started(command: Command, timeoutMs: Long?) = Unit
            override fun finished(command: Command) = Unit
        }
    }
}
