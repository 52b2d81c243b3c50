package dev.mobileclaw.android

import android.graphics.Rect
import dev.mobileclaw.core.command.Bounds
import dev.mobileclaw.core.command.PhoneError
import dev.mobileclaw.core.command.PhoneErrorCode
import dev.mobileclaw.core.command.UiNode
import org.junit.Assert.assertEquals
import org.junit.Assert.assertThrows
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.Robolectric
import org.robolectric.RobolectricTestRunner
import org.robolectric.Shadows.shadowOf
import org.robolectric.annotation.Config

@RunWith(RobolectricTestRunner::class)
@Config(sdk = [35], manifest = Config.NONE)
class NodeTreeReaderTest {
    private val reader = NodeTreeReader()

    private fun expected(id: String, className: String, text: String, bounds: Bounds, children: List<UiNode> = emptyList(), configure: UiNode.() -> UiNode = { this }) = UiNode(
        id = id, className = className, text = text, desc = "", resourceId = "", packageName = "com.android.settings", bounds = bounds,
        clickable = false, longClickable = false, focusable = false, editable = false, checkable = false, checked = false, enabled = true,
        focused = false, scrollable = false, selected = false, password = false, labeledBy = null, children = children,
    ).configure()

    @Test
    fun `a window's nodes become protocol nodes with every field, ids in pre-order`() {
        val label = Nodes.node("android.widget.TextView", "Wi-Fi", Rect(48, 300, 600, 380))
        val toggle = Nodes.node("android.widget.Switch", "", Rect(900, 300, 1040, 380)) {
            viewIdResourceName = "android:id/switch_widget"
            contentDescription = "Wi-Fi switch"
            isClickable = true
            isLongClickable = true
            isFocusable = true
            isCheckable = true
            isChecked = true
            isSelected = true
        }
        shadowOf(toggle).setLabeledBy(label)
        val list = Nodes.tree(Nodes.node("androidx.recyclerview.widget.RecyclerView", null, Rect(0, 200, 1080, 2400)) { isScrollable = true }, label, toggle)
        val root = Nodes.tree(Nodes.node("android.widget.FrameLayout", null, Rect(0, 0, 1080, 2400)), list)

        val nodes = reader.readRoots(listOf(root))

        val switchNode = expected("n3", "android.widget.Switch", "", Bounds(900, 300, 1040, 380)) {
            copy(desc = "Wi-Fi switch", resourceId = "android:id/switch_widget", clickable = true, longClickable = true, focusable = true, checkable = true, checked = true, selected = true, labeledBy = "n2")
        }
        val listNode = expected("n1", "androidx.recyclerview.widget.RecyclerView", "", Bounds(0, 200, 1080, 2400), listOf(expected("n2", "android.widget.TextView", "Wi-Fi", Bounds(48, 300, 600, 380)), switchNode)) { copy(scrollable = true) }
        assertEquals(listOf(expected("n0", "android.widget.FrameLayout", "", Bounds(0, 0, 1080, 2400), listOf(listNode))), nodes)
    }

    @Test
    fun `invisible nodes are left out, their visible children kept in their place`() {
        val button = Nodes.node("android.widget.ImageButton", null, Rect(10, 10, 90, 90)) { isClickable = true }
        val hidden = Nodes.tree(Nodes.node("android.widget.LinearLayout", "hidden", visible = false), button, Nodes.node("android.widget.TextView", "offscreen", visible = false))
        val root = Nodes.tree(Nodes.node("android.widget.FrameLayout"), hidden)
        val nodes = reader.readRoots(listOf(root))
        assertEquals(listOf("n0"), nodes.map { it.id })
        val kept = nodes.single().children.single()
        assertEquals("n1", kept.id)
        assertEquals("android.widget.ImageButton", kept.className)
        assertEquals(true, kept.clickable)
        assertEquals("", kept.text)
    }

    @Test
    fun `a password field never gives its text`() {
        val password = Nodes.node("android.widget.EditText", "hunter2") {
            isPassword = true
            isEditable = true
        }
        val node = reader.readRoots(listOf(password)).single()
        assertEquals("", node.text)
        assertEquals(true, node.password)
        assertEquals(true, node.editable)
    }

    @Test
    fun `the service's windows are read in order, one root each`() {
        val service = Robolectric.setupService(MobileClawAccessibilityService::class.java)
        shadowOf(service).setWindows(listOf(Nodes.window(Nodes.node("android.widget.FrameLayout", "top"), 1), Nodes.window(Nodes.node("android.widget.FrameLayout", "below"), 2)))
        assertEquals(listOf("top" to "n0", "below" to "n1"), reader.read(service).map { it.text to it.id })
    }

    @Test
    fun `without any readable window it is PERMISSION_DENIED`() {
        val service = Robolectric.setupService(MobileClawAccessibilityService::class.java)
        val error = assertThrows(PhoneError::class.java) { reader.read(service) }
        assertEquals(PhoneErrorCode.PERMISSION_DENIED, error.code)
    }
}
