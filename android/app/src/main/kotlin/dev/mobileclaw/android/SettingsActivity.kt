package dev.mobileclaw.android

import android.Manifest
import android.app.Activity
import android.app.AlertDialog
import android.content.Intent
import android.content.pm.PackageManager
import android.os.Build
import android.os.Bundle
import android.os.PowerManager
import android.provider.Settings
import android.text.InputType
import android.view.View
import android.widget.Button
import android.widget.CheckBox
import android.widget.EditText
import android.widget.LinearLayout
import android.widget.ScrollView
import android.widget.Switch
import android.widget.TextView
import dev.mobileclaw.core.link.GatewayAddress
import dev.mobileclaw.core.link.LinkConfig
import dev.mobileclaw.core.link.LinkState
import dev.mobileclaw.core.link.PairingLink

/**
 * The settings screen: the gateway's host (or several gateways, comma-separated, tried in order), device port and token, TLS, the device id, the connect
 * switch and the live state of the link (connecting, connected with its RTT, reconnecting in N s, the
 * error and its reason), with shortcuts to the accessibility and battery settings the link needs.
 *
 * Pairing: opening a `mobileclaw://pair?host=…&port=…&token=…` link (from the gateway's page, or its QR
 * code scanned with the phone's camera app) or pasting it here asks the user to confirm, since a paired
 * gateway operates the phone, then stores it and connects. Built from framework views in code, with no
 * layout resources, so that the same sources compile in the Maven build (no resource compiler there).
 */
class SettingsActivity : Activity() {
    private lateinit var settings: LinkSettings
    private lateinit var state: TextView
    private lateinit var message: TextView
    private lateinit var accessibility: TextView
    private lateinit var host: EditText
    private lateinit var port: EditText
    private lateinit var token: EditText
    private lateinit var deviceId: EditText
    private lateinit var tls: CheckBox
    private lateinit var connect: Switch
    private lateinit var pairingLink: EditText
    private val onState: (LinkState) -> Unit = { runOnUiThread { showState(it) } }

    /** The wall clock in ms since the epoch that the reconnect countdown counts against. */
    var clock: () -> Long = System::currentTimeMillis

    override fun onCreate(savedInstanceState: Bundle?) {
        super.onCreate(savedInstanceState)
        settings = LinkSettings(this)
        setContentView(buildForm())
        load()
        intent?.let(::handlePairingIntent)
    }

    override fun onNewIntent(intent: Intent) {
        super.onNewIntent(intent)
        handlePairingIntent(intent)
    }

    override fun onResume() {
        super.onResume()
        LinkStatus.observe(onState)
        accessibility.text = if (MobileClawAccessibilityService.connected() != null) {
            "Accessibility service: on"
        } else {
            "Accessibility service: off — turn on MobileClaw in Accessibility settings"
        }
    }

    override fun onPause() {
        LinkStatus.stopObserving(onState)
        state.removeCallbacks(countdown)
        super.onPause()
    }

    /** A `mobileclaw://pair` link in [intent]: asks the user before pairing with that gateway. */
    private fun handlePairingIntent(intent: Intent) {
        val data = intent.data ?: return
        if (intent.action != Intent.ACTION_VIEW) return
        confirmPairing(data.toString())
    }

    private fun confirmPairing(link: String) {
        val pairing = try {
            PairingLink.parse(link)
        } catch (e: IllegalArgumentException) {
            message.text = "Cannot pair: ${e.message}"
            return
        }
        AlertDialog.Builder(this)
            .setTitle("Pair with this gateway?")
            .setMessage("${describe(pairing)}${if (pairing.tls) " (TLS)" else ""} will be able to see and operate this phone. Pair only with your own gateway.")
            .setPositiveButton("Pair") { _, _ -> pair(pairing) }
            .setNegativeButton("Cancel", null)
            .show()
    }

    /** Stores [pairing], switches the link on and (re)starts the service. */
    fun pair(pairing: PairingLink) {
        settings.apply(pairing)
        message.text = "Paired with ${describe(pairing)}"
        settings.enabled = true
        load()
        LinkService.start(this)
    }

    /** `host:port` of a link naming one gateway, else its gateways as a list (`a:7397, b:7001`). */
    private fun describe(pairing: PairingLink): String =
        if (',' in pairing.host) GatewayAddress.formatList(pairing.gateways) else "${pairing.host}:${pairing.port}"

    private fun load() {
        host.setText(settings.host)
        port.setText(settings.port.toString())
        token.setText(settings.token)
        deviceId.setText(settings.deviceId)
        tls.isChecked = settings.tls
        connect.isChecked = settings.enabled
    }

