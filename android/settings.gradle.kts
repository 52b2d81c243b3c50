// The Gradle build for Android Studio users (it builds the APK). CI does not run it: Google's Maven
// repository, where the Android Gradle plugin lives, is out of reach there; CI runs the Maven build
// (pom.xml) over the same sources instead. See README.md.
pluginManagement {
    repositories {
        google()
        mavenCentral()
        gradlePluginPortal()
    }
}

dependencyResolutionManagement {
    repositoriesMode.set(RepositoriesMode.FAIL_ON_PROJECT_REPOS)
    repositories {
        google()
        mavenCentral()
    }
}

rootProject.name = "mobileclaw-android"
include(":core", ":app")
