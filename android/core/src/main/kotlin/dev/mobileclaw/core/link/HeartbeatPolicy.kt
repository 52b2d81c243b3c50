package dev.mobileclaw.core.link

/**
 * The phone's heartbeat duties (docs/protocol.md §5) as a pure decision over times in ms from one
 * monotonic clock: a link silent for 2 × [intervalMs] is dead (a half-open TCP connection never reports
 * itself); a link that received nothing for one interval while the phone sent nothing either gets a
 * `ping`; and a `ping` goes out at least every [rttRefreshMs] so that the round-trip time shown to the
 * user stays current. The link asks [decide] every [tickMs].
 */
class HeartbeatPolicy(val intervalMs: Long, private val rttRefreshMs: Long = 4 * intervalMs) {
    init {
        require(intervalMs > 0) { "heartbeat interval must be positive, got $intervalMs ms" }
    }

    /** How often the link should call [decide], in ms: half an interval, at least 10 ms. */
    val tickMs: Long get() = maxOf(10L, intervalMs / 2)

    /** What to do now. */
    fun decide(nowMs: Long, lastReceivedMs: Long, lastSentMs: Long, lastPingMs: Long): HeartbeatAction = when {
        nowMs - lastReceivedMs >= 2 * intervalMs -> HeartbeatAction.DEAD
        nowMs - lastReceivedMs >= intervalMs && nowMs - lastSentMs >= intervalMs -> HeartbeatAction.PING
        nowMs - lastPingMs >= rttRefreshMs -> HeartbeatAction.PING
        else -> HeartbeatAction.NOTHING
    }
}

/** A [HeartbeatPolicy] decision. */
enum class HeartbeatAction {
    /** All is well. */
    NOTHING,

    /** Send a `ping` with the phone's clock as `ts`. */
    PING,

    /** No frame for two intervals: close the connection and reconnect. */
    DEAD,
}
