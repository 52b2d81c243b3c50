package dev.mobileclaw.interop

import java.io.Closeable
import java.io.IOException
import java.io.InputStream
import java.io.OutputStream
import java.net.InetAddress
import java.net.ServerSocket
import java.net.Socket
import java.util.concurrent.CountDownLatch
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit
import kotlin.concurrent.thread

/**
 * A TCP relay between the phone and the gateway's device port that can cut the phone's side of a
 * connection while the gateway's side stays open — what a phone losing its Wi-Fi looks like to the
 * gateway (a half-open connection): the phone reconnects and its new hello must replace a session the
 * gateway still holds.
 */
class CuttableProxy(private val targetPort: Int) : Closeable {
    private val server = ServerSocket(0, 50, InetAddress.getLoopbackAddress())
    private val pairs = LinkedBlockingQueue<Pair>()
    private val all = java.util.Collections.synchronizedList(mutableListOf<Pair>())

    /** The port the phone connects to. */
    val port: Int get() = server.localPort

    /** One relayed connection. [gatewayClosed] counts down when the gateway closed its side. */
    class Pair(val phone: Socket, val gateway: Socket) {
        val gatewayClosed = CountDownLatch(1)

        /** Closes only the phone's side; the gateway's side stays open and unread-from. */
        fun cutPhoneSide() = phone.close()
    }

    init {
        thread(isDaemon = true, name = "proxy-accept") {
            while (!server.isClosed) {
                val phone = try { server.accept() } catch (e: IOException) { break }
                val gateway = Socket(InetAddress.getLoopbackAddress(), targetPort)
                val pair = Pair(phone, gateway)
                pump(phone.getInputStream(), gateway.getOutputStream()) {}
                pump(gateway.getInputStream(), phone.getOutputStream()) { pair.gatewayClosed.countDown() }
                all += pair
                pairs.put(pair)
            }
        }
    }

    /** The next connection the phone opened through the proxy. */
    fun nextPair(): Pair = pairs.poll(30, TimeUnit.SECONDS) ?: error("no connection through the proxy within 30 s")

    private fun pump(from: InputStream, to: OutputStream, onEnd: () -> Unit) = thread(isDaemon = true, name = "proxy-pump") {
        val buffer = ByteArray(64 * 1024)
        try {
            while (true) {
                val n = from.read(buffer)
                if (n < 0) break
                try {
                    to.write(buffer, 0, n)
                    to.flush()
                } catch (e: IOException) {
                    // The other side is cut: keep reading so that the end of this side is still seen.
                }
            }
        } catch (e: IOException) {
            // This side is closed.
        }
        onEnd()
    }

    override fun close() {
        server.close()
        synchronized(all) {
            all.forEach {
                it.phone.close()
                it.gateway.close()
            }
        }
    }
}
