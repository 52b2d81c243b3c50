package dev.mobileclaw.core.command

import dev.mobileclaw.core.protocol.ActionFrame
import dev.mobileclaw.core.protocol.ErrorResponse
import dev.mobileclaw.core.protocol.FrameEncoder
import dev.mobileclaw.core.protocol.ResponseFrame
import dev.mobileclaw.core.protocol.SuccessResponse
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.Job
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import java.util.Base64
import java.util.concurrent.ConcurrentHashMap
import kotlin.math.ceil

/**
 * Runs the actions of one connection (docs/protocol.md §4): strictly one at a time in the order
 * received, each answered by exactly one `response` with its request id, via [send] (one encoded line,
 * `\n` included).
 *
 * - The action's `timeoutMs` is enforced here, counted from receipt (queue time included): past it the
 *   action is abandoned (cancelled if running, skipped if queued) and answered `TIMEOUT` at once.
 * - `cancel` abandons the action the same way without an answer (the gateway no longer waits for one).
 * - A reply larger than [maxFrameBytes] is never sent: `PAYLOAD_TOO_LARGE` goes instead (a screenshot
 *   is asked to fit the budget before it is encoded, see [ScreenshotRequest.maxImageBytes]).
 * - `screenshot` and `ui_tree` results get a `frameId` from [frames] and `captureMs`.
 *
 * All work runs in [scope]; cancelling it (the connection closed) abandons everything without replies.
 */
