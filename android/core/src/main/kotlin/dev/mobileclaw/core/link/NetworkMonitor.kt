package dev.mobileclaw.core.link

import kotlinx.coroutines.flow.MutableStateFlow
import kotlinx.coroutines.flow.StateFlow
import kotlinx.coroutines.flow.asStateFlow

/**
 * Whether the phone has a usable network. The link waits on [online] instead of retrying without one,
 * drops its connection when it turns false, and tries again at once when it turns true. The Android
 * app feeds it from a `ConnectivityManager` default-network callback.
 */
interface NetworkMonitor {
    val online: StateFlow<Boolean>

    companion object {
        /** A network that is always there (desktop JVMs, tests). */
        val ALWAYS_ONLINE: NetworkMonitor = object : NetworkMonitor {
            override val online: StateFlow<Boolean> = MutableStateFlow(true).asStateFlow()
        }
    }
}
