package dev.mobileclaw.core.command

import java.security.SecureRandom

/**
 * Frame ids of one phone (docs/protocol.md, "frameId and STALE_FRAME"): each `screenshot`/`ui_tree`
 * result gets a new id bound to the [ScreenGeometry] it was taken with; an action planned on a frame
 * is refused `STALE_FRAME` when the screen's geometry is no longer that one, or when the id is unknown
 * (issued by an earlier run of the app, or older than the last [capacity] frames). Thread-safe.
 */
class FrameRegistry(private val capacity: Int = 64) {
    init {
        require(capacity >= 32) { "a phone remembers at least 32 frames, got $capacity" }
    }

    // A per-instance prefix, so that a frame id from an earlier run of the app is unknown here.
    private val prefix = "%06x".format(SecureRandom().nextInt(1 shl 24))
    private var counter = 0L
    private val frames = object : LinkedHashMap<String, ScreenGeometry>() {
        override fun removeEldestEntry(eldest: MutableMap.MutableEntry<String, ScreenGeometry>?): Boolean = size > capacity
    }

    /** A new frame id bound to [geometry], e.g. `3f9a1c-17`. */
    @Synchronized
    fun register(geometry: ScreenGeometry): String {
        counter += 1
        val frameId = "$prefix-$counter"
        frames[frameId] = geometry
        return frameId
    }

    /** The geometry [frameId] was taken with, or null when unknown. */
    @Synchronized
    fun geometry(frameId: String): ScreenGeometry? = frames[frameId]

    /** @throws PhoneError `STALE_FRAME` unless [frameId] is known and was taken with exactly the geometry [now]. */
    @Synchronized
    fun check(frameId: String, now: ScreenGeometry) {
        val then = frames[frameId] ?: throw PhoneError(PhoneErrorCode.STALE_FRAME, "unknown frameId \"$frameId\"")
        if (then != now) {
            throw PhoneError(
                PhoneErrorCode.STALE_FRAME,
                "frame $frameId was ${then.width}x${then.height} rotation ${then.rotation}; the screen is now ${now.width}x${now.height} rotation ${now.rotation}",
            )
        }
    }
}
