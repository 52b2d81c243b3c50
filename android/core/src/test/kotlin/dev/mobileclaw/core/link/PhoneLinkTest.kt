package dev.mobileclaw.core.link

import dev.mobileclaw.core.command.PhoneErrorCode
import dev.mobileclaw.core.protocol.ErrorResponse
import dev.mobileclaw.core.protocol.HelloFrame
import dev.mobileclaw.core.protocol.PingFrame
import dev.mobileclaw.core.protocol.PongFrame
import dev.mobileclaw.core.protocol.SuccessResponse
import dev.mobileclaw.core.testing.FakeGateway
import dev.mobileclaw.core.testing.RecordingExecutor
import kotlinx.coroutines.flow.MutableStateFlow
import kotlinx.coroutines.flow.StateFlow
import kotlinx.coroutines.runBlocking
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit
import kotlin.random.Random

class PhoneLinkTest {
    private val gateway = FakeGateway()
    private val executor = RecordingExecutor()
    private val states = LinkedBlockingQueue<LinkState>()
    private val network = object : NetworkMonitor {
        val flow = MutableStateFlow(true)
        override val online: StateFlow<Boolean> = flow
    }
    private val links = mutableListOf<PhoneLink>()

    private fun link(
        config: LinkConfig = LinkConfig(host = "127.0.0.1", port = gateway.port, token = "s3cret", deviceId = "pixel-7-01"),
        options: LinkOptions = LinkOptions(),
    ): PhoneLink = PhoneLink(
        config,
        executor,
        options.copy(network = network, backoff = ReconnectBackoff(random = Random(1)), onState = { states.put(it) }),
    ).also { links += it; it.start() }

    /** The first state reported from now on that matches [predicate]. */
    private inline fun <reified T : LinkState> awaitState(predicate: (T) -> Boolean = { true }): T {
        while (true) {
            val state = states.poll(FakeGateway.WAIT_S, TimeUnit.SECONDS) ?: error("no ${T::class.simpleName} state within ${FakeGateway.WAIT_S} s")
            if (state is T && predicate(state)) return state
        }
    }

    @AfterEach
    fun tearDown() = runBlocking {
        links.forEach { it.stop() }
        gateway.close()
    }

    @Test
    fun `hello names the device, its facts and capabilities, welcome connects and a pong gives the round-trip time`() {
        link()
        val peer = gateway.accept()
        val hello = peer.next() as HelloFrame
        assertEquals(1, hello.protocolVersion)
        assertEquals("pixel-7-01", hello.deviceId)
        assertEquals("s3cret", hello.token)
        assertEquals("""{"model":"Recorder","manufacturer":"MobileClaw","android":"15","screen":{"width":1080,"height":2400,"densityDpi":420,"rotation":0}}""", hello.device.toString())
        assertEquals(listOf("open", "click", "long_press", "swipe", "input", "back", "home", "screenshot", "ui_tree"), hello.capabilities)
        assertEquals("""{"name":"mobileclaw-android","version":"0.1.0"}""", hello.client.toString())
        peer.welcome(sessionId = "s-42")
        assertEquals(LinkState.Connected("s-42", null, GatewayAddress("127.0.0.1", gateway.port)), awaitState<LinkState.Connected>())
        val ping = peer.expect<PingFrame>()
        peer.send("""{"type":"pong","ts":${ping.ts}}""")
        val measured = awaitState<LinkState.Connected> { it.rttMs != null }
        assertTrue(measured.rttMs!! >= 0)
    }

    @Test
    fun `the gateway's ping is answered with the same ts, copied verbatim`() {
        link()
        val peer = gateway.accept()
        peer.expect<HelloFrame>()
        peer.welcome()
        peer.send("""{"type":"ping","ts":1767225600000.5}""")
        peer.send("""{"type":"ping"}""")
        val pongs = generateSequence { peer.next() }.filterIsInstance<PongFrame>().take(2).toList()
        assertEquals(listOf("1767225600000.5", null), pongs.map { it.ts?.toString() })
    }

