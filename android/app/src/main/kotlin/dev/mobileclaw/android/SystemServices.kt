package dev.mobileclaw.android

import android.content.Context

/**
 * The system service of type [T] (`Context.getSystemService(Class)`, nullable in the framework's
 * annotations). @throws IllegalArgumentException on a device that lacks it (none of the services this
 * app uses is optional on a phone).
 */
inline fun <reified T : Any> Context.requireSystemService(): T =
    requireNotNull(getSystemService(T::class.java)) { "this device has no ${T::class.java.simpleName}" }
