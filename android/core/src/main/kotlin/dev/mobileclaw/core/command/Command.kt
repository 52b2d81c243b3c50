package dev.mobileclaw.core.command

/**
 * One validated command of docs/protocol.md §4, as an [PhoneExecutor] receives it. Coordinates are
 * device px of the current rotation, already rounded to the nearest pixel and checked to lie on the
 * screen; durations are ms.
 */
sealed interface Command {
    /** The wire name, e.g. `long_press`. */
    val name: String

    /** `open`: launch [packageName]'s launcher activity. */
    data class Open(val packageName: String) : Command {
        override val name: String get() = OPEN
    }

    /** `click`: tap at ([x], [y]). */
    data class Click(val x: Int, val y: Int) : Command {
        override val name: String get() = CLICK
    }

    /** `long_press` at ([x], [y]) for [durationMs] (null: the phone's default, longer than its long-press timeout). */
    data class LongPress(val x: Int, val y: Int, val durationMs: Long?) : Command {
        override val name: String get() = LONG_PRESS
    }

    /** `swipe` in a straight line from ([x1], [y1]) to ([x2], [y2]) over [durationMs] (null: the phone's default). */
    data class Swipe(val x1: Int, val y1: Int, val x2: Int, val y2: Int, val durationMs: Long?) : Command {
        override val name: String get() = SWIPE
    }

    /** `input`: type [text] into the focused editable node; [clear] replaces its text, else inserts at the cursor. */
    data class Input(val text: String, val clear: Boolean) : Command {
        override val name: String get() = INPUT
    }

    /** `back`: the Back global action. */
    data object Back : Command {
        override val name: String get() = BACK
    }

    /** `home`: the Home global action. */
    data object Home : Command {
        override val name: String get() = HOME
    }

    /** `screenshot` encoded as [format], JPEG [quality] 1–100 (null: the phone's default), at most [maxWidth] px wide (null: full size). */
    data class Screenshot(val format: ImageFormat, val quality: Int?, val maxWidth: Int?) : Command {
        override val name: String get() = SCREENSHOT
    }

    /** `ui_tree`: the accessibility tree of the screen. */
    data object UiTree : Command {
        override val name: String get() = UI_TREE
    }

    companion object {
        const val OPEN = "open"
        const val CLICK = "click"
        const val LONG_PRESS = "long_press"
        const val SWIPE = "swipe"
        const val INPUT = "input"
        const val BACK = "back"
        const val HOME = "home"
        const val SCREENSHOT = "screenshot"
        const val UI_TREE = "ui_tree"

        /** Every command of protocol v1, in the order docs/protocol.md lists them. */
        val ALL: List<String> = listOf(OPEN, CLICK, LONG_PRESS, SWIPE, INPUT, BACK, HOME, SCREENSHOT, UI_TREE)
    }
}

/** The encodings `screenshot` offers. */
enum class ImageFormat(val wire: String, val mime: String) {
    PNG("png", "image/png"),
    JPEG("jpeg", "image/jpeg"),
}
