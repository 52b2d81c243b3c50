package dev.mobileclaw.android

import android.accessibilityservice.AccessibilityService
import android.os.Build
import android.os.Bundle
import android.view.accessibility.AccessibilityNodeInfo
import dev.mobileclaw.core.command.InputOutcome
import dev.mobileclaw.core.command.PhoneError
import dev.mobileclaw.core.command.PhoneErrorCode

/**
 * Types text with `ACTION_SET_TEXT` (API 21) on the focused editable node: any Unicode (CJK, RTL,
 * emoji sequences) arrives exactly, with no keyboard in between. Without `clear` the text is inserted
 * at the cursor (replacing a selection), and the cursor is put after it (`ACTION_SET_SELECTION`, API 18).
 * The field is read back afterwards and the outcome says whether it holds what was asked.
 */
class TextTyper(private val service: AccessibilityService) {
    /**
     * Types [text] into the focused editable node, replacing its content when [clear].
     * @throws PhoneError NO_FOCUSED_INPUT when no editable node has the input focus; COMMAND_FAILED when
     * the field refuses the text, or when inserting into a password field (its content cannot be read).
     */
    fun type(text: String, clear: Boolean): InputOutcome {
        val field = focusedEditable() ?: throw PhoneError(PhoneErrorCode.NO_FOCUSED_INPUT, "no focused editable node; click a text field first")
        val current = currentText(field)
        if (!clear && field.isPassword && current == null) {
            throw PhoneError(PhoneErrorCode.COMMAND_FAILED, "cannot insert into a password field: its text cannot be read; send clear: true to replace it")
        }
        val (wanted, cursor) = if (clear) text to text.length else insert(current.orEmpty(), text, field.textSelectionStart, field.textSelectionEnd)
        val arguments = Bundle().apply { putCharSequence(AccessibilityNodeInfo.ACTION_ARGUMENT_SET_TEXT_CHARSEQUENCE, wanted) }
        if (!field.performAction(AccessibilityNodeInfo.ACTION_SET_TEXT, arguments)) {
            throw PhoneError(PhoneErrorCode.COMMAND_FAILED, "the focused field refused the text (it may be read-only or disabled)")
        }
        field.performAction(AccessibilityNodeInfo.ACTION_SET_SELECTION, Bundle().apply {
            putInt(AccessibilityNodeInfo.ACTION_ARGUMENT_SELECTION_START_INT, cursor)
            putInt(AccessibilityNodeInfo.ACTION_ARGUMENT_SELECTION_END_INT, cursor)
        })
        return readBack(field, wanted)
    }

    /** The node with the input focus when it is editable, else the first focused editable node of any window. */
    fun focusedEditable(): AccessibilityNodeInfo? {
        service.findFocus(AccessibilityNodeInfo.FOCUS_INPUT)?.let { if (it.isEditable) return it }
        val roots = service.windows.mapNotNull { it.root }.ifEmpty { listOfNotNull(service.rootInActiveWindow) }
        return roots.firstNotNullOfOrNull { find(it, 0) }
    }

    private fun find(node: AccessibilityNodeInfo, depth: Int): AccessibilityNodeInfo? {
        if (node.isFocused && node.isEditable) return node
        if (depth > MAX_DEPTH) return null
        return (0 until node.childCount).firstNotNullOfOrNull { index -> node.getChild(index)?.let { find(it, depth + 1) } }
    }

    /** Reads the focused field again (the same node refreshed when the focus moved off it). */
    private fun readBack(typedInto: AccessibilityNodeInfo, wanted: String): InputOutcome {
        val field = focusedEditable() ?: typedInto.takeIf { it.refresh() }
            ?: return InputOutcome("", verified = false, verifyError = "the field is gone after typing")
        if (field.isPassword) return InputOutcome("", verified = false, verifyError = "a password field does not show its text")
        val now = currentText(field).orEmpty()
        return InputOutcome(now, verified = now == wanted)
    }

    /** The field's content: null for a password field that hides it; "" while the field shows its hint (API 26+). */
    private fun currentText(field: AccessibilityNodeInfo): String? {
        if (Build.VERSION.SDK_INT >= Build.VERSION_CODES.O && field.isShowingHintText) return ""
        val text = field.text?.toString() ?: return if (field.isPassword) null else ""
        return if (field.isPassword) null else text
    }

    companion object {
        private const val MAX_DEPTH = 120

        /**
         * [current] with [text] put between the selection [start] and [end] (a caret when equal; the end
         * of the text when there is no valid selection), and where the cursor goes after it.
         */
        fun insert(current: String, text: String, start: Int, end: Int): Pair<String, Int> {
            val from = minOf(start, end)
            val to = maxOf(start, end)
            if (from < 0 || to > current.length) return (current + text) to current.length + text.length
            return (current.substring(0, from) + text + current.substring(to)) to from + text.length
        }
    }
}
