package dev.mobileclaw.android

import android.content.Context
import android.content.SharedPreferences
import dev.mobileclaw.core.link.GatewayAddress
import dev.mobileclaw.core.link.LinkConfig
import dev.mobileclaw.core.link.PairingLink
import java.security.SecureRandom

/**
 * What the user configured, in the app's private preferences: the gateway's host (or several gateways:
 * a comma-separated list of `host`, `host:port` or `[IPv6]:port`, tried in order), the device port
 * (for entries without one) and token, TLS, the device id (generated once as `android-` + 12 hex digits, then stable across
 * restarts and reconnects unless the user changes it), and whether the link should run ([enabled],
 * also what the boot receiver and a restarted service go by).
 */
class LinkSettings(context: Context) {
    private val prefs: SharedPreferences = context.getSharedPreferences(FILE, Context.MODE_PRIVATE)

    var host: String
        get() = prefs.getString(HOST, "").orEmpty()
        set(value) = prefs.edit().putString(HOST, value.trim()).apply()

    var port: Int
        get() = prefs.getInt(PORT, LinkConfig.DEFAULT_PORT)
        set(value) = prefs.edit().putInt(PORT, value).apply()

    var token: String
        get() = prefs.getString(TOKEN, "").orEmpty()
        set(value) = prefs.edit().putString(TOKEN, value.trim()).apply()

    var tls: Boolean
        get() = prefs.getBoolean(TLS, false)
        set(value) = prefs.edit().putBoolean(TLS, value).apply()

    var enabled: Boolean
        get() = prefs.getBoolean(ENABLED, false)
        set(value) = prefs.edit().putBoolean(ENABLED, value).apply()

    /** The device id; generated and stored on first read. */
    var deviceId: String
        get() = prefs.getString(DEVICE_ID, null) ?: generateDeviceId().also { prefs.edit().putString(DEVICE_ID, it).apply() }
        set(value) = prefs.edit().putString(DEVICE_ID, value.trim()).apply()

    /** Stores what a pairing link carries (host, port, token, TLS); the device id stays. */
    fun apply(link: PairingLink) {
        prefs.edit().putString(HOST, link.host).putInt(PORT, link.port).putString(TOKEN, link.token).putBoolean(TLS, link.tls).apply()
    }

    /** The gateway addresses [host] and [port] name, in order. @throws IllegalArgumentException naming a bad entry. */
    fun gateways(): List<GatewayAddress> = GatewayAddress.parseList(host, port)

    /** The link's configuration. @throws IllegalArgumentException naming what is missing or invalid (e.g. no host yet). */
    fun toConfig(clientVersion: String): LinkConfig {
        require(host.isNotEmpty()) { "no gateway host yet: pair with the gateway's link or enter its address" }
        require(token.isNotEmpty()) { "no device token yet: pair with the gateway's link or enter its token" }
        return LinkConfig.of(gateways(), token = token, deviceId = deviceId, tls = tls, clientVersion = clientVersion)
    }

    companion object {
        private const val FILE = "mobileclaw-link"
        private const val HOST = "host"
        private const val PORT = "port"
        private const val TOKEN = "token"
        private const val TLS = "tls"
        private const val ENABLED = "enabled"
        private const val DEVICE_ID = "deviceId"

        /** A new device id: `android-` and 12 random hex digits. */
        fun generateDeviceId(): String {
            val bytes = ByteArray(6).also { SecureRandom().nextBytes(it) }
            return "android-" + bytes.joinToString("") { "%02x".format(it) }
        }
    }
}
