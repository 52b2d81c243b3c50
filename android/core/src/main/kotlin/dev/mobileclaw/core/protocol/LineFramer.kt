package dev.mobileclaw.core.protocol

import java.io.ByteArrayOutputStream

/**
 * Splits a byte stream into `\n`-terminated lines (docs/protocol.md, "Framing"), whatever the chunking:
 * 1-byte reads, many lines per read, a UTF-8 character split across reads (bytes are only handed on
 * once a whole line is in). One `\r` before the `\n` is removed and empty lines are skipped.
 *
 * A line longer than [maxFrameBytes] (bytes before the `\n`, a trailing `\r` included) is discarded
 * without buffering it: only its first [headBytes] are kept for [onOversized] (which receives them and
 * the line's full size in bytes), the rest is skipped up to the next `\n`, and the stream stays usable.
 * Memory stays within [maxFrameBytes] plus one chunk. Not thread-safe: one reader pushes.
 */
class LineFramer(
    /** Largest accepted line in bytes, `\n` excluded; may be changed between pushes (e.g. after `welcome`). */
    var maxFrameBytes: Int,
    private val onLine: (ByteArray) -> Unit,
    private val onOversized: (head: ByteArray, size: Long) -> Unit,
    private val headBytes: Int = 4096,
) {
    private val buffer = ByteArrayOutputStream()

    /** > 0 while skipping an oversized line: the bytes seen of it so far. */
    private var discarding = 0L
    private var head: ByteArray? = null

    /** Bytes held for an incomplete line. */
    val bufferedBytes: Int get() = buffer.size()

    /** Feeds [length] bytes of [chunk] from [offset]; calls back for every line they complete. */
    fun push(chunk: ByteArray, offset: Int = 0, length: Int = chunk.size - offset) {
        var start = offset
        val end = offset + length
        while (start < end) {
            val nl = indexOfNewline(chunk, start, end)
            if (discarding > 0) {
                if (nl < 0) {
                    discarding += end - start
                    return
                }
                finishDiscard(discarding + (nl - start))
                start = nl + 1
                continue
            }
            if (nl < 0) {
                val rest = end - start
                if (buffer.size().toLong() + rest > maxFrameBytes) {
                    beginDiscard(chunk, start, end, buffer.size().toLong() + rest)
                } else {
                    buffer.write(chunk, start, rest)
                }
                return
            }
            val lineLength = buffer.size().toLong() + (nl - start)
            if (lineLength > maxFrameBytes) {
                beginDiscard(chunk, start, nl, lineLength)
                finishDiscard(lineLength)
            } else {
                buffer.write(chunk, start, nl - start)
                var line = buffer.toByteArray()
                buffer.reset()
                if (line.isNotEmpty() && line[line.size - 1] == CR) line = line.copyOf(line.size - 1)
                if (line.isNotEmpty()) onLine(line)
            }
            start = nl + 1
        }
    }

    /** Drops any partial line (e.g. when the connection closes). */
    fun reset() {
        buffer.reset()
        discarding = 0
        head = null
    }

    private fun beginDiscard(chunk: ByteArray, from: Int, to: Int, seen: Long) {
        val kept = ByteArrayOutputStream()
        val buffered = buffer.toByteArray()
        kept.write(buffered, 0, minOf(buffered.size, headBytes))
        val more = minOf(to - from, headBytes - kept.size())
        if (more > 0) kept.write(chunk, from, more)
        head = kept.toByteArray()
        buffer.reset()
        discarding = maxOf(seen, 1)
    }

    private fun finishDiscard(size: Long) {
        val kept = head ?: ByteArray(0)
        discarding = 0
        head = null
        onOversized(kept, size)
    }

    private fun indexOfNewline(chunk: ByteArray, from: Int, to: Int): Int {
        for (i in from until to) if (chunk[i] == LF) return i
        return -1
    }

    private companion object {
        const val LF: Byte = 0x0a
        const val CR: Byte = 0x0d
    }
}
