package dev.mobileclaw.core.protocol

import kotlinx.serialization.SerializationException
import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.booleanOrNull

/** Outcome of [FrameDecoder.decode]: a typed frame, or why the line is not one. */
sealed interface DecodeResult {
    /** The line is a valid frame. */
    data class Ok(val frame: Frame) : DecodeResult

    /**
     * The line is rejected as `PROTOCOL_ERROR`. [reason] is for humans (e.g. `frame has no "type"`);
     * [requestId] is set when the line names a request at its top level, so that its caller can be failed;
     * [frameType] is the line's `type` when it is a known one (e.g. an `action` with a bad field).
     */
    data class Rejected(val reason: String, val requestId: String?, val frameType: String? = null) : DecodeResult {
        /** Always `PROTOCOL_ERROR`, the only decode failure of the protocol. */
        val code: String get() = "PROTOCOL_ERROR"
    }
}

/**
 * Decodes one line (without its `\n`) into a typed [Frame], applying exactly the field rules of
 * docs/protocol.md ("Field validation") that `decodeFrame` in libs/protocol applies; the shared vectors
 * in docs/protocol-vectors.json pin both. Strict RFC 8259 JSON: no byte-order mark, no `NaN`, no
 * comments, no trailing commas, one value per line. Never throws.
 */
object FrameDecoder {
    /** A request id: a non-empty string of at most this many UTF-16 code units. */
    const val MAX_ID_LENGTH: Int = 256

    private val json = Json { isLenient = false }
    private val deviceIdPattern = Regex("[A-Za-z0-9._:-]{1,128}")

    /** Decodes a line given as UTF-8 bytes (invalid sequences become U+FFFD, as in Node). */
    fun decode(line: ByteArray): DecodeResult = decode(String(line, Charsets.UTF_8))

    /** Decodes a line given as text. */
    fun decode(line: String): DecodeResult {
        val value: JsonElement = try {
            json.parseToJsonElement(line)
        } catch (e: SerializationException) {
            return DecodeResult.Rejected("malformed JSON", null)
        } catch (e: IllegalArgumentException) {
            return DecodeResult.Rejected("malformed JSON", null)
        }
        if (value !is JsonObject) return DecodeResult.Rejected("frame is not a JSON object", null)
        val requestId = value["requestId"].asId()
        val type = value["type"] ?: return DecodeResult.Rejected("frame has no \"type\"", requestId)
        val typeName = (type as? JsonPrimitive)?.takeIf { it.isString }?.content
        if (typeName == null || typeName !in FRAME_TYPES) {
            return DecodeResult.Rejected("unknown frame type ${type.toString().take(64)}", requestId)
        }
        if (typeName == "response" && requestId == null) return DecodeResult.Rejected("\"requestId\" must be a non-empty string", null)
        return try {
            DecodeResult.Ok(build(typeName, value, requestId))
        } catch (e: InvalidField) {
            DecodeResult.Rejected("$typeName: ${e.message}", requestId, typeName)
        }
    }

    private class InvalidField(message: String) : Exception(message)

    private fun build(type: String, f: JsonObject, requestId: String?): Frame = when (type) {
        "hello" -> hello(f)
        "welcome" -> WelcomeFrame(
            sessionId = f["sessionId"].asId() ?: throw InvalidField("\"sessionId\" must be a non-empty string"),
            heartbeatIntervalMs = f["heartbeatIntervalMs"].asNumber() ?: throw InvalidField("\"heartbeatIntervalMs\" and \"maxFrameBytes\" must be numbers"),
            maxFrameBytes = f["maxFrameBytes"].asNumber() ?: throw InvalidField("\"heartbeatIntervalMs\" and \"maxFrameBytes\" must be numbers"),
        )
        "error" -> ErrorFrame(
            code = f["code"].asNonEmptyString() ?: throw InvalidField("\"code\" must be a non-empty string"),
            message = f["message"].asString(),
            requestId = requestId,
        )
        "action" -> action(f, requestId ?: throw InvalidField("\"requestId\" must be a non-empty string"))
        "cancel" -> CancelFrame(requestId ?: throw InvalidField("\"requestId\" must be a non-empty string"))
        "response" -> response(f, requestId!!)
        "ping" -> PingFrame(optionalFiniteNumber(f, "ts"))
        "pong" -> PongFrame(optionalFiniteNumber(f, "ts"))
        "event" -> EventFrame(
            event = f["event"].asNonEmptyString() ?: throw InvalidField("\"event\" must be a non-empty string"),
            data = optionalObject(f, "data"),
        )
        else -> throw IllegalStateException("unreachable: type $type was checked")
    }

