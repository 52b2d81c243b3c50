package dev.mobileclaw.android

import android.accessibilityservice.AccessibilityService
import android.content.Intent
import android.view.accessibility.AccessibilityEvent

/**
 * The accessibility service the user enables (Settings → Accessibility → MobileClaw). It does nothing
 * on its own: it publishes itself in [connected] while the system has it bound, and the
 * [AccessibilityExecutor] performs the gateway's commands through it. Its configuration
 * (res/xml/accessibility_service_config.xml) asks for window content, interactive windows, view ids,
 * gestures and screenshots, and no events beyond the one type the framework requires.
 */
class MobileClawAccessibilityService : AccessibilityService() {
    override fun onServiceConnected() {
        super.onServiceConnected()
        current = this
    }

    override fun onAccessibilityEvent(event: AccessibilityEvent?) = Unit

    override fun onInterrupt() = Unit

    override fun onUnbind(intent: Intent?): Boolean {
        if (current === this) current = null
        return super.onUnbind(intent)
    }

    override fun onDestroy() {
        if (current === this) current = null
        super.onDestroy()
    }

    companion object {
        @Volatile
        private var current: MobileClawAccessibilityService? = null

        /** The service while the system has it bound, else null. */
        fun connected(): AccessibilityService? = current
    }
}
