package dev.mobileclaw.android

import android.app.AlertDialog
import android.content.DialogInterface
import android.content.Intent
import android.content.IntentFilter
import android.net.Uri
import dev.mobileclaw.core.link.LinkState
import dev.mobileclaw.core.link.PairingLink
import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.boolean
import kotlinx.serialization.json.int
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import org.junit.After
import org.junit.Assert.assertEquals
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
import org.w3c.dom.Element
import java.io.File
import javax.xml.parsers.DocumentBuilderFactory

/**
 * The links the gateway's page shows (docs/pairing-link-vectors.json, which the gateway's tests build
 * byte for byte) reach the app as a camera app or browser hands them over: a VIEW intent in category
 * BROWSABLE that the manifest's intent filter of [SettingsActivity] matches, and that pairs the app with
 * exactly the vector's host, port, token and TLS once the user confirms.
 */
@RunWith(RobolectricTestRunner::class)
@Config(sdk = [35], manifest = Config.NONE)
class PairingIntentTest {
    private val context = RuntimeEnvironment.getApplication()
    private val vectors: List<JsonObject> =
        Json.parseToJsonElement(File(property("mobileclaw.pairingVectors")).readText(Charsets.UTF_8)).jsonObject.getValue("vectors").jsonArray.map { it.jsonObject }

    @After
    fun tearDown() = LinkStatus.publish(LinkState.Stopped)

    /** What a camera app or browser sends for a scanned or tapped link. */
    private fun viewIntent(link: String) = Intent(Intent.ACTION_VIEW, Uri.parse(link)).addCategory(Intent.CATEGORY_BROWSABLE)

    @Test
    fun `the manifest's intent filter takes every gateway link, and only mobileclaw pair links`() {
        val filters = manifestFilters(".SettingsActivity").filter { it.hasAction(Intent.ACTION_VIEW) }
        assertEquals(1, filters.size)
        val filter = filters.single()
        assertTrue(vectors.size >= 5)
        for (vector in vectors) {
            val link = vector.getValue("link").jsonPrimitive.content
            assertTrue(link, matches(filter, viewIntent(link)))
        }
        for (other in listOf("https://pair?host=a&token=b", "mobileclaw://unpair?host=a&token=b", "mobileclawx://pair?host=a&token=b")) {
            assertTrue(other, !matches(filter, viewIntent(other)))
        }
    }

    @Test
    fun `opening each gateway link and confirming pairs with exactly its values`() {
        val settings = LinkSettings(context)
        for (vector in vectors) {
            val target = vector.getValue("target").jsonObject
            val intent = viewIntent(vector.getValue("link").jsonPrimitive.content).setClass(context, SettingsActivity::class.java)
            val controller = Robolectric.buildActivity(SettingsActivity::class.java, intent).setup()
            val dialog = ShadowDialog.getLatestDialog() as AlertDialog
            assertTrue(shadowOf(dialog).message.toString().startsWith("${target.getValue("host").jsonPrimitive.content}:${target.getValue("port").jsonPrimitive.int}"))
            dialog.getButton(DialogInterface.BUTTON_POSITIVE).performClick()
            ShadowLooper.idleMainLooper()
            assertEquals(
                vector.getValue("name").jsonPrimitive.content,
                PairingLink(target.getValue("host").jsonPrimitive.content, target.getValue("port").jsonPrimitive.int, target.getValue("token").jsonPrimitive.content, target.getValue("tls").jsonPrimitive.boolean),
                PairingLink(settings.host, settings.port, settings.token, settings.tls),
            )
            controller.pause().stop().destroy()
        }
    }

    private fun matches(filter: IntentFilter, intent: Intent): Boolean =
        filter.match(intent.action, intent.type, intent.scheme, intent.data, intent.categories, "PairingIntentTest") >= 0

    /** The intent filters the manifest declares for [activity], as the framework's [IntentFilter]s. */
    private fun manifestFilters(activity: String): List<IntentFilter> {
        val android = "http://schemas.android.com/apk/res/android"
        val document = DocumentBuilderFactory.newInstance().apply { isNamespaceAware = true }.newDocumentBuilder().parse(File(property("mobileclaw.manifest")))
        val activities = document.getElementsByTagName("activity").let { list -> (0 until list.length).map { list.item(it) as Element } }
        val element = activities.single { it.getAttributeNS(android, "name") == activity }
        fun children(parent: Element, tag: String) = parent.getElementsByTagName(tag).let { list -> (0 until list.length).map { list.item(it) as Element } }
        return children(element, "intent-filter").map { xml ->
            IntentFilter().apply {
                children(xml, "action").forEach { addAction(it.getAttributeNS(android, "name")) }
                children(xml, "category").forEach { addCategory(it.getAttributeNS(android, "name")) }
                for (data in children(xml, "data")) {
                    data.getAttributeNS(android, "scheme").takeIf { it.isNotEmpty() }?.let(::addDataScheme)
                    data.getAttributeNS(android, "host").takeIf { it.isNotEmpty() }?.let { addDataAuthority(it, data.getAttributeNS(android, "port").ifEmpty { null }) }
                }
            }
        }
    }

    private fun property(name: String): String = System.getProperty(name) ?: error("system property $name is set by the Maven build (app/pom.xml)")
}
