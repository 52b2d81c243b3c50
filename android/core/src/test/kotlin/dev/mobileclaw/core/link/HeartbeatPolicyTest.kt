package dev.mobileclaw.core.link

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

class HeartbeatPolicyTest {
    private val policy = HeartbeatPolicy(intervalMs = 15_000)

    @Test
    fun `a lively link needs nothing`() {
        assertEquals(HeartbeatAction.NOTHING, policy.decide(nowMs = 100_000, lastReceivedMs = 99_000, lastSentMs = 99_500, lastPingMs = 90_000))
    }

    @Test
    fun `a link quiet both ways for one interval gets a ping`() {
        assertEquals(HeartbeatAction.PING, policy.decide(nowMs = 100_000, lastReceivedMs = 85_000, lastSentMs = 85_000, lastPingMs = 90_000))
        // The phone itself spoke recently: the gateway's ping is due, not ours.
        assertEquals(HeartbeatAction.NOTHING, policy.decide(nowMs = 100_000, lastReceivedMs = 85_000, lastSentMs = 99_000, lastPingMs = 90_000))
    }

    @Test
    fun `two intervals without a frame mean the link is dead, whatever the phone sent`() {
        assertEquals(HeartbeatAction.DEAD, policy.decide(nowMs = 100_000, lastReceivedMs = 70_000, lastSentMs = 99_999, lastPingMs = 99_999))
        assertEquals(HeartbeatAction.PING, policy.decide(nowMs = 100_000, lastReceivedMs = 70_001, lastSentMs = 70_001, lastPingMs = 99_999))
    }

    @Test
    fun `the round-trip time is refreshed by a ping every four intervals`() {
        assertEquals(HeartbeatAction.PING, policy.decide(nowMs = 100_000, lastReceivedMs = 99_000, lastSentMs = 99_000, lastPingMs = 40_000))
        assertEquals(7_500L, policy.tickMs)
        assertEquals(10L, HeartbeatPolicy(intervalMs = 5).tickMs)
    }
}
