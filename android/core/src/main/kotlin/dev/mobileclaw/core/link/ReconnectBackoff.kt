package dev.mobileclaw.core.link

import kotlin.random.Random

/**
 * Exponential backoff with full jitter for reconnecting to the gateway: the n-th attempt in a row
 * waits a random delay uniform in [[minDelayMs], b] with b = [initialMs] doubling per attempt up to
 * [maxMs] (1 s, 2 s, 4 s, … 60 s). Full jitter spreads the phones that lost one gateway together far
 * apart; [minDelayMs] keeps a phone from ever reconnecting at once (a replaced phone MUST NOT).
 *
 * The backoff resets only after a connection that was welcomed and stayed up [stableAfterMs]: a
 * connection that dies sooner (refused, crashed after hello, flapping) keeps it growing. A connection
 * the gateway ended with `DEVICE_REPLACED` never resets it, however long it lasted: another phone uses
 * the same id, and two phones that reset on every replacement would trade the id forever.
 */
class ReconnectBackoff(
    private val initialMs: Long = 1_000,
    private val maxMs: Long = 60_000,
    private val stableAfterMs: Long = 30_000,
    private val minDelayMs: Long = 250,
    private val random: Random = Random.Default,
) {
    init {
        require(initialMs > 0 && maxMs >= initialMs) { "backoff needs 0 < initialMs <= maxMs, got $initialMs and $maxMs" }
        require(minDelayMs in 0..initialMs) { "minDelayMs must be within 0..initialMs, got $minDelayMs" }
    }

    /** The upper bound the next delay is drawn from, in ms. */
    var currentMs: Long = initialMs
        private set

    /** Back to the first backoff (a fresh start, e.g. the user switched the link on). */
    fun reset() {
        currentMs = initialMs
    }

    /**
     * A connection ended. [welcomedForMs]: how long it was up after `welcome` (null when never
     * welcomed); [replaced]: the gateway ended it with `DEVICE_REPLACED`.
     */
    fun connectionEnded(welcomedForMs: Long?, replaced: Boolean) {
        if (!replaced && welcomedForMs != null && welcomedForMs >= stableAfterMs) reset()
    }

    /** The delay before the next attempt in ms, uniform in [minDelayMs, currentMs]; then doubles the backoff (capped). */
    fun nextDelayMs(): Long {
        val delay = minDelayMs + (random.nextDouble() * (currentMs - minDelayMs + 1)).toLong().coerceAtMost(currentMs - minDelayMs)
        currentMs = minOf(currentMs * 2, maxMs)
        return delay
    }
}
