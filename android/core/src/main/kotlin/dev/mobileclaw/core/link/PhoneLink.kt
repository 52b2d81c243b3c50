package dev.mobileclaw.core.link

import dev.mobileclaw.core.command.CommandDispatcher
import dev.mobileclaw.core.command.ExecutionHooks
import dev.mobileclaw.core.command.FrameRegistry
import dev.mobileclaw.core.command.PhoneErrorCode
import dev.mobileclaw.core.command.PhoneExecutor
import dev.mobileclaw.core.protocol.ActionFrame
import dev.mobileclaw.core.protocol.CancelFrame
import dev.mobileclaw.core.protocol.DEFAULT_MAX_FRAME_BYTES
import dev.mobileclaw.core.protocol.DecodeResult
import dev.mobileclaw.core.protocol.ErrorFrame
import dev.mobileclaw.core.protocol.ErrorResponse
import dev.mobileclaw.core.protocol.EventFrame
import dev.mobileclaw.core.protocol.Frame
import dev.mobileclaw.core.protocol.FrameDecoder
import dev.mobileclaw.core.protocol.HelloFrame
import dev.mobileclaw.core.protocol.LineFramer
import dev.mobileclaw.core.protocol.PROTOCOL_VERSION
import dev.mobileclaw.core.protocol.PingFrame
import dev.mobileclaw.core.protocol.PongFrame
import dev.mobileclaw.core.protocol.WelcomeFrame
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.Job
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.cancelChildren
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.MutableStateFlow
import kotlinx.coroutines.flow.StateFlow
import kotlinx.coroutines.flow.asStateFlow
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.isActive
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeoutOrNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import java.io.IOException
import javax.net.ssl.SSLSocketFactory
import kotlin.coroutines.coroutineContext

private fun defaultTlsFactory(): SSLSocketFactory = SSLSocketFactory.getDefault() as SSLSocketFactory

/** Everything about a [PhoneLink] that tests or the app may replace; the defaults suit a phone. */
data class LinkOptions(
    /** Whether there is a network at all; the link waits for one instead of retrying. */
    val network: NetworkMonitor = NetworkMonitor.ALWAYS_ONLINE,
    /** The reconnect schedule (full jitter, 1 s doubling to 60 s). */
    val backoff: ReconnectBackoff = ReconnectBackoff(),
    /** Called around every command (the app holds a wake lock for exactly that long). */
    val hooks: ExecutionHooks = ExecutionHooks.NONE,
    /** The TLS implementation for [LinkConfig.tls] (default: the platform's, trusting the system CAs). */
    val tlsSocketFactory: SSLSocketFactory? = null,
    /** Time to connect (TCP and TLS), in ms. */
    val connectTimeoutMs: Int = 10_000,
    /** Time from connecting to `welcome`, in ms (the gateway itself allows 10 s for `hello`). */
    val welcomeTimeoutMs: Long = 15_000,
    /** Called on every state change, in order, on the thread that made it (after [PhoneLink.state] holds it). */
    val onState: (LinkState) -> Unit = {},
    /** Diagnostic lines. */
    val log: (String) -> Unit = {},
    /** A monotonic clock in ms (heartbeat, RTT, how long a connection stayed up). */
    val monotonicMs: () -> Long = { System.nanoTime() / 1_000_000 },
    /** The wall clock in ms since the epoch (ping `ts`, the retry time shown to the user). */
    val epochMs: () -> Long = System::currentTimeMillis,
)

/**
 * The phone's end of wire protocol v1 (docs/protocol.md) over a long-lived TCP connection: connects out
 * to the gateway, says `hello` with the facts the [PhoneExecutor] describes, keeps the heartbeat
 * (answers pings, pings a quiet gateway, drops a link silent for two intervals), hands each `action` to
 * a [CommandDispatcher] (one at a time, deadlines, frame ids, `maxFrameBytes` from `welcome`), and
 * reconnects with [ReconnectBackoff] whenever the connection ends — waiting for a network first, never
 * spinning. With several gateway addresses ([LinkConfig.gateways]) it goes through them as
 * [GatewayRotation] says: the next one at once after a failed attempt, the backoff between rounds. A refusal of the handshake (`UNAUTHORIZED`, `UNSUPPORTED_VERSION`) stops it in
 * [LinkState.Refused] instead of retrying in a loop; `DEVICE_REPLACED` is retried only after its backoff.
 *
 * [state] tells the user what it is doing. Thread-safe; [start] and [stop] may be called from any thread.
 */
