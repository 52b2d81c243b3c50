package dev.mobileclaw.core.link

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.boolean
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
 * docs/pairing-link-vectors.json, the links the gateway builds for `GET /api/pairing` (its
 * pairing-link.spec.ts checks each byte): every one parses here to the same host, port, token and TLS,
 * and is written back as exactly the same link.
 */
class PairingLinkVectorsTest {
    private val file: JsonObject = Json.parseToJsonElement(File(vectorsPath()).readText(Charsets.UTF_8)).jsonObject
    private val vectors = file.getValue("vectors").jsonArray.map { it.jsonObject }

    @Test
    fun `the file is version 1 with vectors`() {
        assertEquals(1, file.getValue("version").jsonPrimitive.int)
        assertTrue(vectors.size >= 5, "only ${vectors.size} vectors")
    }

    @TestFactory
    fun `every gateway link parses to its target and is written back byte for byte`(): List<DynamicTest> = vectors.map { v ->
        DynamicTest.dynamicTest(v.getValue("name").jsonPrimitive.content) {
            val link = v.getValue("link").jsonPrimitive.content
            val parsed = PairingLink.parse(link)
            assertEquals(target(v.getValue("target").jsonObject), parsed)
            assertEquals(link, parsed.toUri())
        }
    }

    companion object {
        /** A vector's `target` as the pairing link it describes. */
        fun target(json: JsonObject) = PairingLink(
            host = json.getValue("host").jsonPrimitive.content,
            port = json.getValue("port").jsonPrimitive.int,
            token = json.getValue("token").jsonPrimitive.content,
            tls = json.getValue("tls").jsonPrimitive.boolean,
        )

        private fun vectorsPath(): String =
            System.getProperty("mobileclaw.pairingVectors") ?: error("system property mobileclaw.pairingVectors (set by the Maven build) names docs/pairing-link-vectors.json")
    }
}
