import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WebFrontend

@MainActor
struct MetricsTests {
  @Test func metricsCountSessionsActionsRefusalsAndDurations() async throws {
    let registry = makeRegistry()
    try await makeApplication(registry).test(.router) { client in
      let session = try await client.createSession()
      try await client.send(.addCounter, to: session.id)
      let invalid = try await client.call(
        .post, "/api/session/actions", session: session.id,
        headers: [.contentType: "application/json"],
        body: ByteBuffer(string: #"{"type":"counter.add",}"#))
      #expect(invalid.status == .badRequest)
      let crossSite = try await client.call(
        .post, "/api/session", headers: [.origin: "http://evil.example"])
      #expect(crossSite.status == .forbidden)
      #expect(try await client.call(.get, "/no-such-page").status == .notFound)

      let response = try await client.call(.get, "/metrics")
      #expect(response.status == .ok)
      #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
      let lines = Set(String(buffer: response.body).split(separator: "\n").map(String.init))
      for expected in [
        "app_sessions_created_total 1",
        "app_sessions_live 1.0",
        #"app_actions_total{type="counter.add",result="ok"} 1"#,
        #"app_actions_total{type="invalid",result="bad_request"} 1"#,
        #"app_requests_refused_total{reason="origin"} 1"#,
        #"app_requests_refused_total{reason="bad_request"} 1"#,
        #"app_requests_refused_total{reason="not_found"} 1"#,
        #"app_http_request_duration_seconds_count{route="/api/session/actions",method="POST"} 2"#,
        #"app_http_request_duration_seconds_count{route="other",method="other"} 1"#,
      ] {
        #expect(lines.contains(expected), "missing: \(expected)")
      }
      #expect(lines.contains("# TYPE app_http_request_duration_seconds histogram"))
    }
  }

  @Test func endingSessionsLowersTheLiveGauge() async throws {
    let registry = makeRegistry()
    try await makeApplication(registry).test(.router) { client in
      _ = try await client.createSession()
      let second = try await client.createSession()
      #expect(
        try await client.call(.delete, "/api/session", session: second.id).status == .noContent)
      let text = String(buffer: try await client.call(.get, "/metrics").body)
      #expect(text.contains("app_sessions_created_total 2\n"))
      #expect(text.contains("app_sessions_live 1.0\n"))
      registry.endAll()
      let drained = String(buffer: try await client.call(.get, "/metrics").body)
      #expect(drained.contains("app_sessions_live 0.0\n"))
    }
  }

  @Test func anEventStreamIsCountedWhileOpen() async throws {
    let registry = makeRegistry()
    try await makeApplication(registry).test(.ahc(.http)) { client in
      let session = try await client.createSession()
      let port = try #require(client.port)
      let stream = try RawHTTP.Connection(port: port)
      stream.send(
        "GET /api/session/events HTTP/1.1\r\nHost: localhost:\(port)\r\nCookie: session=\(session.id)\r\n\r\n"
      )
      // The gauge goes up once the stream's body starts, just after its head is sent.
      try await waitUntil {
        let text = try? String(buffer: await client.call(.get, "/metrics").body)
        return text?.contains("app_event_streams_open 1.0\n") == true
      }
      withExtendedLifetime(stream) {}
      registry.endAll()  // ends the stream, so the server can stop
    }
  }
}
