package dev.mobileclaw.android

import android.app.AlertDialog
import android.content.DialogInterface
import android.content.Intent
import android.net.Uri
import android.widget.EditText
import android.widget.Switch
import android.widget.TextView
import dev.mobileclaw.core.link.GatewayAddress
import dev.mobileclaw.core.link.LinkState
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.Robolectric
import org.robolectric.RobolectricTestRunner
import org.robolectric.RuntimeEnvironment
import org.robolectric.Shadows.shadowOf
import org.robolectric.annotation.Config
import org.robolectric.shadows.ShadowDialog
import org.robolectric.shadows.ShadowLooper

@RunWith(RobolectricTestRunner::class)
@Config(sdk = [35], manifest = Config.NONE)
class SettingsActivityTest {
    private val context = RuntimeEnvironment.getApplication()

    @After
    fun tearDown() = LinkStatus.publish(LinkState.Stopped)

    private fun pairingIntent(link: String) = Intent(Intent.ACTION_VIEW, Uri.parse(link)).setClass(context, SettingsActivity::class.java)

    @Test
    fun `a pairing link asks before pairing, and confirming stores it, switches the link on and starts the service`() {
        val settings = LinkSettings(context)
        val deviceId = settings.deviceId
        Robolectric.buildActivity(SettingsActivity::class.java, pairingIntent("mobileclaw://pair?host=192.168.1.20&port=7400&token=9f1c2e7a4b")).setup()
        val dialog = ShadowDialog.getLatestDialog() as AlertDialog
        assertTrue(dialog.isShowing)
        assertEquals("192.168.1.20:7400 will be able to see and operate this phone. Pair only with your own gateway.", shadowOf(dialog).message.toString())
        assertEquals("", settings.host)

        dialog.getButton(DialogInterface.BUTTON_POSITIVE).performClick()
        ShadowLooper.idleMainLooper()

        assertEquals("192.168.1.20", settings.host)
        assertEquals(7400, settings.port)
        assertEquals("9f1c2e7a4b", settings.token)
        assertFalse(settings.tls)
        assertTrue(settings.enabled)
        assertEquals(deviceId, settings.deviceId)
        assertEquals(LinkService::class.java.name, shadowOf(context).nextStartedService.component!!.className)
    }

    @Test
    fun `a pairing link naming several gateways lists them, and pairing stores them in their order`() {
        val settings = LinkSettings(context)
        Robolectric.buildActivity(SettingsActivity::class.java, pairingIntent("mobileclaw://pair?host=192.168.1.20%2C192.168.1.21%3A7401&port=7400&token=9f1c2e7a4b")).setup()
        val dialog = ShadowDialog.getLatestDialog() as AlertDialog
        assertEquals("192.168.1.20:7400, 192.168.1.21:7401 will be able to see and operate this phone. Pair only with your own gateway.", shadowOf(dialog).message.toString())
        dialog.getButton(DialogInterface.BUTTON_POSITIVE).performClick()
        ShadowLooper.idleMainLooper()
        assertEquals("192.168.1.20,192.168.1.21:7401", settings.host)
        assertEquals(listOf(GatewayAddress("192.168.1.20", 7400), GatewayAddress("192.168.1.21", 7401)), settings.toConfig("0.1.0").gateways)
        assertTrue(settings.enabled)
    }

    @Test
    fun `the host field takes several gateways comma-separated, and a bad entry is refused with its reason`() {
        val settings = LinkSettings(context)
        val activity = Robolectric.buildActivity(SettingsActivity::class.java).setup().get()
        val fields = views<EditText>(activity).associateBy { it.hint.toString() }
        val connect = views<Switch>(activity).single()
        fields.getValue("from the gateway's page").setText("9f1c2e7a4b")
        fields.getValue("7397").setText("7400")
        fields.getValue("192.168.1.20").setText("gw-a, gw-b:0")
        connect.performClick()
        assertTrue(texts(activity).toString(), texts(activity).contains("Gateway address: \"gw-b:0\": the port must be 1-65535"))
        assertFalse(settings.enabled)
        assertEquals(null, shadowOf(context).nextStartedService)

        fields.getValue("192.168.1.20").setText("gw-a, gw-b:7001, [fd00::3]")
        connect.performClick()
        assertTrue(settings.enabled)
        assertEquals("gw-a, gw-b:7001, [fd00::3]", settings.host)
        assertEquals(listOf(GatewayAddress("gw-a", 7400), GatewayAddress("gw-b", 7001), GatewayAddress("fd00::3", 7400)), settings.toConfig("0.1.0").gateways)
        assertEquals(LinkService::class.java.name, shadowOf(context).nextStartedService.component!!.className)
    }

