package dev.mobileclaw.android

import android.content.Context
import android.net.ConnectivityManager
import android.net.Network
import android.net.NetworkCapabilities
import dev.mobileclaw.core.link.NetworkMonitor
import kotlinx.coroutines.flow.MutableStateFlow
import kotlinx.coroutines.flow.StateFlow
import kotlinx.coroutines.flow.asStateFlow

/**
 * [NetworkMonitor] from `ConnectivityManager.registerDefaultNetworkCallback` (API 24): online while
 * the default network has internet capability, so the link waits for a network instead of spinning
 * its reconnect loop (and drops a connection whose network is gone). [close] unregisters.
 */
class ConnectivityNetworkMonitor(context: Context) : NetworkMonitor, AutoCloseable {
    private val connectivity: ConnectivityManager = context.requireSystemService()
    private val state = MutableStateFlow(initiallyOnline())

    override val online: StateFlow<Boolean> = state.asStateFlow()

    private val callback = object : ConnectivityManager.NetworkCallback() {
        override fun onAvailable(network: Network) {
            state.value = true
        }

        override fun onCapabilitiesChanged(network: Network, capabilities: NetworkCapabilities) {
            state.value = capabilities.hasCapability(NetworkCapabilities.NET_CAPABILITY_INTERNET)
        }

        override fun onLost(network: Network) {
            state.value = false
        }
    }

    init {
        connectivity.registerDefaultNetworkCallback(callback)
    }

    private fun initiallyOnline(): Boolean {
        val network = connectivity.activeNetwork ?: return false
        return connectivity.getNetworkCapabilities(network)?.hasCapability(NetworkCapabilities.NET_CAPABILITY_INTERNET) == true
    }

    override fun close() {
        connectivity.unregisterNetworkCallback(callback)
    }
}
