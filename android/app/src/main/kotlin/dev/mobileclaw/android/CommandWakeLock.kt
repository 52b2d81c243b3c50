package dev.mobileclaw.android

import android.content.Context
import android.os.PowerManager
import dev.mobileclaw.core.command.Command
import dev.mobileclaw.core.command.ExecutionHooks

/**
 * Keeps the CPU awake while a command runs, and only then: a partial wake lock acquired when a command
 * starts (with the command's deadline as its own timeout, so that it can never outlive the command)
 * and released when it ends, whatever the outcome. [releaseAll] releases it on every exit path of the
 * service. The screen is never kept on.
 */
class CommandWakeLock(context: Context) : ExecutionHooks {
    private val lock: PowerManager.WakeLock =
        context.requireSystemService<PowerManager>().newWakeLock(PowerManager.PARTIAL_WAKE_LOCK, TAG).apply { setReferenceCounted(false) }

    /** True while a command holds the lock. */
    val isHeld: Boolean get() = lock.isHeld

    override fun started(command: Command, timeoutMs: Long?) {
        lock.acquire(timeoutMs?.coerceIn(1, MAX_HOLD_MS) ?: MAX_HOLD_MS)
    }

    override fun finished(command: Command) = releaseAll()

    /** Releases the lock if held. */
    fun releaseAll() {
        if (lock.isHeld) lock.release()
    }

    companion object {
        const val TAG = "MobileClaw:command"

        /** The longest a command may hold the CPU awake, in ms (the gateway's largest sensible deadline). */
        const val MAX_HOLD_MS = 120_000L
    }
}
