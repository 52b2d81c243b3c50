package dev.mobileclaw.android

import android.accessibilityservice.AccessibilityService
import android.accessibilityservice.GestureDescription
import android.content.ComponentName
import android.content.Intent
import android.content.pm.ActivityInfo
import android.content.pm.ApplicationInfo
import android.content.pm.PackageInfo
import android.content.pm.ResolveInfo
import android.graphics.RectF
import android.view.ViewConfiguration
import android.view.accessibility.AccessibilityNodeInfo
import dev.mobileclaw.core.command.ImageFormat
import dev.mobileclaw.core.command.InputOutcome
import dev.mobileclaw.core.command.PhoneError
import dev.mobileclaw.core.command.PhoneErrorCode
import dev.mobileclaw.core.command.ScreenshotRequest
import kotlinx.coroutines.CoroutineStart
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.runBlocking
import org.junit.Assert.assertEquals
import org.junit.Assert.assertFalse
import org.junit.Assert.assertTrue
import org.junit.Before
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.Robolectric
import org.robolectric.RobolectricTestRunner
import org.robolectric.RuntimeEnvironment
import org.robolectric.Shadows.shadowOf
import org.robolectric.annotation.Config
import org.robolectric.shadows.ShadowLooper

@RunWith(RobolectricTestRunner::class)
@Config(sdk = [35], manifest = Config.NONE)
class AccessibilityExecutorTest {
    private lateinit var service: MobileClawAccessibilityService
    private lateinit var executor: AccessibilityExecutor

    @Before
    fun setUp() {
        service = Robolectric.setupService(MobileClawAccessibilityService::class.java)
        executor = AccessibilityExecutor(RuntimeEnvironment.getApplication(), { service })
    }

    private fun refusal(block: suspend () -> Unit): PhoneError = try {
        runBlocking { block() }
        throw AssertionError("expected a PhoneError")
    } catch (e: PhoneError) {
        e
    }

    /** Runs [block] until it waits for a gesture's outcome, reports the outcome, and returns the gesture dispatched. */
    private fun gesture(complete: Boolean, block: suspend () -> Unit): Pair<GestureDescription, Result<Unit>> = runBlocking {
        val call = async(Dispatchers.Unconfined, start = CoroutineStart.UNDISPATCHED) { runCatching { block() } }
        val dispatched = shadowOf(service).gesturesDispatched.single()
        if (complete) dispatched.callback().onCompleted(dispatched.description()) else dispatched.callback().onCancelled(dispatched.description())
        ShadowLooper.idleMainLooper()
        dispatched.description() to call.await()
    }

    private fun bounds(gesture: GestureDescription): RectF = RectF().also { gesture.getStroke(0).path.computeBounds(it, true) }

    @Test
    fun `click is a 50 ms stroke at the point, done only when the gesture completed`() {
        val (tap, outcome) = gesture(complete = true) { executor.click(540, 1200) }
        assertTrue(outcome.isSuccess)
        assertEquals(1, tap.strokeCount)
        assertEquals(50L, tap.getStroke(0).duration)
        assertEquals(RectF(540f, 1200f, 540f, 1200f), bounds(tap))
    }

    @Test
    fun `a cancelled gesture is GESTURE_CANCELLED, not success`() {
        val (_, outcome) = gesture(complete = false) { executor.click(1, 2) }
        assertEquals(PhoneErrorCode.GESTURE_CANCELLED, (outcome.exceptionOrNull() as PhoneError).code)
    }

    @Test
    fun `long_press holds for the asked duration, by default 500 ms past the long-press timeout`() {
        val (asked, _) = gesture(complete = true) { executor.longPress(300, 800, 1500) }
        assertEquals(1500L, asked.getStroke(0).duration)
        shadowOf(service).gesturesDispatched.clear()
        val (default, _) = gesture(complete = true) { executor.longPress(300, 800, null) }
        assertEquals(ViewConfiguration.getLongPressTimeout() + 500L, default.getStroke(0).duration)
        assertEquals(RectF(300f, 800f, 300f, 800f), bounds(default))
    }

