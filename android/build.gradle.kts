// Plugin versions for the whole build. Kotlin matches the Maven build (pom.xml: kotlin.version); the
// Android Gradle plugin is the one part the Maven build does without.
plugins {
    id("com.android.application") version "8.9.1" apply false
    id("org.jetbrains.kotlin.android") version "2.4.21" apply false
    id("org.jetbrains.kotlin.jvm") version "2.4.21" apply false
}
