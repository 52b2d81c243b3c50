package dev.mobileclaw.interop

import dev.mobileclaw.core.command.Command
import dev.mobileclaw.core.command.ImageFormat
import dev.mobileclaw.core.command.ScreenGeometry
import dev.mobileclaw.core.link.LinkConfig
import dev.mobileclaw.core.link.LinkOptions
import dev.mobileclaw.core.link.LinkState
import dev.mobileclaw.core.link.PhoneLink
import dev.mobileclaw.core.link.ReconnectBackoff
import dev.mobileclaw.core.testing.RecordingExecutor
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.runBlocking
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.int
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import kotlinx.serialization.json.put
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.TestInstance
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.util.Base64
import java.util.concurrent.Callable
import java.util.concurrent.Executors
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit
import kotlin.random.Random

/**
 * The JVM client (core's [PhoneLink] with a [RecordingExecutor]) against the real TypeScript gateway:
 * every command goes in through the gateway's REST API, as an agent sends it, and out of the phone's
 * executor. One gateway process serves the class; each test connects its own phone id.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GatewayInteropTest {
    private lateinit var gateway: GatewayProcess
    private lateinit var rest: RestClient
    private val links = mutableListOf<PhoneLink>()
    private val closeables = mutableListOf<AutoCloseable>()

    @BeforeAll
    fun startGateway() {
        gateway = GatewayProcess.start(TOKEN, mapOf("MOBILECLAW_MAX_FRAME_BYTES" to MAX_FRAME_BYTES.toString()))
        rest = RestClient(gateway.httpPort)
    }

    @AfterAll
    fun stopGateway() = gateway.close()

    @AfterEach
    fun disconnect() = runBlocking {
        links.forEach { it.stop() }
        links.clear()
        closeables.forEach { it.close() }
        closeables.clear()
    }

    /** A connected phone: its executor, its link and every state it reported. */
    private inner class Phone(val deviceId: String, port: Int = gateway.devicePort, token: String = TOKEN) {
        val executor = RecordingExecutor()
        val states = LinkedBlockingQueue<LinkState>()
        val link = PhoneLink(
            LinkConfig(host = "127.0.0.1", port = port, token = token, deviceId = deviceId),
            executor,
            LinkOptions(backoff = ReconnectBackoff(random = Random(3)), onState = { states.put(it) }),
        ).also { links += it }

        inline fun <reified T : LinkState> await(predicate: (T) -> Boolean = { true }): T {
            while (true) {
                val state = states.poll(60, TimeUnit.SECONDS) ?: error("$deviceId reported no ${T::class.simpleName} within 60 s; gateway log:\n${gateway.log.takeLast(4000)}")
                if (state is T && predicate(state)) return state
            }
        }

        fun connect(): Phone {
            link.start()
            await<LinkState.Connected>()
            return this
        }

        fun command(vararg fields: kotlin.Pair<String, Any>): RestClient.Answer = rest.command(deviceId, json(*fields))
    }

    private fun json(vararg fields: kotlin.Pair<String, Any>): JsonObject = buildJsonObject {
        for ((key, value) in fields) when (value) {
            is String -> put(key, value)
            is Number -> put(key, value)
            is Boolean -> put(key, value)
            else -> error("unsupported value $value")
        }
    }

    @Test
    fun `the phone registers with its hello facts and is listed online`() {
        val phone = Phone("jvm-register").connect()
        val device = rest.get("/api/devices/jvm-register").body
        assertEquals("online", device["status"]!!.jsonPrimitive.content)
        assertEquals("Recorder", device["model"]!!.jsonPrimitive.content)
        assertEquals("15", device["android"]!!.jsonPrimitive.content)
        assertEquals(1080, device["screen"]!!.jsonObject["width"]!!.jsonPrimitive.int)
        assertEquals(phone.link.sessionId, device["sessionId"]!!.jsonPrimitive.content)
        val listed = rest.get("/api/devices").body["devices"]!!.jsonArray.map { it.jsonObject["deviceId"]!!.jsonPrimitive.content }
        assertTrue("jvm-register" in listed, "listed: $listed")
    }

    @Test
    fun `replies correlate with their commands, also when several are queued at once`() {
        val phone = Phone("jvm-correlate").connect()
        val pool = Executors.newFixedThreadPool(6)
        try {
            val calls = (0 until 6).map { i -> pool.submit(Callable { phone.command("command" to "click", "x" to 100 + i, "y" to 200 + i) }) }
            val answers = calls.map { it.get(60, TimeUnit.SECONDS) }
            assertTrue(answers.all { it.status == 200 }, answers.toString())
            assertEquals(6, answers.map { it.body["requestId"]!!.jsonPrimitive.content }.toSet().size)
            assertEquals((0 until 6).map { Command.Click(100 + it, 200 + it) }.toSet(), phone.executor.performed.toSet())
            assertEquals(6, phone.executor.performed.size)
        } finally {
            pool.shutdownNow()
        }
        val app = phone.command("command" to "open", "app" to "com.android.settings")
        assertEquals(200, app.status)
        assertEquals("open", app.body["command"]!!.jsonPrimitive.content)
        val missing = phone.command("command" to "open", "app" to "com.example.nope")
        assertEquals(502, missing.status)
        assertEquals("DEVICE_ERROR", missing.body["code"]!!.jsonPrimitive.content)
        assertEquals("APP_NOT_FOUND", missing.body["deviceCode"]!!.jsonPrimitive.content)
    }

    @Test
    fun `Unicode text arrives byte-exact (CJK, emoji sequences, RTL, quotes, backslashes, control characters)`() {
        val phone = Phone("jvm-unicode").connect()
        phone.command("command" to "open", "app" to "com.android.settings")
        val text = "你好，世界 こんにちは 👩‍👩‍👧 🇯🇵 👋🏽 مرحبا שלום \"q\" \\ C:\\path\n\t100%"
        val answer = phone.command("command" to "input", "text" to text, "clear" to true)
        assertEquals(200, answer.status, answer.body.toString())
        val typed = phone.executor.performed.last() as Command.Input
        assertEquals(text, typed.text)
        assertTrue(text.toByteArray(Charsets.UTF_8).contentEquals(typed.text.toByteArray(Charsets.UTF_8)))
        assertEquals(text, answer.body["data"]!!.jsonObject["text"]!!.jsonPrimitive.content)
        assertEquals(true, answer.body["data"]!!.jsonObject["verified"]!!.jsonPrimitive.content.toBoolean())
    }

    @Test
    fun `a frame taken before a rotation is refused STALE_FRAME and nothing is executed`() {
        val phone = Phone("jvm-stale").connect()
        val tree = phone.command("command" to "ui_tree")
        assertEquals(200, tree.status)
        val frameId = tree.body["data"]!!.jsonObject["frameId"]!!.jsonPrimitive.content
        val before = phone.executor.performed.size
        phone.executor.screen = ScreenGeometry(2400, 1080, 1)
        val stale = phone.command("command" to "click", "x" to 10, "y" to 10, "frameId" to frameId)
        assertEquals(409, stale.status, stale.body.toString())
        assertEquals("STALE_FRAME", stale.body["code"]!!.jsonPrimitive.content)
        assertEquals(before, phone.executor.performed.size)
        val fresh = phone.command("command" to "ui_tree")
        val ok = phone.command("command" to "click", "x" to 10, "y" to 10, "frameId" to fresh.body["data"]!!.jsonObject["frameId"]!!.jsonPrimitive.content)
        assertEquals(200, ok.status)
    }

    @Test
    fun `an oversized screenshot is refused cleanly and the next screenshot arrives whole`() {
        val phone = Phone("jvm-oversized").connect()
        phone.executor.screenshotBytes = MAX_FRAME_BYTES
        val refused = phone.command("command" to "screenshot")
        assertEquals(502, refused.status, refused.body.toString())
        assertEquals("DEVICE_ERROR", refused.body["code"]!!.jsonPrimitive.content)
        assertEquals("PAYLOAD_TOO_LARGE", refused.body["deviceCode"]!!.jsonPrimitive.content)
        phone.executor.screenshotBytes = null
        val shot = phone.command("command" to "screenshot", "format" to "jpeg", "quality" to 70, "maxWidth" to 540)
        assertEquals(200, shot.status, shot.body.toString())
        val data = shot.body["data"]!!.jsonObject
        assertEquals("image/jpeg", data["mime"]!!.jsonPrimitive.content)
        assertEquals(540, data["width"]!!.jsonPrimitive.int)
        val bytes = Base64.getDecoder().decode(data["base64"]!!.jsonPrimitive.content)
        assertEquals(0xff, bytes[0].toInt() and 0xff)
        assertEquals(0xd8, bytes[1].toInt() and 0xff)
        assertEquals(Command.Screenshot(ImageFormat.JPEG, 70, 540), phone.executor.performed.last())
        assertEquals("online", rest.get("/api/devices/jvm-oversized").body["status"]!!.jsonPrimitive.content)
    }

    @Test
    fun `a command past its deadline times out at the gateway and the phone abandons it`() {
        val phone = Phone("jvm-deadline").connect()
        phone.executor.gate = CompletableDeferred()
        val late = phone.command("command" to "long_press", "x" to 5, "y" to 5, "timeoutMs" to 800)
        // Both ends enforce the deadline: normally the gateway's timer fires first (504 TIMEOUT); when its
        // event loop is late, the phone's own TIMEOUT answer arrives first (502 with deviceCode TIMEOUT).
        val code = late.body["code"]!!.jsonPrimitive.content
        if (late.status == 504) {
            assertEquals("TIMEOUT", code)
        } else {
            assertEquals(502 to "DEVICE_ERROR", late.status to code, late.body.toString())
            assertEquals("TIMEOUT", late.body["deviceCode"]!!.jsonPrimitive.content)
        }
        phone.executor.gate = null
        assertEquals(200, phone.command("command" to "back").status)
        assertEquals(Command.Back, phone.executor.performed.last())
    }

    @Test
    fun `a killed socket reconnects after its backoff and re-registers, replacing the session the gateway still held`() {
        val proxy = CuttableProxy(gateway.devicePort).also { closeables += it }
        val phone = Phone("jvm-reconnect", port = proxy.port).connect()
        val first = proxy.nextPair()
        val oldSession = phone.link.sessionId!!
        assertEquals(oldSession, rest.get("/api/devices/jvm-reconnect").body["sessionId"]!!.jsonPrimitive.content)
        first.cutPhoneSide()
        val retry = phone.await<LinkState.Reconnecting>()
        assertTrue(retry.delayMs in 250..1000, "first reconnect delay ${retry.delayMs} ms")
        val second = proxy.nextPair()
        val connected = phone.await<LinkState.Connected>()
        assertNotEquals(oldSession, connected.sessionId)
        // The gateway replaced the half-open session: it ended it from its side.
        assertTrue(first.gatewayClosed.await(30, TimeUnit.SECONDS), "the gateway kept the old session open")
        val device = rest.get("/api/devices/jvm-reconnect").body
        assertEquals(connected.sessionId, device["sessionId"]!!.jsonPrimitive.content)
        assertEquals("online", device["status"]!!.jsonPrimitive.content)
        assertEquals(200, phone.command("command" to "home").status)
        assertTrue(!second.phone.isClosed)
    }

    @Test
    fun `a wrong device token is refused and the phone stops instead of retrying`() {
        val phone = Phone("jvm-wrong-token", token = "not-the-token")
        phone.link.start()
        val refused = phone.await<LinkState.Refused>()
        assertEquals("UNAUTHORIZED", refused.code)
        assertEquals(LinkState.Refused("UNAUTHORIZED", refused.message), phone.link.state.value)
    }

    @Test
    fun `a whole agent task runs on the phone - the rule-based planner opens Settings and sees it open`() {
        val phone = Phone("jvm-task").connect()
        val created = rest.post("/api/tasks", buildJsonObject {
            put("deviceId", "jvm-task")
            put("goal", "open Settings")
        })
        assertEquals(202, created.status, created.body.toString())
        val taskId = created.body["taskId"]!!.jsonPrimitive.content
        // The task's event stream ends when the task does.
        val events = HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:${gateway.httpPort}/api/tasks/$taskId/events")).GET().build(),
            HttpResponse.BodyHandlers.ofLines(),
        ).body().toList()
        assertTrue(events.any { it.startsWith("event: task.completed") }, events.joinToString("\n"))
        val task = rest.get("/api/tasks/$taskId").body
        assertEquals("completed", task["status"]!!.jsonPrimitive.content, task.toString())
        val steps = task["steps"]!!.jsonArray
        val action = steps[0].jsonObject["plan"]!!.jsonObject["action"]!!.jsonObject
        assertEquals("open", action["command"]!!.jsonPrimitive.content)
        assertEquals("com.android.settings", action["app"]!!.jsonPrimitive.content)
        assertEquals("com.android.settings", phone.executor.foreground)
        // The phone saw the loop observe (screenshot + ui_tree), act once, and observe again; how many
        // reads an observation takes is the gateway's business.
        val commands = phone.executor.performed.map { it.name }
        assertEquals(listOf(Command.Open("com.android.settings")), phone.executor.performed.filterIsInstance<Command.Open>())
        val opened = commands.indexOf("open")
        assertTrue(commands.subList(0, opened).containsAll(listOf("screenshot", "ui_tree")), commands.toString())
        assertTrue(commands.subList(opened + 1, commands.size).containsAll(listOf("screenshot", "ui_tree")), commands.toString())
    }

    private companion object {
        const val TOKEN = "interop-device-token-0123456789"
        const val MAX_FRAME_BYTES = 2 * 1024 * 1024
    }
}