    @Test
    fun `cancelling the question changes nothing`() {
        Robolectric.buildActivity(SettingsActivity::class.java, pairingIntent("mobileclaw://pair?host=evil.example&token=x")).setup()
        (ShadowDialog.getLatestDialog() as AlertDialog).getButton(DialogInterface.BUTTON_NEGATIVE).performClick()
        ShadowLooper.idleMainLooper()
        assertEquals("", LinkSettings(context).host)
        assertFalse(LinkSettings(context).enabled)
        assertEquals(null, shadowOf(context).nextStartedService)
    }

    @Test
    fun `a malformed link is refused with its reason on the screen`() {
        val activity = Robolectric.buildActivity(SettingsActivity::class.java, pairingIntent("mobileclaw://pair?host=gw.local")).setup().get()
        assertTrue(texts(activity).contains("Cannot pair: the pairing link has no token"))
    }

    @Test
    fun `the screen shows the live state of the link`() {
        val activity = Robolectric.buildActivity(SettingsActivity::class.java).setup().get()
        LinkStatus.publish(LinkState.Connected("s-1", 42))
        ShadowLooper.idleMainLooper()
        assertTrue(texts(activity).toString(), texts(activity).contains("Connected (RTT 42 ms)"))
        assertTrue(texts(activity).contains("Accessibility service: off — turn on MobileClaw in Accessibility settings"))
    }

    @Test
    fun `while reconnecting the screen counts the seconds down`() {
        val activity = Robolectric.buildActivity(SettingsActivity::class.java).setup().get()
        var now = 1_000_000L
        activity.clock = { now }
        LinkStatus.publish(LinkState.Reconnecting("connection lost", 3_000, now + 3_000))
        ShadowLooper.idleMainLooper()
        assertTrue(texts(activity).toString(), texts(activity).contains("Reconnecting in 3 s: connection lost"))
        now += 1_000
        ShadowLooper.idleMainLooper(1, java.util.concurrent.TimeUnit.SECONDS)
        assertTrue(texts(activity).toString(), texts(activity).contains("Reconnecting in 2 s: connection lost"))
    }

    @Test
    fun `the device id is generated once and then stable`() {
        val first = LinkSettings(context).deviceId
        assertTrue(first, Regex("android-[0-9a-f]{12}").matches(first))
        assertEquals(first, LinkSettings(context).deviceId)
    }

    @Test
    fun `states read as the user needs them`() {
        assertEquals("Reconnecting in 8 s: connection lost", LinkStatus.describe(LinkState.Reconnecting("connection lost", 8_000, 18_000), 10_001))
        assertEquals("Connecting to gw:7397 (attempt 3)", LinkStatus.describe(LinkState.Connecting("gw", 7397, 3), 0))
        assertEquals("Connected to 10.0.0.3:7001 (RTT 42 ms)", LinkStatus.describe(LinkState.Connected("s-1", 42, GatewayAddress("10.0.0.3", 7001)), 0))
        assertEquals("Error: the gateway refused the device token; pair again", LinkStatus.describe(LinkState.Refused("UNAUTHORIZED", "invalid device token"), 0))
        assertEquals("Waiting for a network", LinkStatus.describe(LinkState.WaitingForNetwork, 0))
    }

    private inline fun <reified T : android.view.View> views(activity: SettingsActivity): List<T> = allViews(activity.window.decorView).filterIsInstance<T>()

    private fun allViews(view: android.view.View): List<android.view.View> =
        listOf(view) + if (view is android.view.ViewGroup) (0 until view.childCount).flatMap { allViews(view.getChildAt(it)) } else emptyList()

    private fun texts(activity: SettingsActivity): List<String> {
        val found = mutableListOf<String>()
        fun walk(view: android.view.View) {
            if (view is TextView) found += view.text.toString()
            if (view is android.view.ViewGroup) for (i in 0 until view.childCount) walk(view.getChildAt(i))
        }
        walk(activity.window.decorView)
        return found
    }
}
