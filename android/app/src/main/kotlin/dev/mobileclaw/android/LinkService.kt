package dev.mobileclaw.android

import android.app.Notification
import android.app.NotificationChannel
import android.app.NotificationManager
import android.app.PendingIntent
import android.app.Service
import android.content.Context
import android.content.Intent
import android.content.pm.ServiceInfo
import android.content.res.Configuration
import android.os.Build
import android.os.IBinder
import dev.mobileclaw.core.command.ScreenGeometry
import dev.mobileclaw.core.link.LinkConfig
import dev.mobileclaw.core.link.LinkOptions
import dev.mobileclaw.core.link.LinkState
import dev.mobileclaw.core.link.PhoneLink
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put

/**
 * The foreground service that holds the link to the gateway while the user has it switched on: it
 * builds a [PhoneLink] from [LinkSettings] with the [AccessibilityExecutor], a
 * [ConnectivityNetworkMonitor] and a [CommandWakeLock], shows the link's state in its ongoing
 * notification and publishes it in [LinkStatus], and sends an `event screen` when the rotation or
 * size changes.
 *
 * Survival: `START_STICKY` brings it back after the system killed the process (it reconnects when
 * [LinkSettings.enabled]); the boot receiver starts it after a reboot. Whatever it holds (the link,
 * the network callback, the wake lock) is released in [onDestroy], the one exit path of a service.
 * The foreground service type is `specialUse` (API 34+; remote operation of this phone).
 */
class LinkService : Service() {
    @Volatile
    private var link: PhoneLink? = null
    private var config: LinkConfig? = null
    private var network: ConnectivityNetworkMonitor? = null
    private var wakeLock: CommandWakeLock? = null
    private var geometry: ScreenGeometry? = null
    private lateinit var settings: LinkSettings
    private lateinit var facts: DeviceFacts

    override fun onCreate() {
        super.onCreate()
        settings = LinkSettings(this)
        facts = DeviceFacts(this)
        requireSystemService<NotificationManager>().createNotificationChannel(
            NotificationChannel(CHANNEL_ID, "Gateway link", NotificationManager.IMPORTANCE_LOW).apply {
                description = "Shows whether this phone is connected to its MobileClaw gateway"
            },
        )
    }

    override fun onStartCommand(intent: Intent?, flags: Int, startId: Int): Int {
        startInForeground(LinkStatus.describe(LinkStatus.state, System.currentTimeMillis()))
        if (intent?.action == ACTION_DISCONNECT) {
            settings.enabled = false
            stopSelf()
            return START_NOT_STICKY
        }
        val wanted = try {
            settings.toConfig(clientVersion())
        } catch (e: IllegalArgumentException) {
            LinkStatus.publish(LinkState.Refused(LinkStatus.NOT_CONFIGURED, e.message ?: "not configured"))
            stopSelf()
            return START_NOT_STICKY
        }
        // The same settings again (e.g. the switch turned on after a refusal): start the stopped link anew.
        if (wanted != config) connect(wanted) else link?.start()
        return START_STICKY
    }

    private fun connect(wanted: LinkConfig) {
        link?.close()
        val monitor = network ?: ConnectivityNetworkMonitor(this).also { network = it }
        val lock = wakeLock ?: CommandWakeLock(this).also { wakeLock = it }
        config = wanted
        geometry = runCatching { facts.geometry() }.getOrNull()
        lateinit var created: PhoneLink
        // A replaced link may still report while it winds down: only the current one is shown.
        created = PhoneLink(
            wanted,
            AccessibilityExecutor(this, MobileClawAccessibilityService::connected),
            LinkOptions(network = monitor, hooks = lock, onState = { state -> if (link === created) onLinkState(state) }),
        )
        link = created
        created.start()
    }

    private fun onLinkState(state: LinkState) {
        LinkStatus.publish(state)
        requireSystemService<NotificationManager>().notify(NOTIFICATION_ID, notification(LinkStatus.describe(state, System.currentTimeMillis())))
    }

    override fun onConfigurationChanged(newConfig: Configuration) {
        super.onConfigurationChanged(newConfig)
        val now = runCatching { facts.geometry() }.getOrNull() ?: return
        if (now == geometry) return
        geometry = now
        link?.sendEvent("screen", buildJsonObject {
            put("width", now.width)
            put("height", now.height)
            put("rotation", now.rotation)
            put("densityDpi", resources.displayMetrics.densityDpi)
        })
    }

    override fun onDestroy() {
        link?.close()
        link = null
        config = null
        network?.close()
        network = null
        wakeLock?.releaseAll()
        LinkStatus.publish(LinkState.Stopped)
        super.onDestroy()
    }

    override fun onBind(intent: Intent?): IBinder? = null

    private fun startInForeground(text: String) {
        val notification = notification(text)
        if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.UPSIDE_DOWN_CAKE) {
            startForeground(NOTIFICATION_ID, notification, ServiceInfo.FOREGROUND_SERVICE_TYPE_SPECIAL_USE)
        } else {
            startForeground(NOTIFICATION_ID, notification)
        }
    }

    private fun notification(text: String): Notification {
        val open = PendingIntent.getActivity(this, 0, Intent(this, SettingsActivity::class.java), PendingIntent.FLAG_IMMUTABLE)
        val disconnect = PendingIntent.getService(this, 1, Intent(this, LinkService::class.java).setAction(ACTION_DISCONNECT), PendingIntent.FLAG_IMMUTABLE)
        return Notification.Builder(this, CHANNEL_ID)
            .setSmallIcon(android.R.drawable.stat_notify_sync)
            .setContentTitle("MobileClaw")
            .setContentText(text)
            .setOngoing(true)
            .setContentIntent(open)
            .addAction(Notification.Action.Builder(null, "Disconnect", disconnect).build())
            .build()
    }

    private fun clientVersion(): String = try {
        packageManager.getPackageInfo(packageName, 0).versionName ?: DEFAULT_VERSION
    } catch (e: Exception) {
        DEFAULT_VERSION
    }

    companion object {
        const val CHANNEL_ID = "link"
        const val NOTIFICATION_ID = 1
        const val ACTION_DISCONNECT = "dev.mobileclaw.android.DISCONNECT"
        private const val DEFAULT_VERSION = "0.1.0"

        /** Starts (or refreshes, after the settings changed) the service in the foreground. */
        fun start(context: Context) {
            context.startForegroundService(Intent(context, LinkService::class.java))
        }

        /** Stops the service (and with it the link). */
        fun stop(context: Context) {
            context.stopService(Intent(context, LinkService::class.java))
        }
    }
}