    @Test
    fun `swipe is one straight stroke from start to end over its duration, 300 ms by default`() {
        val (swipe, _) = gesture(complete = true) { executor.swipe(540, 1800, 540, 600, 250) }
        assertEquals(250L, swipe.getStroke(0).duration)
        assertEquals(RectF(540f, 600f, 540f, 1800f), bounds(swipe))
        shadowOf(service).gesturesDispatched.clear()
        val (default, _) = gesture(complete = true) { executor.swipe(10, 10, 500, 10, null) }
        assertEquals(300L, default.getStroke(0).duration)
    }

    @Test
    fun `a gesture the system refuses is COMMAND_FAILED at once`() {
        shadowOf(service).setCanDispatchGestures(false)
        assertEquals(PhoneErrorCode.COMMAND_FAILED, refusal { executor.click(1, 1) }.code)
    }

    @Test
    fun `back and home are global actions`() = runBlocking {
        executor.back()
        executor.home()
        assertEquals(listOf(AccessibilityService.GLOBAL_ACTION_BACK, AccessibilityService.GLOBAL_ACTION_HOME), shadowOf(service).globalActionsPerformed)
    }

    @Test
    fun `without the accessibility service every command is PERMISSION_DENIED`() {
        val off = AccessibilityExecutor(RuntimeEnvironment.getApplication(), { null })
        val error = refusal { off.back() }
        assertEquals(PhoneErrorCode.PERMISSION_DENIED, error.code)
        assertEquals("the MobileClaw accessibility service is off: enable it in Settings → Accessibility → MobileClaw", error.message)
        assertEquals(PhoneErrorCode.PERMISSION_DENIED, refusal { off.uiTree() }.code)
        assertEquals(PhoneErrorCode.PERMISSION_DENIED, refusal { off.open("com.android.settings") }.code)
    }

    /** A focused field that takes whatever ACTION_SET_TEXT gives it, as an EditText does. */
    private fun focusedField(initial: String, selection: Int = -1): AccessibilityNodeInfo {
        val field = Nodes.node("android.widget.EditText", initial) {
            isEditable = true
            isFocused = true
            isFocusable = true
            setTextSelection(selection, selection)
        }
        shadowOf(field).setOnPerformActionListener { action, arguments ->
            if (action == AccessibilityNodeInfo.ACTION_SET_TEXT) field.text = arguments!!.getCharSequence(AccessibilityNodeInfo.ACTION_ARGUMENT_SET_TEXT_CHARSEQUENCE)
            true
        }
        shadowOf(service).setWindows(listOf(Nodes.window(Nodes.tree(Nodes.node("android.widget.FrameLayout"), field))))
        return field
    }

    @Test
    fun `input with clear sets any Unicode text exactly and reads it back`() = runBlocking {
        val field = focusedField("old")
        val text = "你好 👩‍👩‍👧 مرحبا \"q\" \\ \n\t"
        assertEquals(InputOutcome(text, verified = true), executor.input(text, clear = true))
        assertEquals(text, field.text.toString())
        val actions = shadowOf(field).performedActionsWithArgs
        assertEquals(AccessibilityNodeInfo.ACTION_SET_TEXT, actions[0].first)
        assertEquals(text, actions[0].second!!.getCharSequence(AccessibilityNodeInfo.ACTION_ARGUMENT_SET_TEXT_CHARSEQUENCE).toString())
        assertEquals(AccessibilityNodeInfo.ACTION_SET_SELECTION, actions[1].first)
        assertEquals(text.length, actions[1].second!!.getInt(AccessibilityNodeInfo.ACTION_ARGUMENT_SELECTION_START_INT))
    }

    @Test
    fun `input without clear inserts at the cursor`() = runBlocking {
        val field = focusedField("Hello world", selection = 5)
        assertEquals(InputOutcome("Hello, dear world", verified = true), executor.input(", dear", clear = false))
        assertEquals("Hello, dear world", field.text.toString())
    }

    @Test
    fun `a field that ignores the text is reported unverified with what it shows`() = runBlocking {
        val field = focusedField("abc")
        shadowOf(field).setOnPerformActionListener { _, _ -> true }
        assertEquals(InputOutcome("abc", verified = false), executor.input("xyz", clear = true))
    }

