package dev.mobileclaw.core.testing

import dev.mobileclaw.core.command.Bounds
import dev.mobileclaw.core.command.Command
import dev.mobileclaw.core.command.DeviceDescription
import dev.mobileclaw.core.command.ImageFormat
import dev.mobileclaw.core.command.InputOutcome
import dev.mobileclaw.core.command.PhoneError
import dev.mobileclaw.core.command.PhoneErrorCode
import dev.mobileclaw.core.command.PhoneExecutor
import dev.mobileclaw.core.command.ScreenGeometry
import dev.mobileclaw.core.command.ScreenImage
import dev.mobileclaw.core.command.ScreenshotRequest
import dev.mobileclaw.core.command.UiNode
import dev.mobileclaw.core.command.UiTreeCapture
import kotlinx.coroutines.CompletableDeferred
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import java.awt.Color
import java.awt.image.BufferedImage
import java.io.ByteArrayOutputStream
import java.util.Collections
import javax.imageio.ImageIO

/**
 * A phone for tests: records every command it performs (in order, as [Command]s), keeps a small
 * scripted screen — the launcher until `open` starts an app, then that app's screen with one text field
 * that `input` types into — and lets a test change the geometry (a rotation), hold a command until
 * released ([gate]), make the screenshot any size ([screenshotBytes]) or refuse commands ([failWith]).
 */
class RecordingExecutor(
    var screen: ScreenGeometry = ScreenGeometry(1080, 2400, 0),
    /** Packages `open` can launch. */
    private val installed: Set<String> = setOf("com.android.settings"),
) : PhoneExecutor {
    /** Every command performed, in order (including refused ones that reached the executor). */
    val performed: MutableList<Command> = Collections.synchronizedList(mutableListOf())

    /** When set, the next command suspends until it is completed (or cancelled). */
    @Volatile var gate: CompletableDeferred<Unit>? = null

    /** Started when a gated command begins waiting. */
    @Volatile var gateReached: CompletableDeferred<Command> = CompletableDeferred()

    /** When set, the screenshot is this many bytes (a PNG or JPEG signature, then padding) instead of a real image. */
    @Volatile var screenshotBytes: Int? = null

    /** When set, every command fails with this error. */
    @Volatile var failWith: PhoneError? = null

    /** The app in the foreground (`com.android.launcher` until `open`). */
    @Volatile var foreground: String = LAUNCHER

    /** The text of the scripted field. */
    @Volatile var fieldText: String = ""

    override suspend fun describe(): DeviceDescription = DeviceDescription(
        device = buildJsonObject {
            put("model", "Recorder")
            put("manufacturer", "MobileClaw")
            put("android", "15")
            put("screen", buildJsonObject {
                put("width", screen.width)
                put("height", screen.height)
                put("densityDpi", 420)
                put("rotation", screen.rotation)
            })
        },
        capabilities = Command.ALL,
    )

    override fun geometry(): ScreenGeometry = screen

    private suspend fun record(command: Command) {
        performed += command
        failWith?.let { throw it }
        gate?.let { waiting ->
            gateReached.complete(command)
            waiting.await()
        }
    }

    override suspend fun open(packageName: String) {
        record(Command.Open(packageName))
        if (packageName !in installed) throw PhoneError(PhoneErrorCode.APP_NOT_FOUND, "package $packageName is not installed")
        foreground = packageName
    }

    override suspend fun click(x: Int, y: Int) = record(Command.Click(x, y))

    override suspend fun longPress(x: Int, y: Int, durationMs: Long?) = record(Command.LongPress(x, y, durationMs))

    override suspend fun swipe(x1: Int, y1: Int, x2: Int, y2: Int, durationMs: Long?) = record(Command.Swipe(x1, y1, x2, y2, durationMs))

    override suspend fun input(text: String, clear: Boolean): InputOutcome {
        record(Command.Input(text, clear))
        if (foreground == LAUNCHER) throw PhoneError(PhoneErrorCode.NO_FOCUSED_INPUT, "no focused editable node")
        fieldText = if (clear) text else fieldText + text
        return InputOutcome(fieldText, verified = if (clear) fieldText == text else fieldText.contains(text))
    }

    override suspend fun back() = record(Command.Back)

    override suspend fun home() {
        record(Command.Home)
        foreground = LAUNCHER
    }

    override suspend fun screenshot(request: ScreenshotRequest): ScreenImage {
        record(Command.Screenshot(request.format, request.quality, request.maxWidth))
        val width = request.maxWidth?.coerceAtMost(screen.width) ?: screen.width
        val height = (screen.height.toLong() * width / screen.width).toInt()
        val padded = screenshotBytes
        val bytes = if (padded != null) {
            val header = if (request.format == ImageFormat.PNG) PNG_SIGNATURE else JPEG_SIGNATURE
            ByteArray(maxOf(padded, header.size)).also { header.copyInto(it) }
        } else {
            encode(request.format, width, height)
        }
        return ScreenImage(request.format, width, height, bytes, screen)
    }

    override suspend fun uiTree(): UiTreeCapture {
        record(Command.UiTree)
        return UiTreeCapture(screen, listOf(root()))
    }

    /** A real image of the size asked (a grey screen with a white bar), so that the gateway can decode it. */
    private fun encode(format: ImageFormat, width: Int, height: Int): ByteArray {
        val image = BufferedImage(width, height, BufferedImage.TYPE_INT_RGB)
        val graphics = image.createGraphics()
        graphics.color = Color(0x30, 0x30, 0x30)
        graphics.fillRect(0, 0, width, height)
        graphics.color = Color.WHITE
        graphics.fillRect(0, 0, width, height / 12)
        graphics.dispose()
        val out = ByteArrayOutputStream()
        check(ImageIO.write(image, if (format == ImageFormat.PNG) "png" else "jpeg", out)) { "no ImageIO writer for $format" }
        return out.toByteArray()
    }

    private fun root(): UiNode {
        val full = Bounds(0, 0, screen.width, screen.height)
        val children = if (foreground == LAUNCHER) {
            listOf(node("n1", "android.widget.TextView", "Settings", Bounds(0, 147, 270, 399), clickable = true))
        } else {
            listOf(
                node("n1", "android.widget.TextView", "Settings", Bounds(0, 100, screen.width, 200)),
                node("n2", "android.widget.EditText", fieldText, Bounds(40, 300, screen.width - 40, 420), clickable = true, editable = true, focused = true),
            )
        }
        return node("n0", "android.widget.FrameLayout", "", full).copy(children = children)
    }

    private fun node(id: String, className: String, text: String, bounds: Bounds, clickable: Boolean = false, editable: Boolean = false, focused: Boolean = false) = UiNode(
        id = id, className = className, text = text, desc = "", resourceId = "", packageName = foreground, bounds = bounds,
        clickable = clickable, longClickable = false, focusable = clickable, editable = editable, checkable = false, checked = false,
        enabled = true, focused = focused, scrollable = false, selected = false, password = false, labeledBy = null, children = emptyList(),
    )

    companion object {
        const val LAUNCHER = "com.android.launcher"
        private val PNG_SIGNATURE = byteArrayOf(0x89.toByte(), 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)
        private val JPEG_SIGNATURE = byteArrayOf(0xff.toByte(), 0xd8.toByte(), 0xff.toByte())
    }
}
