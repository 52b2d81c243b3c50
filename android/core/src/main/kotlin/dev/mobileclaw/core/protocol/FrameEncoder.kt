package dev.mobileclaw.core.protocol

import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put

/**
 * Writes frames as the protocol asks of senders (docs/protocol.md §1): compact JSON on one line,
 * `type` first and `requestId` second (so that a receiver that only reads the first 4096 bytes of an
 * oversized frame still finds the request), non-ASCII text as raw UTF-8, newlines inside strings escaped.
 */
object FrameEncoder {
    /** The frame as one line of text, without the trailing `\n`. */
    fun encode(frame: Frame): String = toJson(frame).toString()

    /** The frame as the bytes to write: its UTF-8 line followed by `\n`. */
    fun encodeLine(frame: Frame): ByteArray = (encode(frame) + "\n").toByteArray(Charsets.UTF_8)

    /** The frame as a JSON object, keys in wire order. */
    fun toJson(frame: Frame): JsonObject = when (frame) {
        is HelloFrame -> buildJsonObject {
            put("type", frame.type)
            put("protocolVersion", frame.protocolVersion)
            put("deviceId", frame.deviceId)
            put("token", frame.token)
            frame.device?.let { put("device", it) }
            frame.capabilities?.let { caps -> put("capabilities", JsonArray(caps.map(::JsonPrimitive))) }
            frame.client?.let { put("client", it) }
        }
        is WelcomeFrame -> buildJsonObject {
            put("type", frame.type)
            put("sessionId", frame.sessionId)
            put("heartbeatIntervalMs", wholeOrFraction(frame.heartbeatIntervalMs))
            put("maxFrameBytes", wholeOrFraction(frame.maxFrameBytes))
        }
        is ErrorFrame -> buildJsonObject {
            put("type", frame.type)
            frame.requestId?.let { put("requestId", it) }
            put("code", frame.code)
            frame.message?.let { put("message", it) }
        }
        is ActionFrame -> buildJsonObject {
            put("type", frame.type)
            put("requestId", frame.requestId)
            put("command", frame.command)
            for ((key, value) in frame.args) put(key, value)
            frame.timeoutMs?.let { put("timeoutMs", wholeOrFraction(it)) }
            frame.frameId?.let { put("frameId", it) }
        }
        is CancelFrame -> buildJsonObject {
            put("type", frame.type)
            put("requestId", frame.requestId)
        }
        is SuccessResponse -> buildJsonObject {
            put("type", frame.type)
            put("requestId", frame.requestId)
            put("status", "success")
            frame.data?.let { put("data", it) }
        }
        is ErrorResponse -> buildJsonObject {
            put("type", frame.type)
            put("requestId", frame.requestId)
            put("status", "error")
            put("error", buildJsonObject {
                put("code", frame.code)
                frame.message?.let { put("message", it) }
            })
        }
        is PingFrame -> buildJsonObject {
            put("type", frame.type)
            frame.ts?.let { put("ts", it) }
        }
        is PongFrame -> buildJsonObject {
            put("type", frame.type)
            frame.ts?.let { put("ts", it) }
        }
        is EventFrame -> buildJsonObject {
            put("type", frame.type)
            put("event", frame.event)
            frame.data?.let { put("data", it) }
        }
    }

    /** A number as JSON writes it: `15000`, not `15000.0`. */
    private fun wholeOrFraction(value: Double): JsonPrimitive =
        if (value == Math.floor(value) && !value.isInfinite() && Math.abs(value) < 9.007199254740992E15) JsonPrimitive(value.toLong()) else JsonPrimitive(value)
}
