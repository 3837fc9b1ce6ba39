import ComposableArchitecture
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebFrontend
import WebHTTP

/// The push channel: state changes caused by effects arrive as Server-Sent Events, over a live
/// server (the stream stays open while other requests are made).
@MainActor
struct EventStreamTests {
  /// The snapshots of an event stream's body, in order.
  nonisolated static func snapshots(_ body: ByteBuffer) throws -> [SessionResponse] {
    try String(buffer: body)
      .components(separatedBy: "\n\n")
      .compactMap { block -> Data? in
        let lines = block.split(separator: "\n")
        guard lines.contains("event: state"),
          let data = lines.first(where: { $0.hasPrefix("data: ") })
        else { return nil }
        return Data(data.dropFirst("data: ".count).utf8)
      }
      .map { try JSONDecoder().decode(SessionResponse.self, from: $0) }
  }

  /// A session idle for a minute gives up the views it kept to compare states (it is compacted
  /// by the sweep that expires sessions), and stays the same to its visitor: not expired, the
  /// same state, and its next change answered and pushed with the next revision.
  @Test func anIdleSessionIsCompactedAndAnswersAsBefore() async throws {
    let registry = makeRegistry(configuration: .init(idleTimeout: .seconds(600)))
    try await makeApplication(registry).test(.ahc(.http)) { client in
      let created = try await client.createSession()
      let before = try #require(registry.state(of: created.id))
      #expect(registry.expireIdleSessions(now: .now.advanced(by: .seconds(61))) == 0)
      #expect(registry.state(of: created.id) == before, "compacting changes nothing visible")

      async let stream = client.call(.get, "/api/session/events", session: created.id)
      try await waitUntil { registry.eventStreamCount(of: created.id) == 1 }
      let answer = try await client.send(.incrementCounter(id: firstCounter), to: created.id)
      #expect(answer.revision == created.revision + 1)
      #expect(answer.state.counters[0].count == 1)
      #expect(answer.state.settingsPart == before.settingsPart)
      #expect(answer.state.episodesPart == before.episodesPart)
      #expect(answer.state.searchPart == before.searchPart)
      try await client.send(.incrementCounter(id: firstCounter), to: created.id)

      #expect(registry.expireIdleSessions(now: .now.advanced(by: .seconds(601))) == 1)
      let snapshots = try Self.snapshots(try await stream.body)
      #expect(snapshots.map(\.revision) == [1, 2, 3].map { created.revision - 1 + $0 })
      #expect(snapshots.map { $0.state.counters[0].count } == [0, 1, 2])
    }
  }

  @Test func timerTicksArePushedAndStopWhenTheSessionExpires() async throws {
    let clock = TestClock()
    let registry = makeRegistry(configuration: .init(idleTimeout: .seconds(60)), clock: clock)
    try await makeApplication(registry).test(.ahc(.http)) { client in
      let id = try await client.createSession().id
      try await client.send(.toggleTimer(id: firstCounter), to: id)
      async let stream = client.call(.get, "/api/session/events", session: id)
      try await waitUntil { registry.eventStreamCount(of: id) == 1 }

      for tick in 1...3 {
        try await waitForSleeper(on: clock)
        await clock.advance(by: .seconds(1))
        try await waitUntil { registry.state(of: id)?.counters.first?.count == tick }
      }
      let expired = registry.expireIdleSessions(now: .now.advanced(by: .seconds(61)))
      #expect(expired == 1)

      // Expiry ends the stream, so the whole body can be read.
      let response = try await stream
      #expect(response.status == .ok)
      #expect(response.headers[.contentType] == "text/event-stream")
      let snapshots = try Self.snapshots(response.body)
      #expect(snapshots.map { $0.state.counters[0].count } == [0, 1, 2, 3])
      #expect(snapshots.allSatisfy { $0.state.counters[0].isTimerOn })
      #expect(snapshots.map(\.revision) == [2, 3, 4, 5])

      // The store was released with the session: its timer no longer sleeps on the clock.
      try await waitUntil { (try? await clock.checkSuspension()) != nil }
      await clock.advance(by: .seconds(5))
      try await client.call(.get, "/api/session/state", session: id) { response in
        #expect(response.status == .notFound)
      }
    }
  }

  @Test func effectResponsesArePushed() async throws {
    let registry = makeRegistry {
      $0.factClient.fetch = { "\($0) is a pushed fact." }
    }
    try await makeApplication(registry).test(.ahc(.http)) { client in
      let id = try await client.createSession().id
      async let stream = client.call(.get, "/api/session/events", session: id)
      try await waitUntil { registry.eventStreamCount(of: id) == 1 }
      try await client.send(.requestFact(id: firstCounter), to: id)
      try await waitUntil { registry.state(of: id)?.counters.first?.fact != nil }
      try await client.call(.delete, "/api/session", session: id) { response in
        #expect(response.status == .noContent)
      }
      let snapshots = try Self.snapshots(try await stream.body)
      #expect(snapshots.first?.state.counters[0].isFactRequestInFlight == false)
      #expect(snapshots.last?.state.counters[0].fact == "0 is a pushed fact.")
      #expect(snapshots.contains { $0.state.counters[0].isFactRequestInFlight })
    }
  }

