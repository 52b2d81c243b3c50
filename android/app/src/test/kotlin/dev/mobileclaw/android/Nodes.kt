package dev.mobileclaw.android

import android.graphics.Rect
import android.view.accessibility.AccessibilityNodeInfo
import android.view.accessibility.AccessibilityWindowInfo
import org.robolectric.Shadows.shadowOf

/** Builds accessibility node trees for Robolectric tests, as a real app's views would report them. */
object Nodes {
    /** A visible node with [text] in [bounds] (left, top, right, bottom px) and the given state. */
    fun node(
        className: String,
        text: String? = null,
        bounds: Rect = Rect(0, 0, 100, 100),
        packageName: String = "com.android.settings",
        visible: Boolean = true,
        configure: AccessibilityNodeInfo.() -> Unit = {},
    ): AccessibilityNodeInfo = AccessibilityNodeInfo.obtain().apply {
        this.className = className
        this.text = text
        this.packageName = packageName
        setBoundsInScreen(bounds)
        isVisibleToUser = visible
        isEnabled = true
        configure()
    }

    /** [parent] with [children] attached, in order. */
    fun tree(parent: AccessibilityNodeInfo, vararg children: AccessibilityNodeInfo): AccessibilityNodeInfo {
        children.forEach { shadowOf(parent).addChild(it) }
        return parent
    }

    /** An application window whose root is [root]. */
    fun window(root: AccessibilityNodeInfo, id: Int = 1): AccessibilityWindowInfo = AccessibilityWindowInfo.obtain().also {
        shadowOf(it).setRoot(root)
        shadowOf(it).setId(id)
        shadowOf(it).setType(AccessibilityWindowInfo.TYPE_APPLICATION)
    }
}