    @Test
    fun `input without a focused editable node is NO_FOCUSED_INPUT`() {
        shadowOf(service).setWindows(listOf(Nodes.window(Nodes.tree(Nodes.node("android.widget.FrameLayout"), Nodes.node("android.widget.TextView", "label") { isFocused = true }))))
        val error = refusal { executor.input("x", clear = false) }
        assertEquals(PhoneErrorCode.NO_FOCUSED_INPUT, error.code)
        assertEquals("no focused editable node; click a text field first", error.message)
    }

    @Test
    fun `open starts the app's launch intent in a new task`() = runBlocking {
        installLauncherApp("com.android.settings", "com.android.settings.Settings")
        executor.open("com.android.settings")
        val started = shadowOf(RuntimeEnvironment.getApplication()).nextStartedActivity
        assertEquals(ComponentName("com.android.settings", "com.android.settings.Settings"), started.component)
        assertTrue(started.flags and Intent.FLAG_ACTIVITY_NEW_TASK != 0)
    }

    @Test
    fun `open of an app that is not installed is APP_NOT_FOUND`() {
        val error = refusal { executor.open("com.example.nope") }
        assertEquals(PhoneErrorCode.APP_NOT_FOUND, error.code)
        assertEquals("no launchable app with package com.example.nope (not installed, or without a launcher activity)", error.message)
    }

    @Test
    fun `screenshot below Android 11 is UNSUPPORTED and is not announced`() {
        val old = AccessibilityExecutor(RuntimeEnvironment.getApplication(), { service }, sdkInt = 29)
        val error = refusal { old.screenshot(ScreenshotRequest(ImageFormat.PNG, null, null, 1_000_000)) }
        assertEquals(PhoneErrorCode.UNSUPPORTED, error.code)
        assertEquals("screenshot needs Android 11 (API 30) or later; this phone runs API 29", error.message)
        assertFalse("screenshot" in DeviceFacts.capabilitiesFor(29))
        assertEquals(listOf("open", "click", "long_press", "swipe", "input", "back", "home", "screenshot", "ui_tree"), DeviceFacts.capabilitiesFor(30))
    }

    @Test
    fun `a screenshot the system refuses is COMMAND_FAILED naming its error`() {
        shadowOf(service).setTakeScreenshotErrorCode(AccessibilityService.ERROR_TAKE_SCREENSHOT_SECURE_WINDOW)
        val error = refusal { executor.screenshot(ScreenshotRequest(ImageFormat.PNG, null, null, 1_000_000)) }
        assertEquals(PhoneErrorCode.COMMAND_FAILED, error.code)
        assertEquals("the system could not take the screenshot: ERROR_TAKE_SCREENSHOT_SECURE_WINDOW (a secure window is shown)", error.message)
    }

    @Test
    fun `hello describes the real display and build`() = runBlocking {
        val description = executor.describe()
        val screen = description.device["screen"].toString()
        val geometry = executor.geometry()
        assertEquals("""{"width":${geometry.width},"height":${geometry.height},"densityDpi":${RuntimeEnvironment.getApplication().resources.displayMetrics.densityDpi},"rotation":${geometry.rotation}}""", screen)
        assertEquals(android.os.Build.MODEL, description.device["model"]!!.toString().trim('"'))
        assertEquals(DeviceFacts.capabilitiesFor(35), description.capabilities)
    }

    private fun installLauncherApp(packageName: String, activity: String) {
        val pm = shadowOf(RuntimeEnvironment.getApplication().packageManager)
        pm.installPackage(PackageInfo().apply {
            this.packageName = packageName
            applicationInfo = ApplicationInfo().apply { this.packageName = packageName }
        })
        val launcher = Intent(Intent.ACTION_MAIN).addCategory(Intent.CATEGORY_LAUNCHER).setPackage(packageName)
        pm.addResolveInfoForIntent(launcher, ResolveInfo().apply {
            activityInfo = ActivityInfo().apply {
                this.packageName = packageName
                name = activity
                applicationInfo = ApplicationInfo().apply { this.packageName = packageName }
            }
        })
    }
}
