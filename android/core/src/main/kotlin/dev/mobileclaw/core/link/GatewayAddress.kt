package dev.mobileclaw.core.link

/**
 * One address of the gateway's device port: [host] (a host name, an IPv4 address, or an IPv6 address
 * without brackets) and [port] (1–65535). Shown as `host:port`, IPv6 as `[addr]:port`.
 */
data class GatewayAddress(val host: String, val port: Int = LinkConfig.DEFAULT_PORT) {
    init {
        require(HOST.matches(host)) { "\"$host\" is not a host name or an IP address" }
        require(port in 1..65535) { "port must be 1-65535, got $port" }
    }

    override fun toString(): String = if (':' in host) "[$host]:$port" else "$host:$port"

    companion object {
        /** A host name, an IPv4 address, or an IPv6 address without brackets. */
        val HOST = Regex("""[A-Za-z0-9.\-]{1,253}|[0-9A-Fa-f:.]{2,45}""")

        /**
         * Parses one entry: `host`, `host:port`, `[v6]`, `[v6]:port`, or a bare IPv6 address (two colons
         * or more, no port); an entry without a port gets [defaultPort].
         * @throws IllegalArgumentException naming the entry when it is none of these, or its port is not 1–65535.
         */
        fun parse(entry: String, defaultPort: Int = LinkConfig.DEFAULT_PORT): GatewayAddress {
            val text = entry.trim()
            val (host, port) = when {
                text.startsWith("[") -> {
                    val close = text.indexOf(']')
                    require(close > 1) { "\"$text\": an IPv6 address in brackets needs its closing ]" }
                    val rest = text.substring(close + 1)
                    require(rest.isEmpty() || rest.startsWith(":")) { "\"$text\": only :port may follow the ]" }
                    text.substring(1, close) to rest.removePrefix(":").ifEmpty { null }
                }
                text.count { it == ':' } >= 2 -> text to null
                ':' in text -> text.substringBefore(':') to text.substringAfter(':')
                else -> text to null
            }
            require(HOST.matches(host)) { "\"$text\" is not host, host:port or [IPv6]:port" }
            val number = if (port == null) defaultPort else port.toIntOrNull()
            require(number != null && number in 1..65535) { "\"$text\": the port must be 1-65535" }
            return GatewayAddress(host, number)
        }

        /**
         * Parses a comma-separated list of entries (see [parse]), in order; blanks around commas are ignored.
         * @throws IllegalArgumentException when the list is empty, has an empty entry, or an entry is invalid.
         */
        fun parseList(text: String, defaultPort: Int = LinkConfig.DEFAULT_PORT): List<GatewayAddress> {
            require(text.isNotBlank()) { "no gateway address" }
            val entries = text.split(',').map { it.trim() }
            require(entries.none { it.isEmpty() }) { "an empty entry in the gateway list \"${text.trim()}\"" }
            return entries.map { parse(it, defaultPort) }
        }

        /** The list as [parseList] reads it: entries joined by `, `. */
        fun formatList(addresses: List<GatewayAddress>): String = addresses.joinToString(", ")
    }
}
