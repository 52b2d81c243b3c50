// The APK: the same sources, manifest and resources as the Maven build's app module (app/pom.xml),
// which compiles them against android-all (API 35) and runs the Robolectric tests in CI.
plugins {
    id("com.android.application")
    id("org.jetbrains.kotlin.android")
}

android {
    namespace = "dev.mobileclaw.android"
    compileSdk = 35

    defaultConfig {
        applicationId = "dev.mobileclaw.android"
        minSdk = 26
        targetSdk = 35
        versionCode = 1
        versionName = "0.1.0"
    }

    sourceSets {
        getByName("main").java.srcDirs("src/main/kotlin")
        getByName("test").java.srcDirs("src/test/kotlin")
    }

    compileOptions {
        sourceCompatibility = JavaVersion.VERSION_17
        targetCompatibility = JavaVersion.VERSION_17
    }

    buildTypes {
        getByName("release") {
            isMinifyEnabled = false
        }
    }

    testOptions {
        unitTests.isIncludeAndroidResources = true
        unitTests.all {
            // The pairing links the gateway builds (its tests run the same file), and the manifest whose intent filter takes them.
            it.systemProperty("mobileclaw.pairingVectors", rootProject.file("../docs/pairing-link-vectors.json").absolutePath)
            it.systemProperty("mobileclaw.manifest", file("src/main/AndroidManifest.xml").absolutePath)
        }
    }
}

kotlin {
    jvmToolchain(17)
}

dependencies {
    implementation(project(":core"))
    testImplementation("junit:junit:4.13.2")
    testImplementation("org.robolectric:robolectric:4.16.1")
}
