package dev.mobileclaw.android

import android.accessibilityservice.AccessibilityService
import android.graphics.Rect
import android.os.Build
import android.view.accessibility.AccessibilityNodeInfo
import dev.mobileclaw.core.command.Bounds
import dev.mobileclaw.core.command.PhoneError
import dev.mobileclaw.core.command.PhoneErrorCode
import dev.mobileclaw.core.command.UiNode

/**
 * Reads the screen's accessibility tree straight from the service (no `uiautomator dump`): the root of
 * each interactive window of the default display (`AccessibilityService.getWindows`, API 21, in the
 * order the system gives, top-most first), or the active window's root when window retrieval is off.
 *
 * Each node becomes a protocol [UiNode] (ids `n0`, `n1`, … in pre-order; bounds in screen px):
 * - a node not visible to the user is left out, its visible descendants taking its place;
 * - every visible node is kept, actionable ones without any text included;
 * - a password field's text is never read (`text` is `""`, `password` true);
 * - a field showing its hint (API 26+) has `text` `""` (the hint is not content);
 * - `labeledBy` names the labelling node when that node is in the same tree.
 * At most [maxNodes] nodes and [maxDepth] levels are read, so that a runaway tree cannot exhaust memory.
 */
class NodeTreeReader(private val maxNodes: Int = 5_000, private val maxDepth: Int = 120) {
    /**
     * The root nodes of [service]'s screen.
     * @throws PhoneError PERMISSION_DENIED when the service can read no window at all.
     */
    fun read(service: AccessibilityService): List<UiNode> {
        val roots = service.windows.mapNotNull { it.root }.ifEmpty { listOfNotNull(service.rootInActiveWindow) }
        if (roots.isEmpty()) throw PhoneError(PhoneErrorCode.PERMISSION_DENIED, "no window can be read: is the MobileClaw accessibility service enabled and allowed to retrieve window content?")
        return readRoots(roots)
    }

    /** Converts already obtained [roots] (one per window). */
    fun readRoots(roots: List<AccessibilityNodeInfo>): List<UiNode> {
        val walk = Walk()
        val drafts = roots.flatMap { walk.visit(it, 0) }
        return drafts.map { it.build(walk.ids) }
    }

    /** One traversal: assigns ids in pre-order and remembers which info has which id (for `labeledBy`). */
    private inner class Walk {
        val ids = HashMap<AccessibilityNodeInfo, String>()
        private var count = 0
        private val rect = Rect()

        /** The drafts [info] contributes to its parent: itself, or its visible descendants when it is invisible. */
        fun visit(info: AccessibilityNodeInfo, depth: Int): List<Draft> {
            if (count >= maxNodes || depth > maxDepth) return emptyList()
            if (!info.isVisibleToUser) return children(info, depth)
            val id = "n${count++}"
            ids[info] = id
            info.getBoundsInScreen(rect)
            val draft = Draft(id, info, Bounds(rect.left, rect.top, rect.right, rect.bottom))
            draft.children = children(info, depth)
            return listOf(draft)
        }

        private fun children(info: AccessibilityNodeInfo, depth: Int): List<Draft> =
            (0 until info.childCount).flatMap { index -> info.getChild(index)?.let { visit(it, depth + 1) } ?: emptyList() }
    }

    /** A node read but not yet finished: its `labeledBy` needs every id of the tree. */
    private class Draft(val id: String, val info: AccessibilityNodeInfo, val bounds: Bounds) {
        var children: List<Draft> = emptyList()

        fun build(ids: Map<AccessibilityNodeInfo, String>): UiNode {
            val password = info.isPassword
            val showingHint = Build.VERSION.SDK_INT >= Build.VERSION_CODES.O && info.isShowingHintText
            return UiNode(
                id = id,
                className = info.className?.toString().orEmpty(),
                text = if (password || showingHint) "" else info.text?.toString().orEmpty(),
                desc = info.contentDescription?.toString().orEmpty(),
                resourceId = info.viewIdResourceName.orEmpty(),
                packageName = info.packageName?.toString().orEmpty(),
                bounds = bounds,
                clickable = info.isClickable,
                longClickable = info.isLongClickable,
                focusable = info.isFocusable,
                editable = info.isEditable,
                checkable = info.isCheckable,
                checked = info.isChecked,
                enabled = info.isEnabled,
                focused = info.isFocused,
                scrollable = info.isScrollable,
                selected = info.isSelected,
                password = password,
                labeledBy = info.labeledBy?.let { ids[it] },
                children = children.map { it.build(ids) },
            )
        }
    }
}
