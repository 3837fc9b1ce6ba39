import AppConfiguration
import FixtureServer
import Foundation
import LiveHTTP
import RandomNumberClient
import RandomNumberClientLive
import Testing

private func httpClient(baseURL: URL, timeout: Duration = .seconds(30)) -> RandomNumberClient {
  RandomNumberClient.live(configuration: .init(source: .http, baseURL: baseURL, timeout: timeout))
}

struct SystemSourceTests {
  @Test func systemSourceStaysInRange() async throws {
    let client = RandomNumberClient.live(configuration: .init(source: .system))
    for _ in 0..<200 {
      #expect((1...6).contains(try await client.fetch(min: 1, max: 6)))
    }
    #expect(try await client.fetch(min: -3, max: -3) == -3)
    #expect((Int.min...Int.max).contains(try await client.fetch(min: .min, max: .max)))
  }

  @Test func systemSourceDrawsMoreThanOneValue() async throws {
    let client = RandomNumberClient.live(configuration: .init(source: .system))
    var seen = Set<Int>()
    for _ in 0..<100 { seen.insert(try await client.fetch(min: 1, max: 1_000_000)) }
    #expect(seen.count > 1)
  }

  @Test func systemSourceRejectsAReversedRange() async {
    let client = RandomNumberClient.live(configuration: .init(source: .system))
    await #expect(throws: RandomNumberRangeError(min: 10, max: 1)) {
      try await client.fetch(min: 10, max: 1)
    }
  }
}

struct HTTPSourceTests {
  @Test func httpSourceReturnsTheServicesNumber() async throws {
    try await withFixtureServer(routes: ["/api/v1.0/random": .json("[421]")]) { server in
      let number = try await httpClient(baseURL: server.baseURL).fetch(min: 1, max: 1000)
      #expect(number == 421)
      #expect(server.requests.map(\.target) == ["/api/v1.0/random?min=1&max=1000&count=1"])
    }
  }

  @Test func httpSourceSendsNegativeBounds() async throws {
    try await withFixtureServer(routes: ["/api/v1.0/random": .json("[-2]")]) { server in
      let number = try await httpClient(baseURL: server.baseURL).fetch(min: -5, max: 5)
      #expect(number == -2)
      #expect(server.requests.map(\.target) == ["/api/v1.0/random?min=-5&max=5&count=1"])
    }
  }

  @Test func httpSourceRejectsAReversedRangeWithoutARequest() async throws {
    try await withFixtureServer(routes: ["/api/v1.0/random": .json("[1]")]) { server in
      await #expect(throws: RandomNumberRangeError(min: 6, max: 1)) {
        try await httpClient(baseURL: server.baseURL).fetch(min: 6, max: 1)
      }
      #expect(server.requests.isEmpty)
    }
  }

  @Test func httpSourceRejectsAnEmptyArray() async throws {
    try await withFixtureServer(routes: ["/api/v1.0/random": .json("[]")]) { server in
      let error = await #expect(throws: HTTPServiceError.self) {
        try await httpClient(baseURL: server.baseURL).fetch(min: 1, max: 6)
      }
      #expect(
        error?.cause
          == .undecodableBody(path: "", detail: "expected one number, got an empty array"))
    }
  }

  @Test func httpSourceRejectsANumberOutsideTheRange() async throws {
    try await withFixtureServer(routes: ["/api/v1.0/random": .json("[5000]")]) { server in
      let error = await #expect(throws: HTTPServiceError.self) {
        try await httpClient(baseURL: server.baseURL).fetch(min: 1, max: 6)
      }
      #expect(error?.cause == .undecodableBody(path: "[0]", detail: "5000 is outside 1...6"))
    }
  }

  @Test func httpSourceNamesTheBadElement() async throws {
    try await withFixtureServer(routes: ["/api/v1.0/random": .json(#"["four"]"#)]) { server in
      let error = await #expect(throws: HTTPServiceError.self) {
        try await httpClient(baseURL: server.baseURL).fetch(min: 1, max: 6)
      }
      guard case .undecodableBody(let path, _) = error?.cause else {
        Issue.record("expected an undecodable body, got \(String(describing: error))")
        return
      }
      #expect(path == "[0]")
      #expect(
        error?.description.hasPrefix("Random number API: response body does not decode at [0]")
          == true)
    }
  }

  @Test func httpSourceSurfacesHTTPStatus() async throws {
    try await withFixtureServer(routes: ["/api/v1.0/random": .status(503)]) { server in
      let error = await #expect(throws: HTTPServiceError.self) {
        try await httpClient(baseURL: server.baseURL).fetch(min: 1, max: 6)
      }
      #expect(error?.description == "Random number API: HTTP 503")
    }
  }

  @Test func unreachableHostIsReported() async throws {
    let closed = try await FixtureServer.closedPortURL()
    let error = await #expect(throws: HTTPServiceError.self) {
      try await httpClient(baseURL: closed).fetch(min: 1, max: 6)
    }
    guard case .unreachable = error?.cause else {
      Issue.record("expected unreachable, got \(String(describing: error))")
      return
    }
  }

  @Test func slowUpstreamTimesOut() async throws {
    try await withFixtureServer(
      routes: ["/api/v1.0/random": .json("[3]").delayed(by: .seconds(60))]
    ) { server in
      let error = await #expect(throws: HTTPServiceError.self) {
        try await httpClient(baseURL: server.baseURL, timeout: .milliseconds(250))
          .fetch(min: 1, max: 6)
      }
      #expect(error?.cause == .timedOut(after: .milliseconds(250)))
    }
  }

  @Test func cancellingTheCallerCancelsTheRequest() async throws {
    try await withFixtureServer(
      routes: ["/api/v1.0/random": .json("[3]").delayed(by: .seconds(60))]
    ) { server in
      let client = httpClient(baseURL: server.baseURL, timeout: .seconds(120))
      let call = Task { try await client.fetch(min: 1, max: 6) }
      try await server.waitForRequests(count: 1)
      call.cancel()
      await #expect(throws: CancellationError.self) { try await call.value }
    }
  }
}

struct RandomNumberConfigurationTests {
  @Test func defaultsToTheSystemSource() throws {
    let configuration = try RandomNumberClient.Configuration(environment: [:])
    #expect(configuration.source == .system)
    #expect(configuration.baseURL.absoluteString == "http://www.randomnumberapi.com")
    #expect(configuration.timeout == .seconds(10))
  }

  @Test func environmentSelectsTheHTTPSource() throws {
    let configuration = try RandomNumberClient.Configuration(environment: [
      "RANDOM_NUMBER_SOURCE": "HTTP", "RANDOM_NUMBER_BASE_URL": "http://127.0.0.1:7000",
      "RANDOM_NUMBER_TIMEOUT_SECONDS": "1",
    ])
    #expect(configuration.source == .http)
    #expect(configuration.baseURL.absoluteString == "http://127.0.0.1:7000")
    #expect(configuration.timeout == .seconds(1))
  }

  @Test func unknownSourceIsAConfigurationError() {
    let error = #expect(throws: ConfigurationError.self) {
      try RandomNumberClient.Configuration(environment: ["RANDOM_NUMBER_SOURCE": "dice"])
    }
    #expect(
      error?.description
        == #"RANDOM_NUMBER_SOURCE="dice" is not valid: expected one of system, http"#
    )
  }
}
