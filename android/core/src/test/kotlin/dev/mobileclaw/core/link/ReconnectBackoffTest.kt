package dev.mobileclaw.core.link

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import kotlin.random.Random

class ReconnectBackoffTest {
    /** A random source that always answers [value] (0 ≤ value < 1). */
    private fun fixed(value: Double) = object : Random() {
        override fun nextBits(bitCount: Int): Int = error("unused")
        override fun nextDouble(): Double = value
    }

    @Test
    fun `the bound doubles from 1 s to the 60 s cap`() {
        val backoff = ReconnectBackoff(random = fixed(0.999999))
        val delays = List(9) { backoff.nextDelayMs() }
        assertEquals(listOf(1000L, 2000L, 4000L, 8000L, 16000L, 32000L, 60000L, 60000L, 60000L), delays)
    }

    @Test
    fun `full jitter draws from the minimum delay up to the bound`() {
        assertEquals(250L, ReconnectBackoff(random = fixed(0.0)).nextDelayMs())
        assertEquals(625L, ReconnectBackoff(random = fixed(0.5)).nextDelayMs())
        val seeded = ReconnectBackoff(random = Random(7))
        repeat(20) {
            val bound = seeded.currentMs
            val delay = seeded.nextDelayMs()
            assert(delay in 250..bound) { "$delay outside [250, $bound]" }
        }
    }

    @Test
    fun `only a welcomed connection that stayed up 30 s resets the backoff, never a replaced one`() {
        val backoff = ReconnectBackoff(random = fixed(0.0))
        repeat(3) { backoff.nextDelayMs() }
        assertEquals(8000L, backoff.currentMs)
        backoff.connectionEnded(welcomedForMs = null, replaced = false)
        backoff.connectionEnded(welcomedForMs = 29_999, replaced = false)
        assertEquals(8000L, backoff.currentMs)
        backoff.connectionEnded(welcomedForMs = 3_600_000, replaced = true)
        assertEquals(8000L, backoff.currentMs)
        backoff.connectionEnded(welcomedForMs = 30_000, replaced = false)
        assertEquals(1000L, backoff.currentMs)
    }

    @Test
    fun `nonsense shapes are refused`() {
        assertThrows<IllegalArgumentException> { ReconnectBackoff(initialMs = 0) }
        assertThrows<IllegalArgumentException> { ReconnectBackoff(initialMs = 2000, maxMs = 1000) }
        assertThrows<IllegalArgumentException> { ReconnectBackoff(minDelayMs = 5000) }
    }
}
