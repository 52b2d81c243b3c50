package dev.mobileclaw.core.link

import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows

class GatewayAddressTest {
    @Test
    fun `an entry is host, host and port, or an IPv6 address with or without brackets`() {
        assertEquals(GatewayAddress("192.168.1.20", 7397), GatewayAddress.parse("192.168.1.20"))
        assertEquals(GatewayAddress("gw-b.example.org", 7001), GatewayAddress.parse(" gw-b.example.org:7001 "))
        assertEquals(GatewayAddress("::1", 7002), GatewayAddress.parse("[::1]:7002"))
        assertEquals(GatewayAddress("fd00::3", 7000), GatewayAddress.parse("[fd00::3]", defaultPort = 7000))
        assertEquals(GatewayAddress("fe80::1c2d:3e4f", 7000), GatewayAddress.parse("fe80::1c2d:3e4f", defaultPort = 7000))
    }

    @Test
    fun `a comma-separated list keeps its order, and entries without a port take the default`() {
        assertEquals(
            listOf(GatewayAddress("10.0.0.2", 7000), GatewayAddress("gw-b", 7100), GatewayAddress("::1", 7002)),
            GatewayAddress.parseList("10.0.0.2:7000, gw-b ,[::1]:7002", defaultPort = 7100),
        )
        assertEquals(listOf(GatewayAddress("192.168.1.20", 7397)), GatewayAddress.parseList("192.168.1.20"))
    }

    @Test
    fun `it is written back as parseList reads it`() {
        val list = listOf(GatewayAddress("10.0.0.2", 7000), GatewayAddress("fd00::3", 7397))
        assertEquals("10.0.0.2:7000, [fd00::3]:7397", GatewayAddress.formatList(list))
        assertEquals(list, GatewayAddress.parseList(GatewayAddress.formatList(list)))
    }

    @Test
    fun `bad lists and entries are refused naming the entry`() {
        assertEquals("no gateway address", assertThrows<IllegalArgumentException> { GatewayAddress.parseList("  ") }.message)
        assertEquals("an empty entry in the gateway list \"a,,b\"", assertThrows<IllegalArgumentException> { GatewayAddress.parseList("a,,b") }.message)
        assertEquals("\"gw-b:0\": the port must be 1-65535", assertThrows<IllegalArgumentException> { GatewayAddress.parseList("gw-a, gw-b:0") }.message)
        assertEquals("\"gw-b:http\": the port must be 1-65535", assertThrows<IllegalArgumentException> { GatewayAddress.parse("gw-b:http") }.message)
        assertEquals("\"a/b\" is not host, host:port or [IPv6]:port", assertThrows<IllegalArgumentException> { GatewayAddress.parse("a/b") }.message)
        assertEquals("\"[::1\": an IPv6 address in brackets needs its closing ]", assertThrows<IllegalArgumentException> { GatewayAddress.parse("[::1") }.message)
        assertEquals("\"[::1]x\": only :port may follow the ]", assertThrows<IllegalArgumentException> { GatewayAddress.parse("[::1]x") }.message)
    }

    @Test
    fun `a link configuration lists its first address and then the fallbacks`() {
        val config = LinkConfig.of(listOf(GatewayAddress("gw-a", 7000), GatewayAddress("gw-b", 7001)), token = "t", deviceId = "pixel-1")
        assertEquals("gw-a", config.host)
        assertEquals(7000, config.port)
        assertEquals(listOf(GatewayAddress("gw-a", 7000), GatewayAddress("gw-b", 7001)), config.gateways)
        assertEquals("LinkConfig(gateways=gw-a:7000, gw-b:7001, deviceId=pixel-1, tls=false, token=<1 chars>)", config.toString())
        assertEquals(listOf(GatewayAddress("gw", 7397)), LinkConfig(host = "gw", token = "t", deviceId = "pixel-1").gateways)
        assertEquals("at least one gateway address is needed", assertThrows<IllegalArgumentException> { LinkConfig.of(emptyList(), token = "t", deviceId = "pixel-1") }.message)
    }
}