    private fun hello(f: JsonObject): HelloFrame {
        val version = f["protocolVersion"].asNumber()
        if (version == null || version != Math.floor(version) || version.isInfinite()) throw InvalidField("\"protocolVersion\" must be an integer")
        val deviceId = f["deviceId"].asString()
        if (deviceId == null || !deviceIdPattern.matches(deviceId)) throw InvalidField("\"deviceId\" must be 1-128 chars of [A-Za-z0-9._:-]")
        val token = f["token"].asString() ?: throw InvalidField("\"token\" must be a string")
        val capabilities = f["capabilities"]?.let { caps ->
            if (caps !is JsonArray) throw InvalidField("\"capabilities\" must be an array of strings")
            caps.map { it.asString() ?: throw InvalidField("\"capabilities\" must be an array of strings") }
        }
        val device = f["device"]?.let { it as? JsonObject ?: throw InvalidField("\"device\" must be an object") }
        device?.get("screen")?.let { screen ->
            if (screen !is JsonObject || screen["width"].asNumber() == null || screen["height"].asNumber() == null) {
                throw InvalidField("\"device.screen\" must have numeric \"width\" and \"height\"")
            }
        }
        return HelloFrame(version.toInt(), deviceId, token, device, capabilities, optionalObject(f, "client"))
    }

    private fun action(f: JsonObject, requestId: String): ActionFrame {
        val command = f["command"].asNonEmptyString() ?: throw InvalidField("\"command\" must be a non-empty string")
        val timeoutMs = optionalFiniteNumber(f, "timeoutMs")?.content?.toDouble()
        val args = JsonObject(f.filterKeys { it !in ACTION_ENVELOPE })
        return ActionFrame(requestId, command, timeoutMs, f["frameId"], args)
    }

    private fun response(f: JsonObject, requestId: String): ResponseFrame {
        val status = f["status"].asString()
        return when (status) {
            "success" -> SuccessResponse(requestId, optionalObject(f, "data"))
            "error" -> {
                val error = f["error"] as? JsonObject
                val code = error?.get("code").asNonEmptyString() ?: throw InvalidField("\"error.code\" must be a non-empty string")
                ErrorResponse(requestId, code, error?.get("message").asString())
            }
            else -> throw InvalidField("\"status\" must be \"success\" or \"error\"")
        }
    }

    private val ACTION_ENVELOPE = setOf("type", "requestId", "command", "timeoutMs", "frameId")

    private fun optionalObject(f: JsonObject, key: String): JsonObject? {
        val value = f[key] ?: return null
        return value as? JsonObject ?: throw InvalidField("\"$key\" must be an object")
    }

    private fun optionalFiniteNumber(f: JsonObject, key: String): JsonPrimitive? {
        val value = f[key] ?: return null
        val number = value.asNumber()
        if (number == null || !number.isFinite()) throw InvalidField("\"$key\" must be a number")
        return value as JsonPrimitive
    }
}

/** The element as a JSON number (a finite or overflowing double), or null when it is not a number. */
internal fun JsonElement?.asNumber(): Double? {
    if (this !is JsonPrimitive || this is JsonNull || isString || booleanOrNull != null) return null
    return content.toDoubleOrNull()
}

/** The element as a string, or null when it is not a JSON string. */
internal fun JsonElement?.asString(): String? = (this as? JsonPrimitive)?.takeIf { it.isString }?.content

/** The element as a non-empty string, or null. */
internal fun JsonElement?.asNonEmptyString(): String? = asString()?.takeIf { it.isNotEmpty() }

/** The element as a request or session id: a non-empty string of at most 256 UTF-16 code units, or null. */
internal fun JsonElement?.asId(): String? = asString()?.takeIf { it.isNotEmpty() && it.length <= FrameDecoder.MAX_ID_LENGTH }
