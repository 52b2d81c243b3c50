package dev.mobileclaw.core.link

/**
 * Where and as whom the phone connects: the gateway's [host] and device [port] (default 7397), then
 * [fallbackGateways] tried in turn after it (other instances of the gateway; see [GatewayRotation]),
 * the shared device [token], the phone's [deviceId] (1–128 chars of `[A-Za-z0-9._:-]`, the same on every
 * reconnect), [tls] to wrap the connection in TLS (the system's trusted CAs, host name verified; for a
 * TLS-terminating proxy in front of the device port), and the [clientName]/[clientVersion] for `hello`.
 */
data class LinkConfig(
    val host: String,
    val port: Int = DEFAULT_PORT,
    val token: String,
    val deviceId: String,
    val tls: Boolean = false,
    val clientName: String = "mobileclaw-android",
    val clientVersion: String = "0.1.0",
    val fallbackGateways: List<GatewayAddress> = emptyList(),
) {
    /** Every gateway address in the order the link tries them: [host]:[port] first, then [fallbackGateways]. */
    val gateways: List<GatewayAddress> get() = listOf(GatewayAddress(host, port)) + fallbackGateways

    init {
        require(host.isNotBlank()) { "host must not be blank" }
        require(port in 1..65535) { "port must be 1-65535, got $port" }
        require(DEVICE_ID.matches(deviceId)) { "deviceId must be 1-128 chars of [A-Za-z0-9._:-], got \"$deviceId\"" }
    }

    override fun toString(): String = "LinkConfig(gateways=${GatewayAddress.formatList(gateways)}, deviceId=$deviceId, tls=$tls, token=<${token.length} chars>)"

    companion object {
        /**
         * The configuration for [gateways] (at least one; the first is [host]:[port], the rest [fallbackGateways]).
         * @throws IllegalArgumentException when [gateways] is empty or a value is invalid.
         */
        fun of(gateways: List<GatewayAddress>, token: String, deviceId: String, tls: Boolean = false, clientVersion: String = "0.1.0"): LinkConfig {
            require(gateways.isNotEmpty()) { "at least one gateway address is needed" }
            return LinkConfig(host = gateways[0].host, port = gateways[0].port, token = token, deviceId = deviceId, tls = tls, clientVersion = clientVersion, fallbackGateways = gateways.drop(1))
        }

        /** The gateway's default device port. */
        const val DEFAULT_PORT = 7397

        /** The protocol's rule for device ids. */
        val DEVICE_ID = Regex("[A-Za-z0-9._:-]{1,128}")
    }
}