  @Test func eventStreamsPerSessionAreLimited() async throws {
    let registry = makeRegistry(configuration: .init(maximumEventStreamsPerSession: 1))
    try await makeApplication(registry).test(.ahc(.http)) { client in
      let id = try await client.createSession().id
      async let stream = client.call(.get, "/api/session/events", session: id)
      try await waitUntil { registry.eventStreamCount(of: id) == 1 }
      try await client.call(.get, "/api/session/events", session: id) { response in
        #expect(response.status == .tooManyRequests)
        let error = try decodeBody(response, as: APIError.Body.self)
        #expect(error.error == "this session already has 1 event streams open")
      }
      registry.endAll()
      #expect(try await stream.status == .ok)
    }
  }

  /// The bytes of a request that opens a session's event stream, as a browser sends them.
  nonisolated static func eventStreamRequest(port: Int, session id: String) -> String {
    "GET /api/session/events HTTP/1.1\r\nHost: localhost:\(port)\r\nCookie: session=\(id)\r\n\r\n"
  }

  /// A page that reloads closes its stream; the server must notice when the connection closes,
  /// not at the next keep-alive, or the reloaded page could not follow its session meanwhile.
  @Test func aStreamWhoseClientLeftFreesItsSlotsAtOnce() async throws {
    let registry = makeRegistry(configuration: .init(maximumEventStreamsPerSession: 1))
    try await makeApplication(registry).test(.ahc(.http)) { client in
      let id = try await client.createSession().id
      let port = try #require(client.port)
      let request = Self.eventStreamRequest(port: port, session: id)
      for _ in 1...3 {
        var stream: RawHTTP.Connection? = try RawHTTP.Connection(port: port)
        stream?.send(request)
        try await waitUntil { registry.eventStreamCount(of: id) == 1 }
        stream = nil  // the client closes its connection
        try await waitUntil { registry.eventStreamCount(of: id) == 0 }
        try await waitUntil {
          let text = try? String(buffer: await client.call(.get, "/metrics").body)
          return text?.contains("app_event_streams_open 0.0\n") == true
        }
        withExtendedLifetime(stream) {}
      }
      // The session's one slot is free: a new stream is served, not refused.
      let last = try RawHTTP.Connection(port: port)
      last.send(request)
      try await waitUntil { registry.eventStreamCount(of: id) == 1 }
      // A blocking read runs on a thread of its own, never on the pool the server runs on.
      #expect(try await RawHTTP.blocking { last.readHead() }.hasPrefix("HTTP/1.1 200 OK"))
      registry.endAll()
    }
  }

  /// A browser that leaves, or a balancer passing that on, closes its side with a FIN after
  /// reading what it was sent — no reset, and the socket may stay half open. The server must
  /// still notice at once (not at a later write), and free the stream's slots.
  @Test func aStreamWhoseClientClosedItsSideFreesItsSlotsAtOnce() async throws {
    let registry = makeRegistry(configuration: .init(maximumEventStreamsPerSession: 1))
    try await makeApplication(registry).test(.ahc(.http)) { client in
      let id = try await client.createSession().id
      let port = try #require(client.port)
      let request = Self.eventStreamRequest(port: port, session: id)
      var left: [RawHTTP.Connection] = []
      for _ in 1...3 {
        let stream = try RawHTTP.Connection(port: port)
        stream.send(request)
        #expect(try await RawHTTP.blocking { stream.readHead() }.hasPrefix("HTTP/1.1 200 OK"))
        stream.finishSending()
        try await waitUntil { registry.eventStreamCount(of: id) == 0 }
        left.append(stream)
      }
      // The session's one slot is free for the next page.
      let last = try RawHTTP.Connection(port: port)
      last.send(request)
      #expect(try await RawHTTP.blocking { last.readHead() }.hasPrefix("HTTP/1.1 200 OK"))
      registry.endAll()
      withExtendedLifetime(left) {}
    }
  }

  @Test func idleSessionsExpireAndActiveOnesStay() async throws {
    let registry = makeRegistry(configuration: .init(idleTimeout: .seconds(60)))
    try await makeApplication(registry).test(.router) { client in
      // Each deadline is measured from an instant known to lie on the right side of the
      // session's last activity, so a slow request on a loaded machine changes nothing.
      let beforeCreating = ContinuousClock.now
      let id = try await client.createSession().id
      #expect(registry.expireIdleSessions(now: beforeCreating.advanced(by: .seconds(30))) == 0)
      let beforeSending = ContinuousClock.now
      try await client.send(.incrementCounter(id: firstCounter), to: id)
      let afterSending = ContinuousClock.now
      #expect(registry.expireIdleSessions(now: beforeSending.advanced(by: .seconds(59))) == 0)
      #expect(registry.expireIdleSessions(now: afterSending.advanced(by: .seconds(61))) == 1)
      let response = try await client.post(#"{"type": "counter.add"}"#, to: id)
      #expect(response.status == .notFound)
      let error = try decodeBody(response, as: APIError.Body.self)
      #expect(error.error.hasPrefix("unknown or expired session"))
    }
  }

  @Test func shuttingDownEndsEverySessionAndRefusesNewOnes() async throws {
    let clock = TestClock()
    let registry = makeRegistry(clock: clock)
    try await makeApplication(registry).test(.router) { client in
      let id = try await client.createSession().id
      try await client.send(.toggleTimer(id: firstCounter), to: id)
      registry.endAll()
      #expect(await registry.count == 0)
      try await waitUntil { (try? await clock.checkSuspension()) != nil }
      try await client.call(.post, "/api/session") { response in
        #expect(response.status == .serviceUnavailable)
      }
    }
  }
}
