package dev.mobileclaw.core.link

/** What the link is doing, as the settings screen shows it. Times are epoch ms of the phone's clock. */
sealed interface LinkState {
    /** Not started, or stopped by the user. */
    data object Stopped : LinkState

    /** No network: the link waits for one instead of retrying. */
    data object WaitingForNetwork : LinkState

    /** Connecting to [host]:[port] (TCP, TLS, hello), attempt [attempt] in a row (1 = first). */
    data class Connecting(val host: String, val port: Int, val attempt: Int) : LinkState

    /**
     * Welcomed on session [sessionId] by the gateway at [address] (null when not known); [rttMs] the
     * last measured round trip (null until the first pong).
     */
    data class Connected(val sessionId: String, val rttMs: Long?, val address: GatewayAddress? = null) : LinkState

    /** The last connection ended because of [reason]; the next attempt starts at [retryAtEpochMs], [delayMs] after it ended. */
    data class Reconnecting(val reason: String, val delayMs: Long, val retryAtEpochMs: Long) : LinkState

    /**
     * The gateway refused this phone with [code] (`UNAUTHORIZED`: wrong token; `UNSUPPORTED_VERSION`);
     * the link stopped rather than retry in a loop. Pairing again (or fixing the token) and switching
     * the link on starts it again.
     */
    data class Refused(val code: String, val message: String) : LinkState
}
