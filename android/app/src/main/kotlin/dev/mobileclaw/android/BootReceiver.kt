package dev.mobileclaw.android

import android.content.BroadcastReceiver
import android.content.Context
import android.content.Intent

/**
 * Starts the [LinkService] after a reboot or an app update when the user left the link switched on
 * (starting a foreground service from `BOOT_COMPLETED` is allowed for the `specialUse` type).
 */
class BootReceiver : BroadcastReceiver() {
    override fun onReceive(context: Context, intent: Intent) {
        if (intent.action != Intent.ACTION_BOOT_COMPLETED && intent.action != Intent.ACTION_MY_PACKAGE_REPLACED) return
        if (LinkSettings(context).enabled) LinkService.start(context)
    }
}
