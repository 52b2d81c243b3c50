package dev.mobileclaw.interop

import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.jsonObject
import java.net.URI
import java.net.http.HttpClient
import java.net.http.HttpRequest
import java.net.http.HttpResponse
import java.time.Duration

/** The gateway's REST API, as an outside agent calls it: JSON in, status and JSON out. */
class RestClient(private val port: Int) {
    private val http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()

    /** One answer: the HTTP [status] and the JSON [body]. */
    data class Answer(val status: Int, val body: JsonObject)

    /** `GET path`. */
    fun get(path: String): Answer = send(HttpRequest.newBuilder(uri(path)).GET())

    /** `POST path` with a JSON [body]. */
    fun post(path: String, body: JsonElement): Answer =
        send(HttpRequest.newBuilder(uri(path)).header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body.toString(), Charsets.UTF_8)))

    /** `POST /api/devices/{deviceId}/commands` with [command] (its arguments at the top level). */
    fun command(deviceId: String, command: JsonObject): Answer = post("/api/devices/$deviceId/commands", command)

    private fun uri(path: String) = URI.create("http://127.0.0.1:$port$path")

    private fun send(request: HttpRequest.Builder): Answer {
        val response = http.send(request.timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString(Charsets.UTF_8))
        return Answer(response.statusCode(), Json.parseToJsonElement(response.body()).jsonObject)
    }
}
