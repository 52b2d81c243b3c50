package dev.mobileclaw.core.link

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

class PairingLinkTest {
    @Test
    fun `a link with host, port and token parses, tls is optional`() {
        assertEquals(PairingLink("192.168.1.20", 7397, "9f1c2e7a4b", false), PairingLink.parse("mobileclaw://pair?host=192.168.1.20&port=7397&token=9f1c2e7a4b"))
        assertEquals(PairingLink("gw.example.org", 443, "t", true), PairingLink.parse("mobileclaw://pair?host=gw.example.org&port=443&token=t&tls=1"))
        assertEquals(PairingLink("fe80::1", 7397, "t", false), PairingLink.parse("mobileclaw://pair?host=%5Bfe80::1%5D&token=t"))
    }

    @Test
    fun `percent-encoded tokens survive a round trip`() {
        val link = PairingLink("10.0.0.2", 7000, "a b+c/d=é", false)
        assertEquals("mobileclaw://pair?host=10.0.0.2&port=7000&token=a%20b%2Bc%2Fd%3D%C3%A9", link.toUri())
        assertEquals(link, PairingLink.parse(link.toUri()))
    }

    @Test
    fun `anything else is refused with the reason`() {
        assertEquals("not a pairing link: expected mobileclaw://pair?host=…&port=…&token=…", assertThrows<IllegalArgumentException> { PairingLink.parse("https://pair?host=a&token=b") }.message)
        assertEquals("the pairing link has no valid host", assertThrows<IllegalArgumentException> { PairingLink.parse("mobileclaw://pair?host=a/b&token=t") }.message)
        assertEquals("the pairing link's port must be 1-65535, got 70000", assertThrows<IllegalArgumentException> { PairingLink.parse("mobileclaw://pair?host=a&port=70000&token=t") }.message)
        assertEquals("the pairing link has no token", assertThrows<IllegalArgumentException> { PairingLink.parse("mobileclaw://pair?host=a&port=1") }.message)
    }

    @Test
    fun `a host list names several gateways in order, entries without a port taking the link's port`() {
        val link = PairingLink.parse("mobileclaw://pair?host=10.0.0.2%2C10.0.0.3%3A7001%2C%5Bfd00%3A%3A3%5D&port=7000&token=t")
        assertEquals(PairingLink("10.0.0.2,10.0.0.3:7001,[fd00::3]", 7000, "t", false), link)
        assertEquals(listOf(GatewayAddress("10.0.0.2", 7000), GatewayAddress("10.0.0.3", 7001), GatewayAddress("fd00::3", 7000)), link.gateways)
        assertEquals(link, PairingLink.parse(link.toUri()))
        assertEquals(listOf(GatewayAddress("fe80::1", 7397)), PairingLink.parse("mobileclaw://pair?host=%5Bfe80::1%5D&token=t").gateways)
        assertEquals(
            "the pairing link's host list is invalid: \"b:0\": the port must be 1-65535",
            assertThrows<IllegalArgumentException> { PairingLink.parse("mobileclaw://pair?host=a,b:0&token=t") }.message,
        )
    }

    @Test
    fun `the token never appears in toString`() {
        assertEquals("PairingLink(host=h, port=1, tls=false, token=<6 chars>)", PairingLink("h", 1, "secret", false).toString())
    }
}
