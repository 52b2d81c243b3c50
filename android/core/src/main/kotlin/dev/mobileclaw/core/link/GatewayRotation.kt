package dev.mobileclaw.core.link

/**
 * The order in which the phone tries its gateway addresses (several instances of one gateway). It
 * starts at the first; after any connection ends (refused, closed before `welcome`, or lost after it)
 * it moves to the next one, wrapping round. Attempts go in rounds of at most one per address: a failed
 * attempt with addresses left in the round is followed at once by the next, and the reconnect backoff
 * is waited only between rounds. A round ends when every address failed in turn, or when a welcomed
 * connection ends (its gateway was up: the phones it held leave together, and the backoff's jitter
 * spreads them over the others).
 *
 * With one address every attempt is a round of its own: the phone behaves as with a single address.
 * Not thread-safe: the link's connect loop alone uses it.
 */
class GatewayRotation(addresses: List<GatewayAddress>) {
    /** Every address, in order. */
    val addresses: List<GatewayAddress> = addresses.toList()
    private var index = 0
    private var failedInRound = 0

    init {
        require(this.addresses.isNotEmpty()) { "at least one gateway address is needed" }
    }

    /** What to do after a connection ended. */
    enum class Next {
        /** Try the next address now. */
        AT_ONCE,

        /** The round is over: wait the reconnect backoff, then try the next address. */
        AFTER_BACKOFF,
    }

    /** The address to connect to next (or connected to). */
    val current: GatewayAddress get() = addresses[index]

    /** Back to the first address, in a fresh round (the link starts again). */
    fun reset() {
        index = 0
        failedInRound = 0
    }

    /** The connection to [current] ended ([welcomed]: the gateway had welcomed it); moves to the next address. */
    fun connectionEnded(welcomed: Boolean): Next {
        index = (index + 1) % addresses.size
        if (!welcomed && failedInRound + 1 < addresses.size) {
            failedInRound += 1
            return Next.AT_ONCE
        }
        failedInRound = 0
        return Next.AFTER_BACKOFF
    }
}
