// The protocol core as a plain Kotlin/JVM library (no Android imports), as in core/pom.xml.
plugins {
    `java-library`
    id("org.jetbrains.kotlin.jvm")
}

kotlin {
    jvmToolchain(17)
}

dependencies {
    // Part of core's API (StateFlow, JsonObject), so exported to the app.
    api("org.jetbrains.kotlinx:kotlinx-coroutines-core:1.10.2")
    api("org.jetbrains.kotlinx:kotlinx-serialization-json:1.9.0")
    testImplementation(platform("org.junit:junit-bom:5.14.1"))
    testImplementation("org.junit.jupiter:junit-jupiter")
    testRuntimeOnly("org.junit.platform:junit-platform-launcher")
    testImplementation("org.jetbrains.kotlinx:kotlinx-coroutines-test:1.10.2")
}

tasks.test {
    useJUnitPlatform()
    // The shared protocol vectors, the same file the gateway's tests run.
    systemProperty("mobileclaw.protocolVectors", rootProject.file("../docs/protocol-vectors.json").absolutePath)
    // The pairing links the gateway builds (GET /api/pairing), the same file its tests run.
    systemProperty("mobileclaw.pairingVectors", rootProject.file("../docs/pairing-link-vectors.json").absolutePath)
}
