package dev.mobileclaw.core.link

import java.net.URI
import java.net.URISyntaxException
import java.net.URLDecoder

/**
 * A pairing link as the gateway's page shows it (also as a QR code):
 * `mobileclaw://pair?host=192.168.1.20&port=7397&token=…` with optional `tls=1`. Parsing never trusts
 * it further than this: the host must be a host name or address, the port 1–65535, the token non-empty.
 * For several gateways [host] may be a comma-separated list of `host`, `host:port` or `[IPv6]:port`
 * entries, tried in that order (entries without a port take [port]; see [gateways]).
 */
data class PairingLink(val host: String, val port: Int, val token: String, val tls: Boolean) {
    /** The gateway addresses the link names, in order (one unless [host] is a list). */
    val gateways: List<GatewayAddress> get() = if (',' in host) GatewayAddress.parseList(host, port) else listOf(GatewayAddress(host, port))

    /** The link in its canonical form (parameters percent-encoded). */
    fun toUri(): String = buildString {
        append("mobileclaw://pair?host=").append(encode(host))
        append("&port=").append(port)
        append("&token=").append(encode(token))
        if (tls) append("&tls=1")
    }

    override fun toString(): String = "PairingLink(host=$host, port=$port, tls=$tls, token=<${token.length} chars>)"

    companion object {
        private val HOST = Regex("""[A-Za-z0-9.\-]{1,253}|\[[0-9A-Fa-f:.]{2,45}]|[0-9A-Fa-f:.]{2,45}""")

        /**
         * Parses [link].
         * @throws IllegalArgumentException naming what is wrong: not a `mobileclaw://pair` link, a
         * missing or malformed host, port or token.
         */
        fun parse(link: String): PairingLink {
            val uri = try {
                URI(link.trim())
            } catch (e: URISyntaxException) {
                throw IllegalArgumentException("not a pairing link: ${e.reason}")
            }
            require(uri.scheme.equals("mobileclaw", ignoreCase = true) && uri.authority.equals("pair", ignoreCase = true)) {
                "not a pairing link: expected mobileclaw://pair?host=…&port=…&token=…"
            }
            val query = parameters(uri.rawQuery.orEmpty())
            val port = query["port"]?.toIntOrNull() ?: LinkConfig.DEFAULT_PORT
            require(port in 1..65535) { "the pairing link's port must be 1-65535, got ${query["port"]}" }
            val rawHost = query["host"].orEmpty()
            val host = if (',' in rawHost) rawHost else rawHost.removeSurrounding("[", "]")
            if (',' in host) {
                try {
                    GatewayAddress.parseList(host, port)
                } catch (e: IllegalArgumentException) {
                    throw IllegalArgumentException("the pairing link's host list is invalid: ${e.message}")
                }
            } else {
                require(host.isNotEmpty() && HOST.matches(host)) { "the pairing link has no valid host" }
            }
            val token = query["token"].orEmpty()
            require(token.isNotEmpty()) { "the pairing link has no token" }
            val tls = query["tls"].let { it == "1" || it.equals("true", ignoreCase = true) }
            return PairingLink(host, port, token, tls)
        }

        private fun parameters(rawQuery: String): Map<String, String> = rawQuery.split('&').filter { it.isNotEmpty() }.associate { pair ->
            val key = pair.substringBefore('=')
            val value = pair.substringAfter('=', "")
            URLDecoder.decode(key, Charsets.UTF_8) to URLDecoder.decode(value, Charsets.UTF_8)
        }

        private fun encode(text: String): String = java.net.URLEncoder.encode(text, Charsets.UTF_8).replace("+", "%20")
    }
}
