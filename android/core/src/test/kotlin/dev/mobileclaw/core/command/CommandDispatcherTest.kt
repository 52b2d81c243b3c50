package dev.mobileclaw.core.command

import dev.mobileclaw.core.protocol.ActionFrame
import dev.mobileclaw.core.protocol.DecodeResult
import dev.mobileclaw.core.protocol.ErrorResponse
import dev.mobileclaw.core.protocol.FrameDecoder
import dev.mobileclaw.core.protocol.ResponseFrame
import dev.mobileclaw.core.protocol.SuccessResponse
import dev.mobileclaw.core.testing.RecordingExecutor
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.ExperimentalCoroutinesApi
import kotlinx.coroutines.test.TestScope
import kotlinx.coroutines.test.advanceTimeBy
import kotlinx.coroutines.test.runCurrent
import kotlinx.coroutines.test.runTest
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.int
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import java.util.Base64

@OptIn(ExperimentalCoroutinesApi::class)
class CommandDispatcherTest {
    private val executor = RecordingExecutor()
    private val sent = mutableListOf<ResponseFrame>()
    private val hookLog = mutableListOf<String>()
    private var maxFrameBytes = 16 * 1024 * 1024

    private fun TestScope.dispatcher(frames: FrameRegistry = FrameRegistry()) = CommandDispatcher(
        executor = executor,
        frames = frames,
        scope = backgroundScope,
        maxFrameBytes = { maxFrameBytes },
        send = { line ->
            assertEquals('\n'.code.toByte(), line.last())
            sent += (FrameDecoder.decode(line.copyOf(line.size - 1)) as DecodeResult.Ok).frame as ResponseFrame
        },
        hooks = object : ExecutionHooks {
            override fun started(command: Command, timeoutMs: Long?) { hookLog += "start ${command.name} $timeoutMs" }
            override fun finished(command: Command) { hookLog += "end ${command.name}" }
        },
    )

    private fun action(requestId: String, fields: String, timeoutMs: Long? = 30_000): ActionFrame {
        val timeout = timeoutMs?.let { ""","timeoutMs":$it""" } ?: ""
        return (FrameDecoder.decode("""{"type":"action","requestId":"$requestId",$fields$timeout}""") as DecodeResult.Ok).frame as ActionFrame
    }