    /** Saves the form; false (with the reason shown) when a field is invalid. */
    private fun save(): Boolean {
        val portNumber = port.text.toString().toIntOrNull()
        if (portNumber == null || portNumber !in 1..65535) return refuse("Port must be 1-65535")
        val id = deviceId.text.toString().trim()
        if (!LinkConfig.DEVICE_ID.matches(id)) return refuse("Device id: 1-128 of A-Z a-z 0-9 . _ : -")
        val hosts = host.text.toString()
        if (hosts.isNotBlank()) {
            try {
                GatewayAddress.parseList(hosts, portNumber)
            } catch (e: IllegalArgumentException) {
                return refuse("Gateway address: ${e.message}")
            }
        }
        settings.host = host.text.toString()
        settings.port = portNumber
        settings.token = token.text.toString()
        settings.deviceId = id
        settings.tls = tls.isChecked
        return true
    }

    private fun refuse(reason: String): Boolean {
        message.text = reason
        return false
    }

    private fun onConnectSwitched(on: Boolean) {
        if (on && save()) {
            settings.enabled = true
            askForNotifications()
            LinkService.start(this)
        } else {
            settings.enabled = false
            connect.isChecked = false
            LinkService.stop(this)
        }
    }

    /** Android 13+ shows the service's notification only with this permission; the link runs without it. */
    private fun askForNotifications() {
        if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.TIRAMISU && checkSelfPermission(Manifest.permission.POST_NOTIFICATIONS) != PackageManager.PERMISSION_GRANTED) {
            requestPermissions(arrayOf(Manifest.permission.POST_NOTIFICATIONS), 1)
        }
    }

    private fun showState(linkState: LinkState) {
        state.text = LinkStatus.describe(linkState, clock())
        state.removeCallbacks(countdown)
        if (linkState is LinkState.Reconnecting) state.postDelayed(countdown, 1_000)
    }

    /** Re-renders "Reconnecting in N s" every second while that is the state. */
    private val countdown = Runnable { showState(LinkStatus.state) }

    private fun buildForm(): View {
        val column = LinearLayout(this).apply {
            orientation = LinearLayout.VERTICAL
            val pad = (16 * resources.displayMetrics.density).toInt()
            setPadding(pad, pad, pad, pad)
        }
        fun label(text: String) = TextView(this).apply { this.text = text }.also(column::addView)
        fun field(hint: String, type: Int) = EditText(this).apply {
            this.hint = hint
            inputType = type
            isSingleLine = true
        }.also(column::addView)

        label("MobileClaw").apply { textSize = 22f }
        state = label("Not connected")
        message = label("")
        accessibility = label("")
        connect = Switch(this).apply {
            text = "Connect to the gateway"
            setOnClickListener { onConnectSwitched(isChecked) }
        }.also(column::addView)
        label("Pairing link (mobileclaw://pair?…)")
        pairingLink = field("mobileclaw://pair?host=…&port=…&token=…", InputType.TYPE_CLASS_TEXT or InputType.TYPE_TEXT_VARIATION_URI)
        Button(this).apply {
            text = "Pair"
            setOnClickListener { confirmPairing(pairingLink.text.toString()) }
        }.also(column::addView)
        label("Gateway host (several gateways: host or host:port, comma-separated, tried in order)")
        host = field("192.168.1.20", InputType.TYPE_CLASS_TEXT or InputType.TYPE_TEXT_VARIATION_URI)
        label("Device port (for hosts without one)")
        port = field(LinkConfig.DEFAULT_PORT.toString(), InputType.TYPE_CLASS_NUMBER)
        label("Device token")
        token = field("from the gateway's page", InputType.TYPE_CLASS_TEXT or InputType.TYPE_TEXT_VARIATION_PASSWORD)
        label("Device id")
        deviceId = field("android-…", InputType.TYPE_CLASS_TEXT)
        tls = CheckBox(this).apply { text = "TLS (a TLS proxy in front of the device port)" }.also(column::addView)
        Button(this).apply {
            text = "Accessibility settings"
            setOnClickListener { startActivity(Intent(Settings.ACTION_ACCESSIBILITY_SETTINGS)) }
        }.also(column::addView)
        Button(this).apply {
            text = "Battery: let MobileClaw run in the background"
            setOnClickListener { openBatterySettings() }
        }.also(column::addView)
        return ScrollView(this).apply { addView(column) }
    }

    /**
     * Doze defers the network of apps not exempted from battery optimisation; the exemption is the
     * user's to grant, on the system's list (no special permission asked).
     */
    private fun openBatterySettings() {
        val power: PowerManager = requireSystemService()
        if (power.isIgnoringBatteryOptimizations(packageName)) {
            message.text = "Battery optimisation is already off for MobileClaw"
            return
        }
        startActivity(Intent(Settings.ACTION_IGNORE_BATTERY_OPTIMIZATION_SETTINGS))
    }
}
