package dev.mobileclaw.core.protocol

import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive

/** The protocol version this client speaks (docs/protocol.md §10). */
const val PROTOCOL_VERSION: Int = 1

/** Before `welcome` a frame may be at most 64 KiB (65 536 bytes, `\n` excluded). */
const val MAX_HELLO_BYTES: Int = 64 * 1024

/** The gateway's default `maxFrameBytes` (16 MiB); the phone's own limit for frames it receives. */
const val DEFAULT_MAX_FRAME_BYTES: Int = 16 * 1024 * 1024

/**
 * One frame of wire protocol v1 (docs/protocol.md §2), decoded and validated by [FrameDecoder] or built
 * to be sent by [FrameEncoder]. Fields keep the wire's names; numbers the phone only echoes (a ping's
 * `ts`) stay [JsonPrimitive]s, so that they go back byte for byte.
 */
sealed interface Frame {
    /** The wire `type`, e.g. `action`. */
    val type: String
}

/** `hello` (phone → gateway): the first frame of a connection, identifying and authenticating the phone. */
data class HelloFrame(
    val protocolVersion: Int,
    /** 1–128 chars of `[A-Za-z0-9._:-]`, the same on every reconnect. */
    val deviceId: String,
    val token: String,
    /** `device`: model, manufacturer, android, screen. */
    val device: JsonObject?,
    /** Command names this phone performs. */
    val capabilities: List<String>?,
    /** `client`: the phone software's name and version. */
    val client: JsonObject?,
) : Frame {
    override val type: String get() = "hello"
}

/** `welcome` (gateway → phone): the handshake is accepted; the two numbers bind the phone for this session. */
data class WelcomeFrame(
    val sessionId: String,
    /** The heartbeat interval in ms; silence for twice this means the link is dead. */
    val heartbeatIntervalMs: Double,
    /** The largest frame the phone may send, in bytes (`\n` excluded). */
    val maxFrameBytes: Double,
) : Frame {
    override val type: String get() = "welcome"
}

/** `error` (gateway → phone): a refused handshake, a protocol error, an oversized frame, or `DEVICE_REPLACED`. */
data class ErrorFrame(val code: String, val message: String?, val requestId: String?) : Frame {
    override val type: String get() = "error"
}

/**
 * `action` (gateway → phone): one command. [args] holds the frame's other top-level fields (everything
 * but `type`, `requestId`, `command`, `timeoutMs` and `frameId`), unvalidated.
 */
data class ActionFrame(
    val requestId: String,
    val command: String,
    /** How long the caller still waits, in ms; null when absent. */
    val timeoutMs: Double?,
    /** The action's `frameId` as received (any JSON value), null when absent. */
    val frameId: JsonElement?,
    val args: JsonObject,
) : Frame {
    override val type: String get() = "action"
}

/** `cancel` (gateway → phone): nobody waits for [requestId] any more (advisory). */
data class CancelFrame(val requestId: String) : Frame {
    override val type: String get() = "cancel"
}

/** `response` (phone → gateway): the one reply to an action, a success with [data] or an error. */
sealed interface ResponseFrame : Frame {
    val requestId: String
    override val type: String get() = "response"
}

/** A success response; [data] null means no `data` field (treated as `{}`). */
data class SuccessResponse(override val requestId: String, val data: JsonObject?) : ResponseFrame

/** An error response with the phone's [code] (e.g. `APP_NOT_FOUND`) and a message for humans. */
data class ErrorResponse(override val requestId: String, val code: String, val message: String?) : ResponseFrame

/** `ping` (both ways); [ts] is copied verbatim into the `pong`. */
data class PingFrame(val ts: JsonPrimitive?) : Frame {
    override val type: String get() = "ping"
}

/** `pong` (both ways), with the ping's [ts]. */
data class PongFrame(val ts: JsonPrimitive?) : Frame {
    override val type: String get() = "pong"
}

/** `event` (phone → gateway): an unsolicited notification such as `screen`. */
data class EventFrame(val event: String, val data: JsonObject?) : Frame {
    override val type: String get() = "event"
}

/** Every frame type of v1, case-sensitive. */
val FRAME_TYPES: Set<String> = setOf("hello", "welcome", "error", "action", "cancel", "response", "ping", "pong", "event")
