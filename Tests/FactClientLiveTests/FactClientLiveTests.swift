import AppConfiguration
import FactClient
import FactClientLive
import FixtureServer
import Foundation
import LiveHTTP
import Testing

private func liveClient(baseURL: URL, timeout: Duration = .seconds(30)) -> FactClient {
  FactClient.live(configuration: .init(baseURL: baseURL, timeout: timeout))
}

struct FactClientLiveTests {
  @Test func fetchReturnsTheTriviaText() async throws {
    let fact = "42 is the number of spots on a pair of standard six-sided dice.\n"
    try await withFixtureServer(routes: ["/42/trivia": .text(fact)]) { server in
      let text = try await liveClient(baseURL: server.baseURL).fetch(42)
      #expect(text == "42 is the number of spots on a pair of standard six-sided dice.")
      #expect(server.requests.map(\.target) == ["/42/trivia"])
      #expect(server.requests.first?.method == "GET")
    }
  }

  @Test func fetchSupportsNegativeNumbersAndABasePath() async throws {
    try await withFixtureServer(routes: ["/numbers/-7/trivia": .text("-7 is cold.")]) { server in
      let client = liveClient(baseURL: server.baseURL.appending(path: "numbers"))
      let text = try await client.fetch(-7)
      #expect(text == "-7 is cold.")
      #expect(server.requests.map(\.target) == ["/numbers/-7/trivia"])
    }
  }

  @Test func fetchSurfacesHTTPStatus() async throws {
    try await withFixtureServer(routes: ["/1/trivia": .status(503)]) { server in
      let error = await #expect(throws: HTTPServiceError.self) {
        try await liveClient(baseURL: server.baseURL).fetch(1)
      }
      #expect(error?.cause == .httpStatus(503))
      #expect(error?.description == "Number trivia: HTTP 503")
    }
  }

  @Test func aHugeReplyIsNotReadToTheEnd() async throws {
    // The issue seen: a 32 MB reply went into the state; bodies are capped at 1 MiB.
    let huge = String(repeating: "1 is a number. ", count: 140_000)  // ≈ 2 MiB
    try await withFixtureServer(routes: ["/1/trivia": .text(huge)]) { server in
      let error = await #expect(throws: HTTPServiceError.self) {
        try await liveClient(baseURL: server.baseURL).fetch(1)
      }
      #expect(error?.cause == .bodyTooLarge(limit: 1_048_576))
      #expect(error?.description == "Number trivia: response body is larger than 1048576 bytes")
    }
  }

  @Test func aLongFactIsCutAtAWord() async throws {
    let long = String(repeating: "seven ", count: 100)  // 600 characters
    try await withFixtureServer(routes: ["/7/trivia": .text(long)]) { server in
      let text = try await liveClient(baseURL: server.baseURL).fetch(7)
      #expect(text.count <= 300)
      #expect(text.hasSuffix("seven…"))
      #expect(text.hasPrefix("seven seven"))
    }
  }

  @Test func fetchRejectsAnEmptyBody() async throws {
    try await withFixtureServer(routes: ["/1/trivia": .text(" \n")]) { server in
      let error = await #expect(throws: HTTPServiceError.self) {
        try await liveClient(baseURL: server.baseURL).fetch(1)
      }
      #expect(error?.cause == .undecodableBody(path: "", detail: "body is empty"))
    }
  }

  @Test func fetchRejectsABodyThatIsNotText() async throws {
    let garbage = FixtureServer.Response(body: Data([0xFF, 0xFE, 0x00, 0xC3]))
    try await withFixtureServer(routes: ["/1/trivia": garbage]) { server in
      let error = await #expect(throws: HTTPServiceError.self) {
        try await liveClient(baseURL: server.baseURL).fetch(1)
      }
      #expect(error?.cause == .undecodableBody(path: "", detail: "body is not UTF-8 text"))
    }
  }

  @Test func unreachableHostIsReported() async throws {
    let closed = try await FixtureServer.closedPortURL()
    let error = await #expect(throws: HTTPServiceError.self) {
      try await liveClient(baseURL: closed).fetch(1)
    }
    guard case .unreachable = error?.cause else {
      Issue.record("expected unreachable, got \(String(describing: error))")
      return
    }
    #expect(error?.description.hasPrefix("Number trivia: cannot reach 127.0.0.1:") == true)
  }

  @Test func slowUpstreamTimesOut() async throws {
    try await withFixtureServer(routes: ["/1/trivia": .text("1").delayed(by: .seconds(60))]) {
      server in
      let error = await #expect(throws: HTTPServiceError.self) {
        try await liveClient(baseURL: server.baseURL, timeout: .milliseconds(250)).fetch(1)
      }
      #expect(error?.cause == .timedOut(after: .milliseconds(250)))
    }
  }

  @Test func cancellingTheCallerCancelsTheRequest() async throws {
    try await withFixtureServer(routes: ["/1/trivia": .text("1").delayed(by: .seconds(60))]) {
      server in
      let client = liveClient(baseURL: server.baseURL, timeout: .seconds(120))
      let call = Task { try await client.fetch(1) }
      try await server.waitForRequests(count: 1)
      call.cancel()
      await #expect(throws: CancellationError.self) { try await call.value }
    }
  }

  @Test func configurationComesFromTheEnvironment() throws {
    let defaults = try FactClient.Configuration(environment: [:])
    #expect(defaults.baseURL.absoluteString == "http://number-trivia.com")
    #expect(defaults.timeout == .seconds(10))

    let configured = try FactClient.Configuration(environment: [
      "FACT_BASE_URL": "http://127.0.0.1:8123", "HTTP_TIMEOUT_SECONDS": "4",
      "FACT_TIMEOUT_SECONDS": "0.5",
    ])
    #expect(configured.baseURL.absoluteString == "http://127.0.0.1:8123")
    #expect(configured.timeout == .milliseconds(500))

    #expect(throws: ConfigurationError.self) {
      try FactClient.Configuration(environment: ["FACT_BASE_URL": "ftp://number-trivia.com"])
    }
  }
}