    @Test
    fun `actions are answered with their request ids, an action without a command is INVALID_ARGUMENT`() {
        link()
        val peer = gateway.accept()
        peer.expect<HelloFrame>()
        peer.welcome()
        peer.send("""{"type":"action","requestId":"7f3a-1","command":"open","app":"com.android.settings","timeoutMs":30000}""")
        assertEquals(SuccessResponse("7f3a-1", kotlinx.serialization.json.JsonObject(emptyMap())), peer.expect<SuccessResponse>())
        peer.send("""{"type":"action","requestId":"7f3a-2","x":1,"y":2}""")
        val refusal = peer.expect<ErrorResponse>()
        assertEquals("7f3a-2", refusal.requestId)
        assertEquals(PhoneErrorCode.INVALID_ARGUMENT, refusal.code)
        peer.send("""{"type":"action","requestId":"7f3a-3","command":"input","text":"你好 👋 \"hi\"","timeoutMs":30000}""")
        val typed = peer.expect<SuccessResponse>()
        assertEquals("你好 👋 \"hi\"", typed.data!!["text"]!!.jsonPrimitive.content)
    }

    @Test
    fun `a wrong token stops the link in Refused instead of retrying`() {
        val link = link()
        val peer = gateway.accept()
        peer.expect<HelloFrame>()
        peer.send("""{"type":"error","code":"UNAUTHORIZED","message":"invalid device token"}""")
        assertEquals(LinkState.Refused("UNAUTHORIZED", "invalid device token"), awaitState<LinkState.Refused>())
        assertTrue(peer.awaitClosedByPhone())
        assertEquals(LinkState.Refused("UNAUTHORIZED", "invalid device token"), link.state.value)
    }

    @Test
    fun `a closed connection is retried after a jittered backoff of at most 1 s, with a new hello`() {
        link()
        val first = gateway.accept()
        first.expect<HelloFrame>()
        first.welcome(sessionId = "s-1")
        awaitState<LinkState.Connected>()
        first.close()
        val retry = awaitState<LinkState.Reconnecting>()
        assertTrue(retry.delayMs in 250..1000, "delay ${retry.delayMs}")
        val second = gateway.accept()
        assertEquals("pixel-7-01", second.expect<HelloFrame>().deviceId)
        second.welcome(sessionId = "s-2")
        assertEquals("s-2", awaitState<LinkState.Connected>().sessionId)
    }

    @Test
    fun `DEVICE_REPLACED is reported as another phone taking the id, and the backoff keeps growing`() {
        link()
        val first = gateway.accept()
        first.expect<HelloFrame>()
        first.welcome()
        awaitState<LinkState.Connected>()
        first.send("""{"type":"error","code":"DEVICE_REPLACED","message":"replaced by session s-9"}""")
        first.close()
        val retry = awaitState<LinkState.Reconnecting>()
        assertEquals("another phone took device id pixel-7-01 (replaced by session s-9)", retry.reason)
        val second = gateway.accept()
        second.expect<HelloFrame>()
        second.close()
        val again = awaitState<LinkState.Reconnecting>()
        assertTrue(again.delayMs in 250..2000, "second delay ${again.delayMs}")
    }

    @Test
    fun `a gateway silent for two heartbeat intervals is dropped after the phone's own ping`() {
        link()
        val peer = gateway.accept()
        peer.expect<HelloFrame>()
        peer.welcome(heartbeatIntervalMs = 200)
        awaitState<LinkState.Connected>()
        assertTrue(peer.next() is PingFrame)
        val retry = awaitState<LinkState.Reconnecting>()
        assertTrue(retry.reason.startsWith("no frame from the gateway for "), retry.reason)
        assertTrue(peer.awaitClosedByPhone())
    }

    @Test
    fun `without a network the link drops its connection and waits, then connects at once when it returns`() {
        link()
        val peer = gateway.accept()
        peer.expect<HelloFrame>()
        peer.welcome()
        awaitState<LinkState.Connected>()
        network.flow.value = false
        awaitState<LinkState.WaitingForNetwork>()
        assertTrue(peer.awaitClosedByPhone())
        network.flow.value = true
        val next = gateway.accept()
        assertEquals("pixel-7-01", next.expect<HelloFrame>().deviceId)
    }

    @Test
    fun `events are sent only once welcomed`() {
        val link = link()
        val peer = gateway.accept()
        peer.expect<HelloFrame>()
        assertEquals(false, link.sendEvent("screen", null))
        peer.welcome()
        awaitState<LinkState.Connected>()
        assertTrue(link.sendEvent("screen", kotlinx.serialization.json.buildJsonObject { put("width", kotlinx.serialization.json.JsonPrimitive(2400)) }))
        while (true) {
            val line = peer.nextLine()
            if (line.contains("\"event\"")) {
                assertEquals("""{"type":"event","event":"screen","data":{"width":2400}}""", line)
                break
            }
        }
    }
}
