package dev.mobileclaw.core.command

import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put

/** A node's on-screen rectangle in device px of the current rotation; [right] and [bottom] exclusive. */
data class Bounds(val left: Int, val top: Int, val right: Int, val bottom: Int) {
    /** True when the rectangle covers no pixel. */
    val isEmpty: Boolean get() = right <= left || bottom <= top
}

/**
 * One node of `ui_tree` data (docs/protocol.md, "ui_tree data"), in the schema the simulator and the
 * ADB bridge give. Strings are `""` when the node has none; [text] of a [password] node is always `""`.
 */
data class UiNode(
    /** Unique within one tree (`n0`, `n1`, … in pre-order); not stable across trees. */
    val id: String,
    val className: String,
    val text: String,
    val desc: String,
    val resourceId: String,
    val packageName: String,
    val bounds: Bounds,
    val clickable: Boolean,
    val longClickable: Boolean,
    val focusable: Boolean,
    val editable: Boolean,
    val checkable: Boolean,
    val checked: Boolean,
    val enabled: Boolean,
    val focused: Boolean,
    val scrollable: Boolean,
    val selected: Boolean,
    val password: Boolean,
    /** The [id] of the node that labels this one, or null. */
    val labeledBy: String?,
    val children: List<UiNode>,
) {
    init {
        require(!password || text.isEmpty()) { "a password node never carries its text" }
    }

    /** The node and its subtree as protocol JSON, fields in the documented order. */
    fun toJson(): JsonObject = buildJsonObject {
        put("id", id)
        put("class", className)
        put("text", text)
        put("desc", desc)
        put("resourceId", resourceId)
        put("package", packageName)
        put("bounds", JsonArray(listOf(bounds.left, bounds.top, bounds.right, bounds.bottom).map { kotlinx.serialization.json.JsonPrimitive(it) }))
        put("clickable", clickable)
        put("focusable", focusable)
        put("editable", editable)
        put("checkable", checkable)
        put("checked", checked)
        put("enabled", enabled)
        put("focused", focused)
        put("scrollable", scrollable)
        put("selected", selected)
        put("longClickable", longClickable)
        put("password", password)
        labeledBy?.let { put("labeledBy", it) }
        put("children", JsonArray(children.map { it.toJson() }))
    }

    /** This node and every descendant, pre-order. */
    fun flatten(): Sequence<UiNode> = sequence {
        yield(this@UiNode)
        for (child in children) yieldAll(child.flatten())
    }
}
