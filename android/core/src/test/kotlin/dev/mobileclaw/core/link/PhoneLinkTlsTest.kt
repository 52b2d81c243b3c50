package dev.mobileclaw.core.link

import dev.mobileclaw.core.protocol.HelloFrame
import dev.mobileclaw.core.testing.FakeGateway
import dev.mobileclaw.core.testing.RecordingExecutor
import kotlinx.coroutines.runBlocking
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.io.File
import java.net.InetAddress
import java.security.KeyStore
import java.util.concurrent.LinkedBlockingQueue
import java.util.concurrent.TimeUnit
import javax.net.ssl.KeyManagerFactory
import javax.net.ssl.SSLContext
import javax.net.ssl.TrustManagerFactory

/**
 * TLS to the gateway (a TLS-terminating proxy in front of its device port): the link completes the
 * handshake, checks that the certificate names the host it dialled, and then speaks the protocol as
 * over plain TCP. The certificate is a self-signed one made with the JDK's keytool for `localhost`.
 */
class PhoneLinkTlsTest {
    @TempDir
    lateinit var dir: File

    private val links = mutableListOf<PhoneLink>()
    private val gateways = mutableListOf<FakeGateway>()

    @AfterEach
    fun tearDown() = runBlocking {
        links.forEach { it.stop() }
        gateways.forEach { it.close() }
    }

    private fun tlsContext(): SSLContext {
        val store = File(dir, "gateway.p12")
        val keytool = File(System.getProperty("java.home"), "bin/keytool").path
        val made = ProcessBuilder(
            keytool, "-genkeypair", "-alias", "gateway", "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
            "-dname", "CN=localhost", "-ext", "SAN=dns:localhost", "-storetype", "PKCS12",
            "-keystore", store.path, "-storepass", PASSWORD, "-keypass", PASSWORD,
        ).redirectErrorStream(true).start()
        assertTrue(made.waitFor(60, TimeUnit.SECONDS) && made.exitValue() == 0, made.inputStream.bufferedReader().readText())
        val keys = KeyStore.getInstance("PKCS12").apply { store.inputStream().use { load(it, PASSWORD.toCharArray()) } }
        val keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm()).apply { init(keys, PASSWORD.toCharArray()) }.keyManagers
        val trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm()).apply { init(keys) }.trustManagers
        return SSLContext.getInstance("TLS").apply { init(keyManagers, trustManagers, null) }
    }

    private fun link(host: String, port: Int, context: SSLContext, states: LinkedBlockingQueue<LinkState>) = PhoneLink(
        LinkConfig(host = host, port = port, token = "s3cret", deviceId = "tls-phone", tls = true),
        RecordingExecutor(),
        LinkOptions(tlsSocketFactory = context.socketFactory, onState = { states.put(it) }),
    ).also { links += it; it.start() }

    @Test
    fun `over TLS the link says hello and is welcomed as over plain TCP, and a certificate for another name is refused`() {
        val context = tlsContext()
        val server = context.serverSocketFactory.createServerSocket(0, 5, InetAddress.getLoopbackAddress())
        val gateway = FakeGateway(server).also { gateways += it }
        val states = LinkedBlockingQueue<LinkState>()
        link("localhost", gateway.port, context, states)
        val peer = gateway.accept()
        assertEquals("tls-phone", peer.expect<HelloFrame>().deviceId)
        peer.welcome(sessionId = "tls-1")
        while (true) {
            val state = states.poll(FakeGateway.WAIT_S, TimeUnit.SECONDS) ?: error("no Connected state")
            if (state is LinkState.Connected) {
                assertEquals("tls-1", state.sessionId)
                break
            }
        }

        // The same certificate reached as 127.0.0.1: it names localhost only, so the handshake fails.
        val mismatch = LinkedBlockingQueue<LinkState>()
        link("127.0.0.1", gateway.port, context, mismatch)
        while (true) {
            val state = mismatch.poll(FakeGateway.WAIT_S, TimeUnit.SECONDS) ?: error("no Reconnecting state")
            if (state is LinkState.Reconnecting) {
                assertTrue(state.reason.startsWith("cannot connect to 127.0.0.1:${gateway.port}: "), state.reason)
                break
            }
        }
    }

    private companion object {
        const val PASSWORD = "changeit"
    }
}
