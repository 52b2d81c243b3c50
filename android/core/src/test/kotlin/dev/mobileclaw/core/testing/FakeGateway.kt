package dev.mobileclaw.core.testing

import dev.mobileclaw.core.protocol.DecodeResult
import dev.mobileclaw.core.protocol.Frame
import dev.mobileclaw.core.protocol.FrameDecoder
import java.io.Closeable
import java.net.InetAddress
import java.net.ServerSocket
import java.net.Socket
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit
import kotlin.concurrent.thread

/**
 * A scripted gateway on a loopback port for link tests: each accepted connection is a [Peer] whose
 * received lines are decoded into a queue, and the test writes whatever raw lines it wants back.
 * Waits are bounded ([WAIT_S]) so that a broken link fails the test instead of hanging it.
 */
class FakeGateway(private val server: ServerSocket = ServerSocket(0, 50, InetAddress.getLoopbackAddress())) : Closeable {
    private val accepted = LinkedBlockingQueue<Peer>()
    private val peers = mutableListOf<Peer>()

    val port: Int get() = server.localPort

    init {
        thread(isDaemon = true, name = "fake-gateway-accept") {
            while (!server.isClosed) {
                val socket = try {
                    server.accept()
                } catch (e: java.io.IOException) {
                    break
                }
                val peer = Peer(socket)
                synchronized(peers) { peers += peer }
                accepted.put(peer)
            }
        }
    }

    /** The next connection from the phone. */
    fun accept(): Peer = accepted.poll(WAIT_S, TimeUnit.SECONDS) ?: error("no connection within $WAIT_S s")

    override fun close() {
        server.close()
        synchronized(peers) { peers.forEach { it.close() } }
    }

    /** One connection, seen from the gateway's side. */
    class Peer(private val socket: Socket) : Closeable {
        private val lines = LinkedBlockingQueue<String>()

        /** Completes when the phone closed the connection (or it broke). */
        val closedByPhone = java.util.concurrent.CountDownLatch(1)

        init {
            thread(isDaemon = true, name = "fake-gateway-peer") {
                try {
                    socket.getInputStream().bufferedReader(Charsets.UTF_8).forEachLine { lines.put(it) }
                } catch (e: java.io.IOException) {
                    // The connection ended; closedByPhone says so.
                }
                closedByPhone.countDown()
            }
        }

        /** The next line the phone sent, as text. */
        fun nextLine(): String = lines.poll(WAIT_S, TimeUnit.SECONDS) ?: error("no frame from the phone within $WAIT_S s")

        /** The next frame the phone sent, decoded. */
        fun next(): Frame = when (val decoded = FrameDecoder.decode(nextLine())) {
            is DecodeResult.Ok -> decoded.frame
            is DecodeResult.Rejected -> error("the phone sent an invalid frame: ${decoded.reason}")
        }

        /** The next frame of type [T], skipping pings and pongs (the heartbeat runs on its own). */
        inline fun <reified T : Frame> expect(): T {
            while (true) {
                val frame = next()
                if (frame is T) return frame
                if (frame.type != "ping" && frame.type != "pong") error("expected ${T::class.simpleName}, got $frame")
            }
        }

        /** Writes [line] and `\n`. */
        fun send(line: String) {
            val out = socket.getOutputStream()
            synchronized(out) {
                out.write((line + "\n").toByteArray(Charsets.UTF_8))
                out.flush()
            }
        }

        /** Sends a welcome with [heartbeatIntervalMs] and [maxFrameBytes]. */
        fun welcome(sessionId: String = "s-1", heartbeatIntervalMs: Long = 60_000, maxFrameBytes: Long = 16_777_216) =
            send("""{"type":"welcome","sessionId":"$sessionId","heartbeatIntervalMs":$heartbeatIntervalMs,"maxFrameBytes":$maxFrameBytes}""")

        /** True once the phone closed the connection, waiting at most [WAIT_S]. */
        fun awaitClosedByPhone(): Boolean = closedByPhone.await(WAIT_S, TimeUnit.SECONDS)

        override fun close() {
            socket.close()
        }
    }

    companion object {
        /** The longest any single wait in a link test may take, in seconds. */
        const val WAIT_S = 20L
    }
}
