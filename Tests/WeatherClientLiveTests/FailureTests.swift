import FixtureServer
import Foundation
import Testing
import WeatherClient
import WeatherClientLive

@testable import LiveHTTP

struct FailureTests {
  @Test func unreachableHostIsReported() async throws {
    let closed = try await FixtureServer.closedPortURL()
    let error = await #expect(throws: HTTPServiceError.self) {
      try await liveClient(baseURL: closed).search(query: "London")
    }
    guard case .unreachable(let host, _) = error?.cause else {
      Issue.record("expected unreachable, got \(String(describing: error))")
      return
    }
    #expect(host == "127.0.0.1:\(closed.port ?? 0)")
    #expect(error?.description.hasPrefix("Open-Meteo geocoding: cannot reach 127.0.0.1:") == true)
  }

  @Test func slowUpstreamTimesOut() async throws {
    let slow = try fixture("geocoding-london").delayed(by: .seconds(60))
    try await withFixtureServer(routes: ["/v1/search": slow]) { server in
      let error = await #expect(throws: HTTPServiceError.self) {
        try await liveClient(server, timeout: .milliseconds(300)).search(query: "London")
      }
      #expect(error?.cause == .timedOut(after: .milliseconds(300)))
      #expect(error?.description == "Open-Meteo geocoding: timed out after 0.3 s")
    }
  }

  @Test func cancellingTheCallerCancelsTheRequest() async throws {
    let slow = try fixture("forecast-equator-7d").delayed(by: .seconds(60))
    try await withFixtureServer(routes: ["/v1/forecast": slow]) { server in
      let client = liveClient(server, timeout: .seconds(120))
      let call = Task { try await client.forecast(location: berlin) }
      try await server.waitForRequests(count: 1)
      call.cancel()
      await #expect(throws: CancellationError.self) { try await call.value }
    }
  }

  /// Cancellation that lands while the response is being delivered: the cancel must not wait
  /// for the session's queue from inside the task's cancellation handler (a deadlock on Linux).
  /// Every call ends, with the forecast or with `CancellationError`.
  @Test(.timeLimit(.minutes(1)))
  func cancellingRequestsAsTheyCompleteLetsEveryCallEnd() async throws {
    try await withFixtureServer(routes: ["/v1/forecast": try fixture("forecast-equator-7d")]) {
      server in
      let client = liveClient(server, timeout: .seconds(30))
      var outcomes = (answered: 0, cancelled: 0)
      for round in 0..<200 {
        let call = Task { try await client.forecast(location: berlin) }
        // Spread the cancels over the life of a request: before it is sent, while it is on its
        // way and while its answer is being delivered.
        try await Task.sleep(for: .microseconds(round % 40 * 50))
        call.cancel()
        do {
          _ = try await call.value
          outcomes.answered += 1
        } catch is CancellationError {
          outcomes.cancelled += 1
        }
      }
      #expect(outcomes.answered + outcomes.cancelled == 200)
      #expect(outcomes.cancelled > 0)
    }
  }

  @Test func alreadyCancelledCallerSendsNothing() async throws {
    try await withFixtureServer(routes: ["/v1/search": try fixture("geocoding-london")]) { server in
      let client = liveClient(server)
      let call = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        return try await client.search(query: "London")
      }
      await #expect(throws: CancellationError.self) { try await call.value }
      #expect(server.requests.isEmpty)
    }
  }

  @Test(arguments: [
    (Duration.milliseconds(300), 2.0), (.milliseconds(900), 2.0), (.seconds(1), 2.0),
    (.milliseconds(1_500), 3.0), (.seconds(10), 11.0),
  ])
  func urlSessionsOwnTimeoutNeverFiresBeforeOurs(timeout: Duration, backstop: TimeInterval) {
    // URLSession on Linux truncates timeouts to whole seconds, and 0 fires at once: a 0.9 s
    // timeout handed over as is would fail every request. The client times requests out with its
    // own timer and gives URLSession a whole-second backstop that is always later.
    #expect(timeout.urlSessionBackstop == backstop)
    #expect(timeout.urlSessionBackstop > timeout.timeInterval)
  }
}
