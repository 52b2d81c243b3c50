package dev.mobileclaw.core.command

import dev.mobileclaw.core.protocol.ActionFrame
import dev.mobileclaw.core.protocol.DecodeResult
import dev.mobileclaw.core.protocol.FrameDecoder
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

class CommandParserTest {
    private val frames = FrameRegistry()
    private val parser = CommandParser(frames)
    private val screen = ScreenGeometry(1080, 2400, 0)

    private fun action(fields: String): ActionFrame =
        (FrameDecoder.decode("""{"type":"action","requestId":"r1",$fields}""") as DecodeResult.Ok).frame as ActionFrame

    private fun parse(fields: String) = parser.parse(action(fields), screen)

    private fun refusal(fields: String): PhoneError = assertThrows { parse(fields) }

    @Test
    fun `every command of the protocol parses with its arguments`() {
        assertEquals(Command.Open("com.android.settings"), parse(""""command":"open","app":"com.android.settings""""))
        assertEquals(Command.Click(540, 1200), parse(""""command":"click","x":540,"y":1200"""))
        assertEquals(Command.LongPress(300, 800, 800), parse(""""command":"long_press","x":300,"y":800,"durationMs":800"""))
        assertEquals(Command.LongPress(300, 800, null), parse(""""command":"long_press","x":300,"y":800"""))
        assertEquals(Command.Swipe(540, 1800, 540, 600, 300), parse(""""command":"swipe","x1":540,"y1":1800,"x2":540,"y2":600,"durationMs":300"""))
        assertEquals(Command.Input("你好 👋", true), parse(""""command":"input","text":"你好 👋","clear":true"""))
        assertEquals(Command.Input("", false), parse(""""command":"input","text":"""""))
        assertEquals(Command.Back, parse(""""command":"back""""))
        assertEquals(Command.Home, parse(""""command":"home""""))
        assertEquals(Command.Screenshot(ImageFormat.JPEG, 80, 720), parse(""""command":"screenshot","format":"jpeg","quality":80,"maxWidth":720"""))
        assertEquals(Command.Screenshot(ImageFormat.PNG, null, null), parse(""""command":"screenshot""""))
        assertEquals(Command.UiTree, parse(""""command":"ui_tree""""))
    }

    @Test
    fun `coordinates are rounded to the nearest pixel`() {
        assertEquals(Command.Click(541, 1199), parse(""""command":"click","x":540.5,"y":1199.4"""))
    }

    @Test
    fun `an unknown command is UNSUPPORTED_COMMAND naming the supported ones`() {
        val e = refusal(""""command":"fly"""")
        assertEquals(PhoneErrorCode.UNSUPPORTED_COMMAND, e.code)
        assertTrue(e.message!!.contains("open, click, long_press, swipe, input, back, home, screenshot, ui_tree"))
    }

    @Test
    fun `bad arguments are INVALID_ARGUMENT naming the argument and what it got`() {
        assertEquals("\"x\" must be a finite number, got nothing", refusal(""""command":"click","y":1""").message)
        assertEquals("\"y\" must be a finite number, got \"12\"", refusal(""""command":"click","x":1,"y":"12"""").message)
        assertEquals("\"app\" must be a non-empty string, got \"\"", refusal(""""command":"open","app":""""").message)
        assertEquals("\"text\" must be a string, got 5", refusal(""""command":"input","text":5""").message)
        assertEquals("\"clear\" must be a boolean, got \"yes\"", refusal(""""command":"input","text":"a","clear":"yes"""").message)
        assertEquals("\"format\" must be \"png\" or \"jpeg\", got \"gif\"", refusal(""""command":"screenshot","format":"gif"""").message)
        assertEquals("\"quality\" must be between 1 and 100, got 0.0", refusal(""""command":"screenshot","quality":0""").message)
        assertEquals("\"durationMs\" must be between 1 and 60000, got 0.0", refusal(""""command":"swipe","x1":1,"y1":1,"x2":2,"y2":2,"durationMs":0""").message)
        assertEquals(PhoneErrorCode.INVALID_ARGUMENT, refusal(""""command":"click","x":true,"y":1""").code)
    }

    @Test
    fun `a point off the screen is OUT_OF_BOUNDS`() {
        val e = refusal(""""command":"click","x":1080,"y":10""")
        assertEquals(PhoneErrorCode.OUT_OF_BOUNDS, e.code)
        assertEquals("(1080, 10) is outside the 1080x2400 screen", e.message)
        assertEquals(PhoneErrorCode.OUT_OF_BOUNDS, refusal(""""command":"swipe","x1":10,"y1":10,"x2":10,"y2":-1""").code)
    }

    @Test
    fun `a frame of the current geometry passes, after a rotation, or unknown, it is STALE_FRAME before anything else`() {
        val frameId = frames.register(screen)
        assertEquals(Command.Click(1, 2), parser.parse(action(""""command":"click","x":1,"y":2,"frameId":"$frameId""""), screen))
        val rotated = ScreenGeometry(2400, 1080, 1)
        val stale = assertThrows<PhoneError> { parser.parse(action(""""command":"click","frameId":"$frameId""""), rotated) }
        assertEquals(PhoneErrorCode.STALE_FRAME, stale.code)
        assertEquals("frame $frameId was 1080x2400 rotation 0; the screen is now 2400x1080 rotation 1", stale.message)
        assertEquals(PhoneErrorCode.STALE_FRAME, refusal(""""command":"click","x":1,"y":2,"frameId":"f-42"""").code)
        assertEquals(PhoneErrorCode.INVALID_ARGUMENT, refusal(""""command":"click","x":1,"y":2,"frameId":42""").code)
    }

    @Test
    fun `the registry remembers its last frames only`() {
        val registry = FrameRegistry(capacity = 32)
        val first = registry.register(screen)
        repeat(32) { registry.register(screen) }
        assertEquals(null, registry.geometry(first))
        assertThrows<IllegalArgumentException> { FrameRegistry(capacity = 31) }
    }
}
