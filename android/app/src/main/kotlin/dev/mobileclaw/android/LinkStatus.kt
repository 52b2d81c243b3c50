package dev.mobileclaw.android

import dev.mobileclaw.core.link.LinkState
import java.util.concurrent.CopyOnWriteArrayList

/**
 * The link's state for the app's screens, published by [LinkService] and observed by the settings
 * screen. Listeners are called on the thread that published (the screen posts to its UI thread).
 */
object LinkStatus {
    /** The [LinkState.Refused] code the service publishes when the settings lack a host or token. */
    const val NOT_CONFIGURED = "NOT_CONFIGURED"

    private val listeners = CopyOnWriteArrayList<(LinkState) -> Unit>()

    @Volatile
    var state: LinkState = LinkState.Stopped
        private set

    /** Publishes [state] to every listener. */
    fun publish(state: LinkState) {
        this.state = state
        listeners.forEach { it(state) }
    }

    /** Adds [listener] and calls it once with the current state. */
    fun observe(listener: (LinkState) -> Unit) {
        listeners += listener
        listener(state)
    }

    /** Removes [listener]. */
    fun stopObserving(listener: (LinkState) -> Unit) {
        listeners -= listener
    }

    /**
     * [state] as one line for people, e.g. `Connected to 192.168.1.20:7397 (RTT 42 ms)` or `Reconnecting in 8 s: connection
     * lost`; [nowEpochMs] counts the seconds down.
     */
    fun describe(state: LinkState, nowEpochMs: Long): String = when (state) {
        LinkState.Stopped -> "Not connected"
        LinkState.WaitingForNetwork -> "Waiting for a network"
        is LinkState.Connecting -> "Connecting to ${state.host}:${state.port}" + if (state.attempt > 1) " (attempt ${state.attempt})" else ""
        is LinkState.Connected -> "Connected" + (state.address?.let { " to $it" } ?: "") + (state.rttMs?.let { " (RTT $it ms)" } ?: "")
        is LinkState.Reconnecting -> "Reconnecting in ${((state.retryAtEpochMs - nowEpochMs).coerceAtLeast(0) + 999) / 1000} s: ${state.reason}"
        is LinkState.Refused -> when (state.code) {
            NOT_CONFIGURED -> "Not configured: ${state.message}"
            "UNAUTHORIZED" -> "Error: the gateway refused the device token; pair again"
            "UNSUPPORTED_VERSION" -> "Error: the gateway speaks another protocol version; update the app or the gateway"
            else -> "Error: the gateway refused this phone (${state.code}: ${state.message})"
        }
    }
}
