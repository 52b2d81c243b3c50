package dev.mobileclaw.core.command

import dev.mobileclaw.core.protocol.ActionFrame
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.booleanOrNull
import kotlin.math.roundToInt
import kotlin.math.roundToLong

/**
 * Turns an [ActionFrame] into a [Command], checking in the order the simulated phone does: the
 * command name (`UNSUPPORTED_COMMAND`), the `frameId` against the current screen (`STALE_FRAME`, so
 * that nothing planned on an old screen runs), the arguments (`INVALID_ARGUMENT`, naming the argument
 * and what it got), then the coordinates against the screen (`OUT_OF_BOUNDS`).
 */
class CommandParser(private val frames: FrameRegistry) {
    /**
     * @param screen the screen geometry now.
     * @throws PhoneError UNSUPPORTED_COMMAND, STALE_FRAME, INVALID_ARGUMENT or OUT_OF_BOUNDS.
     */
    fun parse(action: ActionFrame, screen: ScreenGeometry): Command {
        if (action.command !in Command.ALL) {
            throw PhoneError(PhoneErrorCode.UNSUPPORTED_COMMAND, "command ${quote(action.command)} is not supported; supported: ${Command.ALL.joinToString(", ")}")
        }
        action.frameId?.let { frameId ->
            val id = (frameId as? JsonPrimitive)?.takeIf { it.isString }?.content
                ?: throw PhoneError(PhoneErrorCode.INVALID_ARGUMENT, "\"frameId\" must be a string, got ${describe(frameId)}")
            frames.check(id, screen)
        }
        val args = action.args
        return when (action.command) {
            Command.OPEN -> Command.Open(string(args, "app", allowEmpty = false))
            Command.CLICK -> Command.Click(coordinate(args, "x"), coordinate(args, "y")).also { onScreen(screen, it.x, it.y) }
            Command.LONG_PRESS -> Command.LongPress(coordinate(args, "x"), coordinate(args, "y"), duration(args)).also { onScreen(screen, it.x, it.y) }
            Command.SWIPE -> Command.Swipe(coordinate(args, "x1"), coordinate(args, "y1"), coordinate(args, "x2"), coordinate(args, "y2"), duration(args)).also {
                onScreen(screen, it.x1, it.y1)
                onScreen(screen, it.x2, it.y2)
            }
            Command.INPUT -> Command.Input(string(args, "text", allowEmpty = true), boolean(args, "clear"))
            Command.BACK -> Command.Back
            Command.HOME -> Command.Home
            Command.SCREENSHOT -> screenshot(args)
            Command.UI_TREE -> Command.UiTree
            else -> throw IllegalStateException("unreachable: ${action.command} was checked")
        }
    }

    private fun screenshot(args: JsonObject): Command.Screenshot {
        val format = when (val value = args["format"]) {
            null -> ImageFormat.PNG
            else -> ImageFormat.entries.firstOrNull { (value as? JsonPrimitive)?.isString == true && it.wire == value.content }
                ?: throw PhoneError(PhoneErrorCode.INVALID_ARGUMENT, "\"format\" must be \"png\" or \"jpeg\", got ${describe(value)}")
        }
        val quality = optionalNumber(args, "quality", 1.0, 100.0)?.roundToInt()
        val maxWidth = optionalNumber(args, "maxWidth", 1.0, MAX_SIDE_PX)?.roundToInt()
        return Command.Screenshot(format, quality, maxWidth)
    }

    /** A coordinate in px, rounded to the nearest pixel as the protocol asks. */
    private fun coordinate(args: JsonObject, key: String): Int = number(args, key).roundToInt()

    private fun onScreen(screen: ScreenGeometry, x: Int, y: Int) {
        if (!screen.contains(x, y)) {
            throw PhoneError(PhoneErrorCode.OUT_OF_BOUNDS, "($x, $y) is outside the ${screen.width}x${screen.height} screen")
        }
    }

    private fun duration(args: JsonObject): Long? = optionalNumber(args, "durationMs", 1.0, MAX_GESTURE_MS.toDouble())?.roundToLong()

    private fun number(args: JsonObject, key: String): Double {
        val value = args[key]
        val number = (value as? JsonPrimitive)?.takeIf { !it.isString && it !is JsonNull && it.booleanOrNull == null }?.content?.toDoubleOrNull()
        if (number == null || !number.isFinite()) throw PhoneError(PhoneErrorCode.INVALID_ARGUMENT, "\"$key\" must be a finite number, got ${describe(value)}")
        if (Math.abs(number) > MAX_SIDE_PX) throw PhoneError(PhoneErrorCode.INVALID_ARGUMENT, "\"$key\" must be within ±$MAX_SIDE_PX, got $number")
        return number
    }

    private fun optionalNumber(args: JsonObject, key: String, min: Double, max: Double): Double? {
        if (args[key] == null) return null
        val value = number(args, key)
        if (value < min || value > max) throw PhoneError(PhoneErrorCode.INVALID_ARGUMENT, "\"$key\" must be between ${min.toLong()} and ${max.toLong()}, got $value")
        return value
    }

    private fun string(args: JsonObject, key: String, allowEmpty: Boolean): String {
        val value = args[key]
        val text = (value as? JsonPrimitive)?.takeIf { it.isString }?.content
        if (text == null || (!allowEmpty && text.isEmpty())) {
            throw PhoneError(PhoneErrorCode.INVALID_ARGUMENT, "\"$key\" must be a ${if (allowEmpty) "" else "non-empty "}string, got ${describe(value)}")
        }
        return text
    }

    private fun boolean(args: JsonObject, key: String): Boolean {
        val value = args[key] ?: return false
        return (value as? JsonPrimitive)?.takeIf { !it.isString }?.booleanOrNull
            ?: throw PhoneError(PhoneErrorCode.INVALID_ARGUMENT, "\"$key\" must be a boolean, got ${describe(value)}")
    }

    companion object {
        /** The longest gesture Android dispatches, in ms (`GestureDescription.getMaxGestureDuration()`). */
        const val MAX_GESTURE_MS: Long = 60_000

        /** A bound for coordinates and sizes in px, far beyond any screen; keeps rounding to Int exact. */
        const val MAX_SIDE_PX: Double = 100_000.0

        /** A value as error messages quote it: JSON, cut to 40 characters; `nothing` when absent. */
        fun describe(value: JsonElement?): String = value?.toString()?.take(40) ?: "nothing"

        private fun quote(text: String): String = JsonPrimitive(text).toString().take(60)
    }
}
