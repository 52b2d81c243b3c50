package dev.mobileclaw.core.protocol

import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import org.junit.jupiter.api.Assertions.assertArrayEquals
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

class FrameEncoderTest {
    @Test
    fun `a response is compact JSON with type first and requestId second`() {
        val frame = SuccessResponse("r-1", buildJsonObject { put("ok", true) })
        assertEquals("""{"type":"response","requestId":"r-1","status":"success","data":{"ok":true}}""", FrameEncoder.encode(frame))
    }

    @Test
    fun `an error response nests its code and message`() {
        assertEquals(
            """{"type":"response","requestId":"r-2","status":"error","error":{"code":"APP_NOT_FOUND","message":"package x is not installed"}}""",
            FrameEncoder.encode(ErrorResponse("r-2", "APP_NOT_FOUND", "package x is not installed")),
        )
    }

    @Test
    fun `unicode goes out as raw UTF-8 and newlines inside strings are escaped`() {
        val text = "你好 👩‍👩‍👧 مرحبا \"q\" \\ line1\nline2"
        val line = FrameEncoder.encodeLine(SuccessResponse("r-3", buildJsonObject { put("text", text) }))
        val expected = "{\"type\":\"response\",\"requestId\":\"r-3\",\"status\":\"success\",\"data\":{\"text\":\"你好 👩‍👩‍👧 مرحبا \\\"q\\\" \\\\ line1\\nline2\"}}\n"
        assertArrayEquals(expected.toByteArray(Charsets.UTF_8), line)
        assertEquals(1, line.count { it == '\n'.code.toByte() })
        assertEquals(text, ((FrameDecoder.decode(line.copyOf(line.size - 1)) as DecodeResult.Ok).frame as SuccessResponse).data!!["text"]!!.let { (it as JsonPrimitive).content })
    }

    @Test
    fun `a pong echoes the ping's ts verbatim, fraction included`() {
        val ping = (FrameDecoder.decode("""{"type":"ping","ts":1767225600000.5}""") as DecodeResult.Ok).frame as PingFrame
        assertEquals("""{"type":"pong","ts":1767225600000.5}""", FrameEncoder.encode(PongFrame(ping.ts)))
        assertEquals("""{"type":"pong"}""", FrameEncoder.encode(PongFrame(null)))
    }

    @Test
    fun `hello carries the protocol version as an integer and the client object`() {
        val hello = HelloFrame(1, "pixel-7", "t0k", buildJsonObject { put("model", "Pixel 7") }, listOf("click"), buildJsonObject { put("name", "mobileclaw-android") })
        assertEquals(
            """{"type":"hello","protocolVersion":1,"deviceId":"pixel-7","token":"t0k","device":{"model":"Pixel 7"},"capabilities":["click"],"client":{"name":"mobileclaw-android"}}""",
            FrameEncoder.encode(hello),
        )
    }

    @Test
    fun `whole numbers of a welcome are written without a fraction`() {
        assertEquals(
            """{"type":"welcome","sessionId":"s","heartbeatIntervalMs":15000,"maxFrameBytes":16777216}""",
            FrameEncoder.encode(WelcomeFrame("s", 15000.0, 16777216.0)),
        )
    }
}
