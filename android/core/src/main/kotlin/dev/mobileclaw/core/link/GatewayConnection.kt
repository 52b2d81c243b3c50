package dev.mobileclaw.core.link

import dev.mobileclaw.core.protocol.Frame
import dev.mobileclaw.core.protocol.FrameEncoder
import java.io.IOException
import java.io.InputStream
import java.io.OutputStream
import java.net.InetSocketAddress
import java.net.Socket
import javax.net.SocketFactory
import javax.net.ssl.SSLSocket
import javax.net.ssl.SSLSocketFactory

/**
 * One TCP (or TLS) connection to the gateway: a thread-safe writer of whole lines and the times of the
 * last byte sent and received (ms of [clock]) that the heartbeat reads. Closing it is idempotent and
 * unblocks a reader stuck in [input].
 */
class GatewayConnection private constructor(private val socket: Socket, private val clock: () -> Long) {
    private val output: OutputStream = socket.getOutputStream()

    /** The connection's input stream; one reader. */
    val input: InputStream = socket.getInputStream()

    @Volatile
    var lastReceivedMs: Long = clock()
        private set

    @Volatile
    var lastSentMs: Long = clock()
        private set

    /** True once [close] ran or a write failed. */
    @Volatile
    var closed: Boolean = false
        private set

    /** Notes that bytes arrived (any frame is a sign of life). */
    fun received() {
        lastReceivedMs = clock()
    }

    /** Writes one encoded line (`\n` included); false when the connection is closed or the write failed (then it closes). */
    fun sendLine(line: ByteArray): Boolean {
        synchronized(output) {
            if (closed) return false
            return try {
                output.write(line)
                output.flush()
                lastSentMs = clock()
                true
            } catch (e: IOException) {
                close()
                false
            }
        }
    }

    /** Encodes and writes [frame]; see [sendLine]. */
    fun send(frame: Frame): Boolean = sendLine(FrameEncoder.encodeLine(frame))

    /** Closes the socket (idempotent). */
    fun close() {
        closed = true
        try {
            socket.close()
        } catch (e: IOException) {
            // Already broken: nothing left to release.
        }
    }

    companion object {
        /**
         * Connects to [host]:[port] within [connectTimeoutMs]; with [tls], completes a TLS handshake
         * over it through [tlsFactory] and verifies that the certificate names [host].
         * @throws IOException when the gateway cannot be reached or the handshake fails.
         */
        fun open(
            host: String,
            port: Int,
            tls: Boolean,
            connectTimeoutMs: Int,
            clock: () -> Long,
            socketFactory: SocketFactory = SocketFactory.getDefault(),
            tlsFactory: SSLSocketFactory,
        ): GatewayConnection {
            val plain = socketFactory.createSocket()
            try {
                plain.tcpNoDelay = true
                plain.keepAlive = true
                plain.connect(InetSocketAddress(host, port), connectTimeoutMs)
                if (!tls) return GatewayConnection(plain, clock)
                val secure = tlsFactory.createSocket(plain, host, port, true) as SSLSocket
                secure.sslParameters = secure.sslParameters.apply { endpointIdentificationAlgorithm = "HTTPS" }
                secure.soTimeout = connectTimeoutMs
                secure.startHandshake()
                secure.soTimeout = 0
                return GatewayConnection(secure, clock)
            } catch (e: IOException) {
                plain.close()
                throw e
            }
        }
    }
}
