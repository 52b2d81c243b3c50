package dev.mobileclaw.core.protocol

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.int
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.DynamicTest
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestFactory
import java.io.File

/**
 * docs/protocol-vectors.json, the file libs/protocol's decode-frame.spec.ts runs for the gateway: every
 * vector decodes here to the same verdict (frame type, or PROTOCOL_ERROR with the same request id).
 */
class ProtocolVectorsTest {
    private val file: JsonObject = Json.parseToJsonElement(File(vectorsPath()).readText(Charsets.UTF_8)).jsonObject
    private val vectors = file.getValue("vectors").jsonArray.map { it.jsonObject }

    @Test
    fun `the file is version 1 with at least 40 vectors of every frame type`() {
        assertEquals(1, file.getValue("version").jsonPrimitive.int)
        assertTrue(vectors.size >= 40, "only ${vectors.size} vectors")
        val validTypes = vectors.mapNotNull { v -> v.getValue("expect").jsonObject["type"]?.jsonPrimitive?.content }.toSet()
        assertEquals(FRAME_TYPES, validTypes)
    }

    @TestFactory
    fun `every vector decodes to its expected verdict, from text and from bytes`(): List<DynamicTest> = vectors.map { v ->
        val name = v.getValue("name").jsonPrimitive.content
        val line = v.getValue("line").jsonPrimitive.content
        val expect = v.getValue("expect").jsonObject
        DynamicTest.dynamicTest(name) {
            for (result in listOf(FrameDecoder.decode(line), FrameDecoder.decode(line.toByteArray(Charsets.UTF_8)))) {
                if (expect.getValue("ok").jsonPrimitive.content == "true") {
                    assertTrue(result is DecodeResult.Ok, "expected a frame, got $result")
                    assertEquals(expect.getValue("type").jsonPrimitive.content, (result as DecodeResult.Ok).frame.type)
                } else {
                    assertTrue(result is DecodeResult.Rejected, "expected a rejection, got $result")
                    result as DecodeResult.Rejected
                    assertEquals(expect.getValue("code").jsonPrimitive.content, result.code)
                    assertEquals(expect["requestId"]?.jsonPrimitive?.content, result.requestId)
                    assertTrue(result.reason.isNotEmpty())
                }
            }
        }
    }

    @Test
    fun `every valid vector survives a decode-encode-decode round trip unchanged`() {
        for (v in vectors.filter { it.getValue("expect").jsonObject.getValue("ok").jsonPrimitive.content == "true" }) {
            val line = v.getValue("line").jsonPrimitive.content
            val frame = (FrameDecoder.decode(line) as DecodeResult.Ok).frame
            val again = FrameDecoder.decode(FrameEncoder.encode(frame))
            assertEquals(DecodeResult.Ok(frame), again, v.getValue("name").jsonPrimitive.content)
        }
    }

    private fun vectorsPath(): String =
        System.getProperty("mobileclaw.protocolVectors") ?: error("system property mobileclaw.protocolVectors (set by the Maven build) names docs/protocol-vectors.json")
}