class CommandDispatcher(
    private val executor: PhoneExecutor,
    private val frames: FrameRegistry,
    private val scope: CoroutineScope,
    private val maxFrameBytes: () -> Int,
    private val send: (ByteArray) -> Unit,
    private val hooks: ExecutionHooks = ExecutionHooks.NONE,
    private val log: (String) -> Unit = {},
) {
    private val parser = CommandParser(frames)
    private val queue = Channel<Pending>(Channel.UNLIMITED)
    private val pending = ConcurrentHashMap<String, Pending>()

    init {
        scope.launch {
            for (item in queue) runOne(item)
        }
    }

    /** Queues [action]; returns at once. A request id already queued or running is ignored (logged). */
    fun submit(action: ActionFrame) {
        val item = Pending(action)
        if (pending.putIfAbsent(action.requestId, item) != null) {
            log("ignored a second action with request id ${action.requestId}")
            return
        }
        action.timeoutMs?.takeIf { it > 0 }?.let { timeoutMs ->
            item.deadline = scope.launch {
                delay(ceil(timeoutMs).toLong())
                abandon(item, answerTimeout = true)
            }
        }
        queue.trySend(item)
    }

    /** `cancel` for [requestId]: abandons it without an answer; unknown or finished ids are ignored. */
    fun cancel(requestId: String) {
        pending[requestId]?.let { abandon(it, answerTimeout = false) }
    }

    /** Request ids queued or running, oldest first. */
    val outstanding: List<String> get() = pending.values.sortedBy { it.seq }.map { it.action.requestId }

    private suspend fun runOne(item: Pending) {
        val job = scope.launch(start = CoroutineStart.LAZY) {
            val line = reply(item.action)
            synchronized(item) {
                if (item.state != State.RUNNING) return@launch
                item.state = State.DONE
            }
            finish(item)
            send(line)
        }
        synchronized(item) {
            if (item.state != State.QUEUED) {
                job.cancel()
                return
            }
            item.state = State.RUNNING
            item.job = job
        }
        job.start()
        job.join()
    }

    private fun abandon(item: Pending, answerTimeout: Boolean) {
        val job: Job?
        synchronized(item) {
            if (item.state == State.DONE || item.state == State.ABANDONED) return
            job = item.job
            item.state = State.ABANDONED
        }
        job?.cancel(CancellationException(if (answerTimeout) "deadline passed" else "cancelled by the gateway"))
        finish(item)
        val action = item.action
        log("${action.command} ${action.requestId} abandoned: ${if (answerTimeout) "its ${action.timeoutMs} ms deadline passed" else "cancelled"}")
        if (answerTimeout) {
            send(encode(ErrorResponse(action.requestId, PhoneErrorCode.TIMEOUT, "${action.command} did not finish within its ${action.timeoutMs?.toLong()} ms deadline")))
        }
    }

    private fun finish(item: Pending) {
        item.deadline?.cancel()
        pending.remove(item.action.requestId, item)
    }

    /** Performs the action and returns its encoded response line; never throws but for cancellation. */
    private suspend fun reply(action: ActionFrame): ByteArray {
        val response: ResponseFrame = try {
            val command = parser.parse(action, executor.geometry())
            hooks.started(command, action.timeoutMs?.let { ceil(it).toLong() })
            try {
                SuccessResponse(action.requestId, perform(command))
            } finally {
                hooks.finished(command)
            }
        } catch (e: PhoneError) {
            ErrorResponse(action.requestId, e.code, e.message)
        } catch (e: CancellationException) {
            throw e
        } catch (e: Exception) {
            ErrorResponse(action.requestId, PhoneErrorCode.INTERNAL_ERROR, e.message ?: e.javaClass.name)
        }
        val line = encode(response)
        val limit = maxFrameBytes()
        if (line.size - 1 <= limit) return line
        return encode(
            ErrorResponse(
                action.requestId,
                PhoneErrorCode.PAYLOAD_TOO_LARGE,
                "the reply is ${line.size - 1} bytes, over the gateway's $limit-byte frame limit; ask for a smaller result (e.g. screenshot maxWidth or JPEG quality)",
            ),
        )
    }

    private suspend fun perform(command: Command): JsonObject = when (command) {
        is Command.Open -> empty().also { executor.open(command.packageName) }
        is Command.Click -> empty().also { executor.click(command.x, command.y) }
        is Command.LongPress -> empty().also { executor.longPress(command.x, command.y, command.durationMs) }
        is Command.Swipe -> empty().also { executor.swipe(command.x1, command.y1, command.x2, command.y2, command.durationMs) }
        is Command.Input -> executor.input(command.text, command.clear).let { outcome ->
            buildJsonObject {
                put("text", outcome.text)
                put("verified", outcome.verified)
                put("method", "set-text")
                outcome.verifyError?.let { put("verifyError", it) }
            }
        }
        Command.Back -> empty().also { executor.back() }
        Command.Home -> empty().also { executor.home() }
        is Command.Screenshot -> screenshot(command)
        Command.UiTree -> uiTree()
    }

    private suspend fun screenshot(command: Command.Screenshot): JsonObject {
        val startedAt = System.nanoTime()
        // base64 grows 3 bytes to 4; the rest of the frame (ids, sizes, screen) stays below 1 KiB.
        val budget = ((maxFrameBytes().toLong() - REPLY_ENVELOPE_BYTES).coerceAtLeast(0) / 4 * 3).toInt()
        val image = executor.screenshot(ScreenshotRequest(command.format, command.quality, command.maxWidth, budget))
        if (image.bytes.size > budget) {
            throw PhoneError(
                PhoneErrorCode.PAYLOAD_TOO_LARGE,
                "the ${image.format.wire} screenshot is ${image.bytes.size} bytes, over the $budget bytes that fit the gateway's ${maxFrameBytes()}-byte frame limit; ask for jpeg, a lower quality or a smaller maxWidth",
            )
        }
        val base64 = Base64.getEncoder().encodeToString(image.bytes)
        return buildJsonObject {
            put("mime", image.format.mime)
            put("width", image.width)
            put("height", image.height)
            put("base64", base64)
            put("frameId", frames.register(image.screen))
            put("screen", image.screen.toJson())
            put("captureMs", elapsedMs(startedAt))
        }
    }

    private suspend fun uiTree(): JsonObject {
        val startedAt = System.nanoTime()
        val tree = executor.uiTree()
        return buildJsonObject {
            put("frameId", frames.register(tree.screen))
            put("screen", tree.screen.toJson())
            put("nodes", kotlinx.serialization.json.JsonArray(tree.nodes.map { it.toJson() }))
            put("captureMs", elapsedMs(startedAt))
        }
    }

    private fun empty(): JsonObject = JsonObject(emptyMap())

    private fun elapsedMs(startedAt: Long): Long = (System.nanoTime() - startedAt) / 1_000_000

    private fun encode(response: ResponseFrame): ByteArray = FrameEncoder.encodeLine(response)

    private enum class State { QUEUED, RUNNING, DONE, ABANDONED }

    private class Pending(val action: ActionFrame) {
        val seq: Long = counter.incrementAndGet()
        var state: State = State.QUEUED
        var job: Job? = null
        var deadline: Job? = null
    }

    private companion object {
        val counter = java.util.concurrent.atomic.AtomicLong()

        /** Bytes reserved for a screenshot reply's fields other than its base64 text. */
        const val REPLY_ENVELOPE_BYTES = 1024L
    }
}
