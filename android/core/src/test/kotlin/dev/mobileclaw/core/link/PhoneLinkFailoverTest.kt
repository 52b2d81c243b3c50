package dev.mobileclaw.core.link

import dev.mobileclaw.core.protocol.HelloFrame
import dev.mobileclaw.core.testing.FakeGateway
import dev.mobileclaw.core.testing.RecordingExecutor
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.net.InetAddress
import java.net.ServerSocket
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit
import kotlin.random.Random

/** The link with several gateway addresses, against scripted gateways on loopback ports. */
class PhoneLinkFailoverTest {
    private val gateways = mutableListOf<FakeGateway>()
    private val states = LinkedBlockingQueue<LinkState>()
    private var link: PhoneLink? = null

    private fun gateway(): FakeGateway = FakeGateway().also { gateways += it }

    private fun at(port: Int) = GatewayAddress("127.0.0.1", port)

    /** A loopback port nothing listens on: connecting to it is refused. */
    private fun refusingPort(): Int = ServerSocket(0, 1, InetAddress.getLoopbackAddress()).use { it.localPort }

    private fun start(vararg ports: Int): PhoneLink {
        val config = LinkConfig.of(ports.map(::at), token = "s3cret", deviceId = "pixel-7-01")
        return PhoneLink(config, RecordingExecutor(), LinkOptions(backoff = ReconnectBackoff(random = Random(1)), onState = { states.put(it) }))
            .also { link = it; it.start() }
    }

    /** Every state reported from now on up to and including the first [T]. */
    private inline fun <reified T : LinkState> statesUntil(): List<LinkState> {
        val seen = mutableListOf<LinkState>()
        while (true) {
            val state = states.poll(FakeGateway.WAIT_S, TimeUnit.SECONDS) ?: error("no ${T::class.simpleName} state within ${FakeGateway.WAIT_S} s; saw $seen")
            seen += state
            if (state is T) return seen
        }
    }

    @AfterEach
    fun tearDown() = runBlocking {
        link?.stop()
        gateways.forEach { it.close() }
    }

    @Test
    fun `a refused first address is followed at once by the second, and Connected names the address in use`() {
        val refused = refusingPort()
        val second = gateway()
        start(refused, second.port)
        val peer = second.accept()
        peer.expect<HelloFrame>()
        peer.welcome(sessionId = "on-second")
        assertEquals(
            listOf(LinkState.Connecting("127.0.0.1", refused, 1), LinkState.Connecting("127.0.0.1", second.port, 2), LinkState.Connected("on-second", null, at(second.port))),
            statesUntil<LinkState.Connected>(),
        )
    }

    @Test
    fun `a first gateway that closes before welcome sends the phone to the second, and when the second dies it goes back to the first after its backoff`() {
        val first = gateway()
        val second = gateway()
        start(first.port, second.port)
        val dropped = first.accept()
        dropped.expect<HelloFrame>()
        dropped.close()
        val onSecond = second.accept()
        onSecond.expect<HelloFrame>()
        onSecond.welcome(sessionId = "on-second")
        val untilSecond = statesUntil<LinkState.Connected>()
        assertEquals(LinkState.Connected("on-second", null, at(second.port)), untilSecond.last())
        assertTrue(untilSecond.none { it is LinkState.Reconnecting }, "no backoff within a round: $untilSecond")

        onSecond.close()
        val untilFirst = statesUntil<LinkState.Connecting>()
        val retry = untilFirst.filterIsInstance<LinkState.Reconnecting>().single()
        assertTrue(retry.delayMs in 250..1000, "delay ${retry.delayMs}")
        assertEquals(LinkState.Connecting("127.0.0.1", first.port, 1), untilFirst.last())
        val onFirst = first.accept()
        assertEquals("pixel-7-01", onFirst.expect<HelloFrame>().deviceId)
        onFirst.welcome(sessionId = "on-first")
        assertEquals(LinkState.Connected("on-first", null, at(first.port)), statesUntil<LinkState.Connected>().last())
    }
}
