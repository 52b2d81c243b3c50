package dev.mobileclaw.core.link

import dev.mobileclaw.core.link.GatewayRotation.Next.AFTER_BACKOFF
import dev.mobileclaw.core.link.GatewayRotation.Next.AT_ONCE
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

class GatewayRotationTest {
    private val a = GatewayAddress("gw-a", 7001)
    private val b = GatewayAddress("gw-b", 7002)
    private val c = GatewayAddress("gw-c", 7003)

    @Test
    fun `a failed attempt is followed at once by the next address, and the backoff comes once all failed in turn`() {
        val rotation = GatewayRotation(listOf(a, b, c))
        val seen = (1..7).map { rotation.current to rotation.connectionEnded(welcomed = false) }
        assertEquals(listOf(a to AT_ONCE, b to AT_ONCE, c to AFTER_BACKOFF, a to AT_ONCE, b to AT_ONCE, c to AFTER_BACKOFF, a to AT_ONCE), seen)
    }

    @Test
    fun `a welcomed connection that ends moves to the next address after the backoff, in a fresh round`() {
        val rotation = GatewayRotation(listOf(a, b, c))
        assertEquals(AT_ONCE, rotation.connectionEnded(welcomed = false))
        assertEquals(b, rotation.current)
        assertEquals(AFTER_BACKOFF, rotation.connectionEnded(welcomed = true))
        assertEquals(c, rotation.current)
        assertEquals(listOf(AT_ONCE, AT_ONCE, AFTER_BACKOFF), (1..3).map { rotation.connectionEnded(welcomed = false) })
        assertEquals(c, rotation.current)
    }

    @Test
    fun `one address waits the backoff after every attempt, as before`() {
        val rotation = GatewayRotation(listOf(a))
        assertEquals(listOf(AFTER_BACKOFF, AFTER_BACKOFF, AFTER_BACKOFF), listOf(false, true, false).map { rotation.connectionEnded(it) })
        assertEquals(a, rotation.current)
    }

    @Test
    fun `reset goes back to the first address, and an empty list is refused`() {
        val rotation = GatewayRotation(listOf(a, b))
        rotation.connectionEnded(welcomed = false)
        rotation.reset()
        assertEquals(a, rotation.current)
        assertEquals(AT_ONCE, rotation.connectionEnded(welcomed = false))
        assertEquals("at least one gateway address is needed", assertThrows<IllegalArgumentException> { GatewayRotation(emptyList()) }.message)
    }
}
