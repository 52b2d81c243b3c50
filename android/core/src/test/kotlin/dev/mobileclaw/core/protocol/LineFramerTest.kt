package dev.mobileclaw.core.protocol

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

class LineFramerTest {
    private val lines = mutableListOf<String>()
    private val oversized = mutableListOf<Pair<String, Long>>()
    private fun framer(max: Int = 64) = LineFramer(max, { lines += String(it, Charsets.UTF_8) }, { head, size -> oversized += String(head, Charsets.UTF_8) to size }, headBytes = 16)

    @Test
    fun `frames survive 1-byte reads, including a 4-byte UTF-8 character split across them`() {
        val f = framer()
        val bytes = "{\"t\":\"👋\"}\n{\"u\":1}\n".toByteArray(Charsets.UTF_8)
        for (b in bytes) f.push(byteArrayOf(b))
        assertEquals(listOf("{\"t\":\"👋\"}", "{\"u\":1}"), lines)
    }

    @Test
    fun `many frames in one read, CRLF accepted, empty lines skipped`() {
        framer().push("a\r\n\n\r\nb\nc".toByteArray())
        assertEquals(listOf("a", "b"), lines)
    }

    @Test
    fun `a partial line waits for its end`() {
        val f = framer()
        f.push("abc".toByteArray())
        assertEquals(3, f.bufferedBytes)
        f.push("def\n".toByteArray())
        assertEquals(listOf("abcdef"), lines)
        assertEquals(0, f.bufferedBytes)
    }

    @Test
    fun `an oversized line is skipped without buffering, keeping its head and size, and the next line works`() {
        val f = framer(max = 10)
        f.push("0123456789AB".toByteArray())
        assertEquals(0, f.bufferedBytes)
        f.push("CDEFGHIJKLMNOP\nok\n".toByteArray())
        assertEquals(listOf("0123456789AB" to 26L), oversized)
        assertEquals(listOf("ok"), lines)
    }

    @Test
    fun `a line of exactly the limit passes, one byte more does not`() {
        val f = framer(max = 4)
        f.push("abcd\nabcde\n".toByteArray())
        assertEquals(listOf("abcd"), lines)
        assertEquals(listOf("abcde" to 5L), oversized)
    }
}
