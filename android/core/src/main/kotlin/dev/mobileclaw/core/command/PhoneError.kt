package dev.mobileclaw.core.command

/**
 * A command the phone refuses; becomes `{"status":"error","error":{"code":…,"message":…}}` on the wire.
 * [code] is one of [PhoneErrorCode]'s constants (docs/protocol.md, "Phone error codes", plus the
 * UPPER_SNAKE_CASE codes the protocol allows phones to add).
 */
class PhoneError(val code: String, message: String) : Exception(message)

/** The codes MobileClaw's Android client answers in `response.error.code`. */
object PhoneErrorCode {
    /** A required argument is missing or has the wrong type or range. */
    const val INVALID_ARGUMENT = "INVALID_ARGUMENT"

    /** The phone does not implement the command. */
    const val UNSUPPORTED_COMMAND = "UNSUPPORTED_COMMAND"

    /** The command exists but this phone cannot carry it out (e.g. `screenshot` below Android 11, API 30). */
    const val UNSUPPORTED = "UNSUPPORTED"

    /** `open`: no launchable app with that package name. */
    const val APP_NOT_FOUND = "APP_NOT_FOUND"

    /** `input`: no focused editable node. */
    const val NO_FOCUSED_INPUT = "NO_FOCUSED_INPUT"

    /** A coordinate lies outside the current screen. */
    const val OUT_OF_BOUNDS = "OUT_OF_BOUNDS"

    /** The action's `frameId` no longer matches the screen geometry; nothing was executed. */
    const val STALE_FRAME = "STALE_FRAME"

    /** The reply would exceed the gateway's `maxFrameBytes`. */
    const val PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE"

    /** The action's deadline (`timeoutMs`) passed before it finished; it was abandoned. */
    const val TIMEOUT = "TIMEOUT"

    /** The system cancelled a dispatched gesture (e.g. the user touched the screen meanwhile). */
    const val GESTURE_CANCELLED = "GESTURE_CANCELLED"

    /** The phone tried and the system refused or failed (e.g. a global action or a screenshot that failed). */
    const val COMMAND_FAILED = "COMMAND_FAILED"

    /** The accessibility service is not enabled, so nothing on the screen can be read or operated. */
    const val PERMISSION_DENIED = "PERMISSION_DENIED"

    /** An unexpected failure of the phone software itself. */
    const val INTERNAL_ERROR = "INTERNAL_ERROR"
}
