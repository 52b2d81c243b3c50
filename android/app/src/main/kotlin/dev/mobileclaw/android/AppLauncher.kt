package dev.mobileclaw.android

import android.content.ActivityNotFoundException
import android.content.Context
import android.content.Intent
import dev.mobileclaw.core.command.PhoneError
import dev.mobileclaw.core.command.PhoneErrorCode

/**
 * `open`: starts an app's launcher activity from the package manager's launch intent
 * (`PackageManager.getLaunchIntentForPackage`, or the TV launcher's). Seeing other apps' launch
 * intents needs the manifest's `<queries>` for MAIN/LAUNCHER (package visibility, API 30+). Started
 * from the accessibility service's context, which Android exempts from the limits on starting
 * activities from the background.
 */
class AppLauncher(private val context: Context) {
    /** @throws PhoneError APP_NOT_FOUND when [packageName] is not installed or has no launcher activity; COMMAND_FAILED when the system refuses to start it. */
    fun open(packageName: String) {
        val pm = context.packageManager
        val intent = pm.getLaunchIntentForPackage(packageName) ?: pm.getLeanbackLaunchIntentForPackage(packageName)
            ?: throw PhoneError(PhoneErrorCode.APP_NOT_FOUND, "no launchable app with package $packageName (not installed, or without a launcher activity)")
        intent.addFlags(Intent.FLAG_ACTIVITY_NEW_TASK or Intent.FLAG_ACTIVITY_RESET_TASK_IF_NEEDED)
        try {
            context.startActivity(intent)
        } catch (e: ActivityNotFoundException) {
            throw PhoneError(PhoneErrorCode.APP_NOT_FOUND, "package $packageName has no activity to start: ${e.message}")
        } catch (e: SecurityException) {
            throw PhoneError(PhoneErrorCode.COMMAND_FAILED, "the system refused to start $packageName: ${e.message}")
        }
    }
}
