package dev.mobileclaw.android

import android.app.Notification
import android.app.NotificationManager
import android.content.Context
import android.content.Intent
import android.net.ConnectivityManager
import android.net.NetworkCapabilities
import dev.mobileclaw.core.command.Command
import dev.mobileclaw.core.link.LinkState
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertNotNull
import org.junit.Assert.assertTrue
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.Robolectric
import org.robolectric.RobolectricTestRunner
import org.robolectric.RuntimeEnvironment
import org.robolectric.Shadows.shadowOf
import org.robolectric.annotation.Config
import org.robolectric.shadows.ShadowNetworkCapabilities
import org.robolectric.shadows.ShadowPowerManager
import java.net.InetAddress
import java.net.ServerSocket

@RunWith(RobolectricTestRunner::class)
@Config(sdk = [35], manifest = Config.NONE)
class LinkServiceTest {
    private val context: Context = RuntimeEnvironment.getApplication()
    private val gateway = ServerSocket(0, 5, InetAddress.getLoopbackAddress())

    @After
    fun tearDown() {
        gateway.close()
        LinkStatus.publish(LinkState.Stopped)
    }

    /** Robolectric's default network lacks the internet capability; a phone on Wi-Fi has it. */
    private fun online() {
        val connectivity = context.requireSystemService<ConnectivityManager>()
        val capabilities = ShadowNetworkCapabilities.newInstance()
        shadowOf(capabilities).addCapability(NetworkCapabilities.NET_CAPABILITY_INTERNET)
        shadowOf(connectivity).setNetworkCapabilities(connectivity.activeNetwork, capabilities)
    }

    @Test
    fun `the network monitor follows the default network's callbacks`() {
        online()
        val monitor = ConnectivityNetworkMonitor(context)
        assertTrue(monitor.online.value)
        val connectivity = context.requireSystemService<ConnectivityManager>()
        val callback = shadowOf(connectivity).networkCallbacks.single()
        callback.onLost(connectivity.activeNetwork!!)
        assertFalse(monitor.online.value)
        callback.onAvailable(connectivity.activeNetwork!!)
        assertTrue(monitor.online.value)
        monitor.close()
        assertTrue(shadowOf(connectivity).networkCallbacks.isEmpty())
    }

    @Test
    fun `the service goes to the foreground, connects to the configured gateway and stops cleanly`() {
        LinkSettings(context).apply {
            host = "127.0.0.1"
            port = gateway.localPort
            token = "t0k3n"
            deviceId = "robo-1"
            enabled = true
        }
        online()
        val controller = Robolectric.buildService(LinkService::class.java, Intent(context, LinkService::class.java)).create().startCommand(0, 1)
        val service = controller.get()
        val notification: Notification? = shadowOf(service).lastForegroundNotification
        assertNotNull(notification)
        assertEquals(LinkService.CHANNEL_ID, notification!!.channelId)
        assertNotNull(context.requireSystemService<NotificationManager>().getNotificationChannel(LinkService.CHANNEL_ID))

        gateway.soTimeout = 20_000
        val phone = try {
            gateway.accept()
        } catch (e: java.net.SocketTimeoutException) {
            throw AssertionError("the link did not connect; it is ${LinkStatus.state}")
        }
        val hello = phone.getInputStream().bufferedReader().readLine()
        assertTrue(hello, hello.startsWith("""{"type":"hello","protocolVersion":1,"deviceId":"robo-1","token":"t0k3n","device":{"""))

        controller.destroy()
        assertEquals(LinkState.Stopped, LinkStatus.state)
        // The link closed its socket: the gateway's read ends.
        phone.soTimeout = 20_000
        assertEquals(-1, phone.getInputStream().read())
    }

    @Test
    fun `without a host the service says what is missing and stops itself`() {
        LinkSettings(context).apply {
            host = ""
            token = ""
        }
        val controller = Robolectric.buildService(LinkService::class.java, Intent(context, LinkService::class.java)).create().startCommand(0, 1)
        assertTrue(shadowOf(controller.get()).isStoppedBySelf)
        assertEquals(LinkState.Refused(LinkStatus.NOT_CONFIGURED, "no gateway host yet: pair with the gateway's link or enter its address"), LinkStatus.state)
        assertEquals("Not configured: no gateway host yet: pair with the gateway's link or enter its address", LinkStatus.describe(LinkStatus.state, 0))
    }

    @Test
    fun `Disconnect in the notification switches the link off`() {
        LinkSettings(context).apply {
            host = "127.0.0.1"
            port = gateway.localPort
            token = "t"
            enabled = true
        }
        val controller = Robolectric.buildService(LinkService::class.java, Intent(context, LinkService::class.java).setAction(LinkService.ACTION_DISCONNECT)).create().startCommand(0, 1)
        assertFalse(LinkSettings(context).enabled)
        assertTrue(shadowOf(controller.get()).isStoppedBySelf)
    }

    @Test
    fun `the command wake lock is held exactly while a command runs`() {
        val lock = CommandWakeLock(context)
        lock.started(Command.Back, 5_000)
        val held = ShadowPowerManager.getLatestWakeLock()
        assertTrue(held.isHeld)
        assertEquals(CommandWakeLock.TAG, shadowOf(held).tag)
        assertFalse(shadowOf(held).isReferenceCounted)
        lock.finished(Command.Back)
        assertFalse(held.isHeld)
        lock.started(Command.Home, null)
        assertTrue(lock.isHeld)
        lock.releaseAll()
        assertFalse(lock.isHeld)
        assertEquals(2, shadowOf(held).timesHeld)
    }

    @Test
    fun `the boot receiver starts the service only when the link was switched on`() {
        LinkSettings(context).enabled = false
        BootReceiver().onReceive(context, Intent(Intent.ACTION_BOOT_COMPLETED))
        assertEquals(null, shadowOf(RuntimeEnvironment.getApplication()).nextStartedService)
        LinkSettings(context).enabled = true
        BootReceiver().onReceive(context, Intent(Intent.ACTION_BOOT_COMPLETED))
        assertEquals(LinkService::class.java.name, shadowOf(RuntimeEnvironment.getApplication()).nextStartedService.component!!.className)
    }
}