    @Test
    fun `actions run one at a time in the order received, each answered once with its request id`() = runTest {
        val d = dispatcher()
        executor.gate = CompletableDeferred()
        d.submit(action("a", """"command":"click","x":1,"y":2"""))
        d.submit(action("b", """"command":"back""""))
        d.submit(action("c", """"command":"home""""))
        runCurrent()
        assertEquals(listOf(Command.Click(1, 2)), executor.performed.toList())
        assertEquals(listOf("a", "b", "c"), d.outstanding)
        executor.gate!!.complete(Unit)
        runCurrent()
        assertEquals(listOf(Command.Click(1, 2), Command.Back, Command.Home), executor.performed.toList())
        assertEquals(listOf("a", "b", "c"), sent.map { it.requestId })
        assertTrue(sent.all { it is SuccessResponse })
        assertEquals(listOf("start click 30000", "end click", "start back 30000", "end back", "start home 30000", "end home"), hookLog)
    }

    @Test
    fun `an action past its deadline is abandoned and answered TIMEOUT, and the next one runs`() = runTest {
        val d = dispatcher()
        executor.gate = CompletableDeferred()
        d.submit(action("slow", """"command":"click","x":1,"y":2""", timeoutMs = 500))
        d.submit(action("next", """"command":"back""""))
        runCurrent()
        advanceTimeBy(499)
        runCurrent()
        assertEquals(emptyList<ResponseFrame>(), sent)
        executor.gate = null
        advanceTimeBy(2)
        runCurrent()
        assertEquals(ErrorResponse("slow", PhoneErrorCode.TIMEOUT, "click did not finish within its 500 ms deadline"), sent[0])
        assertEquals(SuccessResponse("next", JsonObject(emptyMap())), sent[1])
        assertEquals(listOf("start click 500", "end click", "start back 30000", "end back"), hookLog)
    }

    @Test
    fun `a queued action whose deadline passes is answered TIMEOUT and never performed`() = runTest {
        val d = dispatcher()
        executor.gate = CompletableDeferred()
        d.submit(action("first", """"command":"back""""))
        d.submit(action("queued", """"command":"home"""", timeoutMs = 100))
        runCurrent()
        advanceTimeBy(101)
        runCurrent()
        assertEquals(listOf("queued"), sent.map { it.requestId })
        assertEquals(PhoneErrorCode.TIMEOUT, (sent[0] as ErrorResponse).code)
        executor.gate!!.complete(Unit)
        runCurrent()
        assertEquals(listOf(Command.Back), executor.performed.toList())
        assertEquals(listOf("queued", "first"), sent.map { it.requestId })
    }

    @Test
    fun `cancel abandons the running action without an answer`() = runTest {
        val d = dispatcher()
        executor.gate = CompletableDeferred()
        d.submit(action("c1", """"command":"swipe","x1":1,"y1":1,"x2":5,"y2":5"""))
        runCurrent()
        d.cancel("c1")
        d.cancel("unknown")
        runCurrent()
        assertEquals(emptyList<ResponseFrame>(), sent)
        assertEquals(emptyList<String>(), d.outstanding)
        executor.gate = null
        d.submit(action("c2", """"command":"home""""))
        runCurrent()
        assertEquals(listOf("c2"), sent.map { it.requestId })
    }

    @Test
    fun `refusals carry the phone's code, and unexpected failures are INTERNAL_ERROR`() = runTest {
        val d = dispatcher()
        d.submit(action("u", """"command":"fly""""))
        d.submit(action("o", """"command":"open","app":"com.example.nope""""))
        d.submit(action("i", """"command":"input","text":"x""""))
        runCurrent()
        executor.failWith = null
        assertEquals(listOf(PhoneErrorCode.UNSUPPORTED_COMMAND, PhoneErrorCode.APP_NOT_FOUND, PhoneErrorCode.NO_FOCUSED_INPUT), sent.map { (it as ErrorResponse).code })
        assertEquals("package com.example.nope is not installed", (sent[1] as ErrorResponse).message)
        val crashing = object : PhoneExecutor by executor {
            override suspend fun back() = throw IllegalStateException("window manager died")
        }
        val d2 = CommandDispatcher(crashing, FrameRegistry(), backgroundScope, { maxFrameBytes }, { line -> sent += (FrameDecoder.decode(line.copyOf(line.size - 1)) as DecodeResult.Ok).frame as ResponseFrame })
        d2.submit(action("x", """"command":"back""""))
        runCurrent()
        assertEquals(ErrorResponse("x", PhoneErrorCode.INTERNAL_ERROR, "window manager died"), sent.last())
    }

    @Test
    fun `input reports the text read back and whether it matched`() = runTest {
        val d = dispatcher()
        executor.foreground = "com.android.settings"
        executor.fieldText = "a"
        d.submit(action("t", """"command":"input","text":"مرحبا 👋""""))
        runCurrent()
        val data = (sent.single() as SuccessResponse).data!!
        assertEquals("aمرحبا 👋", data["text"]!!.jsonPrimitive.content)
        assertEquals("true", data["verified"]!!.jsonPrimitive.content)
        assertEquals("set-text", data["method"]!!.jsonPrimitive.content)
    }

    @Test
    fun `a screenshot reply carries the image, its size, the screen and a frame id bound to the screen`() = runTest {
        val frames = FrameRegistry()
        val d = dispatcher(frames)
        executor.screenshotBytes = 100
        d.submit(action("s", """"command":"screenshot","format":"jpeg","maxWidth":540"""))
        runCurrent()
        val data = (sent.single() as SuccessResponse).data!!
        assertEquals("image/jpeg", data["mime"]!!.jsonPrimitive.content)
        assertEquals(540, data["width"]!!.jsonPrimitive.int)
        assertEquals(1200, data["height"]!!.jsonPrimitive.int)
        assertEquals(100, Base64.getDecoder().decode(data["base64"]!!.jsonPrimitive.content).size)
        assertEquals("""{"width":1080,"height":2400,"rotation":0}""", data["screen"].toString())
        assertEquals(ScreenGeometry(1080, 2400, 0), frames.geometry(data["frameId"]!!.jsonPrimitive.content))
        assertTrue(data["captureMs"]!!.jsonPrimitive.int >= 0)
    }

    @Test
    fun `a screenshot that cannot fit the gateway's frame limit is refused PAYLOAD_TOO_LARGE, and the next command works`() = runTest {
        maxFrameBytes = 4096
        val d = dispatcher()
        executor.screenshotBytes = 3000
        d.submit(action("big", """"command":"screenshot""""))
        d.submit(action("after", """"command":"home""""))
        runCurrent()
        val refusal = sent[0] as ErrorResponse
        assertEquals(PhoneErrorCode.PAYLOAD_TOO_LARGE, refusal.code)
        assertEquals("the png screenshot is 3000 bytes, over the 2304 bytes that fit the gateway's 4096-byte frame limit; ask for jpeg, a lower quality or a smaller maxWidth", refusal.message)
        assertTrue(sent[1] is SuccessResponse)
    }

    @Test
    fun `any other reply over the frame limit becomes PAYLOAD_TOO_LARGE`() = runTest {
        maxFrameBytes = 200
        val d = dispatcher()
        d.submit(action("tree", """"command":"ui_tree""""))
        runCurrent()
        val refusal = sent.single() as ErrorResponse
        assertEquals(PhoneErrorCode.PAYLOAD_TOO_LARGE, refusal.code)
        assertTrue(refusal.message!!.endsWith("over the gateway's 200-byte frame limit; ask for a smaller result (e.g. screenshot maxWidth or JPEG quality)"), refusal.message)
    }

    @Test
    fun `ui_tree data holds the frame id, the screen and the nodes in the protocol's schema`() = runTest {
        val d = dispatcher()
        d.submit(action("t", """"command":"ui_tree""""))
        runCurrent()
        val data = (sent.single() as SuccessResponse).data!!
        val root = data["nodes"]!!.jsonArray.single().jsonObject
        assertEquals(
            listOf("id", "class", "text", "desc", "resourceId", "package", "bounds", "clickable", "focusable", "editable", "checkable", "checked", "enabled", "focused", "scrollable", "selected", "longClickable", "password", "children"),
            root.keys.toList(),
        )
        assertEquals("[0,0,1080,2400]", root["bounds"].toString())
        val settings = (root["children"] as JsonArray)[0].jsonObject
        assertEquals("Settings", settings["text"]!!.jsonPrimitive.content)
        assertEquals("[0,147,270,399]", settings["bounds"].toString())
        assertEquals(setOf("frameId", "screen", "nodes", "captureMs"), data.keys)
    }

    @Test
    fun `an action planned on a frame taken before a rotation is STALE_FRAME and never reaches the executor`() = runTest {
        val d = dispatcher()
        d.submit(action("t", """"command":"ui_tree""""))
        runCurrent()
        val frameId = (sent.single() as SuccessResponse).data!!["frameId"]!!.jsonPrimitive.content
        executor.screen = ScreenGeometry(2400, 1080, 1)
        d.submit(action("c", """"command":"click","x":5,"y":5,"frameId":"$frameId""""))
        runCurrent()
        assertEquals(PhoneErrorCode.STALE_FRAME, (sent.last() as ErrorResponse).code)
        assertEquals(listOf<Command>(Command.UiTree), executor.performed.toList())
    }
}