class PhoneLink(
    private val config: LinkConfig,
    private val executor: PhoneExecutor,
    private val options: LinkOptions = LinkOptions(),
) {
    private val scope = CoroutineScope(SupervisorJob() + Dispatchers.IO)
    private val frames = FrameRegistry()
    private val mutableState = MutableStateFlow<LinkState>(LinkState.Stopped)
    private val rotation = GatewayRotation(config.gateways)
    private var loop: Job? = null

    @Volatile
    private var session: Session? = null

    /** What the link is doing now. */
    val state: StateFlow<LinkState> = mutableState.asStateFlow()

    /** The session id of the current connection once welcomed, else null. */
    val sessionId: String? get() = session?.welcome?.sessionId

    /** Starts connecting (from a fresh backoff) unless already running. */
    @Synchronized
    fun start() {
        if (loop?.isActive == true) return
        options.backoff.reset()
        rotation.reset()
        loop = scope.launch { runLoop() }
    }

    /** Closes the connection for good and waits until it is closed; [state] ends [LinkState.Stopped]. */
    suspend fun stop() {
        val job = synchronized(this) { loop.also { loop = null } }
        session?.connection?.close()
        job?.cancelAndJoin()
        setState(LinkState.Stopped)
    }

    /** Drops the current connection as if the network had cut it (the link then reconnects after its backoff). */
    fun dropConnection(reason: String) {
        session?.let {
            it.closeReason = reason
            it.connection.close()
        }
    }

    /** Sends an `event` frame (docs/protocol.md §6) when welcomed; returns whether it was sent. */
    fun sendEvent(event: String, data: JsonObject?): Boolean {
        val current = session ?: return false
        if (current.welcome == null) return false
        return current.connection.send(EventFrame(event, data))
    }

    private suspend fun runLoop() {
        var attempt = 0
        while (coroutineContext.isActive) {
            if (!options.network.online.value) {
                setState(LinkState.WaitingForNetwork)
                options.network.online.first { it }
            }
            attempt += 1
            val address = rotation.current
            setState(LinkState.Connecting(address.host, address.port, attempt))
            val outcome = try {
                connectOnce(address)
            } catch (e: CancellationException) {
                throw e
            } catch (e: Exception) {
                // A failure of the phone's own code (or a platform refusal such as a SecurityException)
                // must not end the loop silently: it counts as a failed connection and is retried.
                Outcome("internal error: ${e.message ?: e.javaClass.simpleName}", null, false, null)
            }
            if (outcome.welcomedForMs != null) attempt = 0
            outcome.refusal?.let { refusal ->
                options.log("gateway refused the phone: ${refusal.code} ${refusal.message.orEmpty()}")
                setState(LinkState.Refused(refusal.code, refusal.message ?: refusal.code))
                return
            }
            if (rotation.connectionEnded(outcome.welcomedForMs != null) == GatewayRotation.Next.AT_ONCE) {
                options.log("${outcome.reason}; trying ${rotation.current}")
                continue
            }
            options.backoff.connectionEnded(outcome.welcomedForMs, outcome.replaced)
            val delayMs = options.backoff.nextDelayMs()
            options.log("${outcome.reason}; reconnecting in $delayMs ms")
            setState(LinkState.Reconnecting(outcome.reason, delayMs, options.epochMs() + delayMs))
            waitBeforeRetry(delayMs)
        }
    }

    /** Waits [delayMs], or less when the network comes back after being lost meanwhile. */
    private suspend fun waitBeforeRetry(delayMs: Long) {
        withTimeoutOrNull(delayMs) {
            options.network.online.first { !it }
            setState(LinkState.WaitingForNetwork)
            options.network.online.first { it }
        }
    }

    private class Refusal(val code: String, val message: String?)

    /** How a connection ended: [reason] for the user, how long it was up after `welcome`, and why. */
    private class Outcome(val reason: String, val welcomedForMs: Long?, val replaced: Boolean, val refusal: Refusal?)

    private suspend fun connectOnce(address: GatewayAddress): Outcome = withContext(Dispatchers.IO) {
        val connection = try {
            GatewayConnection.open(address.host, address.port, config.tls, options.connectTimeoutMs, options.monotonicMs, tlsFactory = options.tlsSocketFactory ?: defaultTlsFactory())
        } catch (e: IOException) {
            return@withContext Outcome("cannot connect to $address: ${e.message ?: e.javaClass.simpleName}", null, false, null)
        }
        val current = Session(connection, address)
        session = current
        try {
            coroutineScope {
                launch { closeOnCancel(connection) }
                launch { closeWhenOffline(current) }
                launch { awaitWelcome(current) }
                val description = try {
                    executor.describe()
                } catch (e: CancellationException) {
                    throw e
                } catch (e: Exception) {
                    current.closeReason = "cannot describe the device: ${e.message}"
                    connection.close()
                    null
                }
                if (description != null) {
                    connection.send(
                        HelloFrame(PROTOCOL_VERSION, config.deviceId, config.token, description.device, description.capabilities, buildJsonObject {
                            put("name", config.clientName)
                            put("version", config.clientVersion)
                        }),
                    )
                    options.log("connected to $address, said hello as ${config.deviceId}")
                    read(current, this)
                }
                coroutineContext.cancelChildren()
            }
        } finally {
            connection.close()
            session = null
        }
        val welcomedAt = current.welcomedAtMs
        Outcome(current.closeReason ?: "the gateway closed the connection", welcomedAt?.let { options.monotonicMs() - it }, current.replaced, current.refusal)
    }

    /** Reads frames until the connection closes; runs on an IO thread (blocking reads). */
    private fun read(current: Session, connectionScope: CoroutineScope) {
        val framer = LineFramer(
            maxFrameBytes = DEFAULT_MAX_FRAME_BYTES,
            onLine = { line -> onLine(current, connectionScope, line) },
            onOversized = { _, size -> options.log("dropped a $size-byte frame from the gateway (limit $DEFAULT_MAX_FRAME_BYTES bytes)") },
        )
        val buffer = ByteArray(64 * 1024)
        try {
            while (true) {
                val n = current.connection.input.read(buffer)
                if (n < 0) break
                current.connection.received()
                framer.push(buffer, 0, n)
            }
        } catch (e: IOException) {
            if (current.closeReason == null && !current.connection.closed) current.closeReason = "connection lost: ${e.message ?: e.javaClass.simpleName}"
        }
        current.connection.close()
    }

    private fun onLine(current: Session, connectionScope: CoroutineScope, line: ByteArray) {
        when (val decoded = FrameDecoder.decode(line)) {
            is DecodeResult.Rejected -> {
                options.log("ignored a bad frame from the gateway: ${decoded.reason}")
                // An action that names its request but fails validation still gets its one answer.
                if (decoded.frameType == "action" && decoded.requestId != null && current.welcome != null) {
                    current.connection.send(ErrorResponse(decoded.requestId, PhoneErrorCode.INVALID_ARGUMENT, decoded.reason))
                }
            }
            is DecodeResult.Ok -> onFrame(current, connectionScope, decoded.frame)
        }
    }

    private fun onFrame(current: Session, connectionScope: CoroutineScope, frame: Frame) {
        when (frame) {
            is WelcomeFrame -> onWelcome(current, connectionScope, frame)
            is ErrorFrame -> onError(current, frame)
            is PingFrame -> current.connection.send(PongFrame(frame.ts))
            is PongFrame -> onPong(current, frame)
            is ActionFrame -> current.dispatcher?.submit(frame) ?: options.log("ignored action ${frame.requestId} before welcome")
            is CancelFrame -> current.dispatcher?.cancel(frame.requestId)
            else -> options.log("ignored a ${frame.type} frame from the gateway")
        }
    }

    private fun onWelcome(current: Session, connectionScope: CoroutineScope, welcome: WelcomeFrame) {
        if (current.welcome != null) return
        current.welcome = welcome
        current.welcomedAtMs = options.monotonicMs()
        current.maxFrameBytes = welcome.maxFrameBytes.coerceIn(1.0, Int.MAX_VALUE.toDouble()).toInt()
        current.dispatcher = CommandDispatcher(
            executor = executor,
            frames = frames,
            scope = connectionScope,
            maxFrameBytes = { current.maxFrameBytes },
            send = { line -> current.connection.sendLine(line) },
            hooks = options.hooks,
            log = options.log,
        )
        options.log("welcomed, session ${welcome.sessionId}, heartbeat ${welcome.heartbeatIntervalMs.toLong()} ms, frames up to ${current.maxFrameBytes} bytes")
        setState(LinkState.Connected(welcome.sessionId, null, current.address))
        if (welcome.heartbeatIntervalMs > 0) {
            val policy = HeartbeatPolicy(welcome.heartbeatIntervalMs.coerceAtMost(Int.MAX_VALUE.toDouble()).toLong())
            connectionScope.launch { heartbeat(current, policy) }
        }
    }

    private fun onError(current: Session, error: ErrorFrame) {
        options.log("gateway error ${error.code}: ${error.message.orEmpty()}")
        when {
            error.code == "DEVICE_REPLACED" && current.welcome != null -> {
                current.replaced = true
                current.closeReason = "another phone took device id ${config.deviceId} (${error.message.orEmpty()})"
            }
            current.welcome == null -> {
                // Before welcome an error answers hello: the gateway refuses and closes.
                if (error.code == "UNAUTHORIZED" || error.code == "UNSUPPORTED_VERSION") current.refusal = Refusal(error.code, error.message)
                current.closeReason = "the gateway refused hello: ${error.code}"
                current.connection.close()
            }
        }
    }

    private fun onPong(current: Session, pong: PongFrame) {
        val sent = current.pingSentMs
        if (pong.ts != null && pong.ts == current.pingTs && sent != null) {
            current.pingSentMs = null
            val welcome = current.welcome ?: return
            setState(LinkState.Connected(welcome.sessionId, options.monotonicMs() - sent, current.address))
        }
    }

    private suspend fun heartbeat(current: Session, policy: HeartbeatPolicy) {
        ping(current)
        while (true) {
            delay(policy.tickMs)
            val now = options.monotonicMs()
            val connection = current.connection
            when (policy.decide(now, connection.lastReceivedMs, connection.lastSentMs, current.lastPingMs)) {
                HeartbeatAction.NOTHING -> Unit
                HeartbeatAction.PING -> ping(current)
                HeartbeatAction.DEAD -> {
                    current.closeReason = "no frame from the gateway for ${now - connection.lastReceivedMs} ms"
                    connection.close()
                    return
                }
            }
        }
    }

    private fun ping(current: Session) {
        val ts = JsonPrimitive(options.epochMs())
        current.pingTs = ts
        current.pingSentMs = options.monotonicMs()
        current.lastPingMs = options.monotonicMs()
        current.connection.send(PingFrame(ts))
    }

    private suspend fun awaitWelcome(current: Session) {
        delay(options.welcomeTimeoutMs)
        if (current.welcome == null) {
            current.closeReason = "no welcome from the gateway within ${options.welcomeTimeoutMs} ms"
            current.connection.close()
        }
    }

    private suspend fun closeWhenOffline(current: Session) {
        options.network.online.first { !it }
        current.closeReason = "the network is gone"
        current.connection.close()
    }

    private suspend fun closeOnCancel(connection: GatewayConnection) {
        try {
            awaitCancellation()
        } finally {
            connection.close()
        }
    }

    private fun setState(state: LinkState) {
        synchronized(mutableState) {
            if (mutableState.value == state) return
            mutableState.value = state
            options.onState(state)
        }
    }

    /** Shuts the link down for good (the app's service is destroyed). */
    fun close() {
        session?.connection?.close()
        scope.coroutineContext[Job]?.cancel()
        setState(LinkState.Stopped)
    }

    /** Everything that lives and dies with one connection. */
    private class Session(val connection: GatewayConnection, val address: GatewayAddress) {
        @Volatile var welcome: WelcomeFrame? = null
        @Volatile var welcomedAtMs: Long? = null
        @Volatile var maxFrameBytes: Int = DEFAULT_MAX_FRAME_BYTES
        @Volatile var dispatcher: CommandDispatcher? = null
        @Volatile var replaced: Boolean = false
        @Volatile var refusal: Refusal? = null
        @Volatile var closeReason: String? = null
        @Volatile var pingTs: JsonPrimitive? = null
        @Volatile var pingSentMs: Long? = null
        @Volatile var lastPingMs: Long = 0
    }
}
