package dev.mobileclaw.interop

import java.io.Closeable
import java.io.File
import java.nio.file.Files
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import kotlin.concurrent.thread

/**
 * The real MobileClaw gateway as a child process: `node` runs `apps/gateway/src/main.ts` from the
 * repository's TypeScript sources (as test/gateway's process specs do), on free ports, with no
 * simulated phone, a fresh data directory and the given device token. [httpPort] and [devicePort] are
 * read from its log lines. Needs `node` on the PATH (or `MOBILECLAW_NODE`) and `npm ci` done.
 */
class GatewayProcess private constructor(private val process: Process, private val dataDir: File, val httpPort: Int, val devicePort: Int, private val output: StringBuffer) : Closeable {
    /** Everything the gateway logged so far. */
    val log: String get() = output.toString()

    override fun close() {
        process.destroy()
        if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly().waitFor()
        dataDir.deleteRecursively()
    }

    companion object {
        /**
         * Starts the gateway and waits (at most [startTimeoutS]) until it listens.
         * @param env extra environment, e.g. `MOBILECLAW_MAX_FRAME_BYTES`.
         * @throws IllegalStateException when it exits or does not listen in time (with its output).
         */
        fun start(token: String, env: Map<String, String> = emptyMap(), startTimeoutS: Long = 120): GatewayProcess {
            val root = File(System.getProperty("mobileclaw.repoRoot") ?: error("system property mobileclaw.repoRoot (set by the Maven build) names the repository root")).canonicalFile
            val dataDir = Files.createTempDirectory("mobileclaw-interop").toFile()
            val node = System.getenv("MOBILECLAW_NODE") ?: "node"
            val builder = ProcessBuilder(
                node,
                "--conditions=@mobileclaw/source",
                "--require", File(root, "tools/register-typescript.cjs").path,
                File(root, "apps/gateway/src/main.ts").path,
            ).directory(root).redirectErrorStream(true)
            builder.environment().putAll(
                mapOf(
                    "MOBILECLAW_HTTP_PORT" to "0",
                    "MOBILECLAW_DEVICE_PORT" to "0",
                    "MOBILECLAW_DEVICE_HOST" to "127.0.0.1",
                    "MOBILECLAW_DATA_DIR" to dataDir.path,
                    "MOBILECLAW_SIM" to "off",
                    "MOBILECLAW_DEVICE_TOKEN" to token,
                    "MOBILECLAW_LOG_LEVEL" to "info",
                ) + env,
            )
            val process = builder.start()
            val output = StringBuffer()
            val listening = CountDownLatch(1)
            var httpPort = 0
            var devicePort = 0
            thread(isDaemon = true, name = "gateway-output") {
                process.inputStream.bufferedReader().forEachLine { line ->
                    output.append(line).append('\n')
                    if (httpPort == 0) REST.find(line)?.let { httpPort = it.groupValues[1].toInt() }
                    if (devicePort == 0) DEVICES.find(line)?.let { devicePort = it.groupValues[1].toInt() }
                    if (httpPort != 0 && devicePort != 0) listening.countDown()
                }
                listening.countDown()
            }
            if (!listening.await(startTimeoutS, TimeUnit.SECONDS) || httpPort == 0 || devicePort == 0) {
                process.destroyForcibly()
                dataDir.deleteRecursively()
                error("the gateway did not start listening within $startTimeoutS s:\n$output")
            }
            return GatewayProcess(process, dataDir, httpPort, devicePort, output)
        }

        private val REST = Regex("""REST API on http://127\.0\.0\.1:(\d+)""")
        private val DEVICES = Regex("""phones connect to TCP port (\d+)""")
    }
}
