import ComposableArchitecture
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebFrontend

/// Sessions whose visitor is away are put to sleep: only their state is kept, and the store is
/// built again from it at the next action. Nothing the visitor sees changes, and nothing in
/// flight is ever put to sleep.
@MainActor
struct SleepTests {
  /// Later than ``SessionRegistry/Configuration/minimumIdleBeforeEviction`` (60 s by default).
  static let away = Duration.seconds(61)

  @Test func anIdleSessionSleepsAndWakesWithEverythingAsItWas() async throws {
    let registry = makeRegistry(configuration: .init(idleTimeout: .seconds(600)))
    try await makeApplication(registry).test(.ahc(.http)) { client in
      let created = try await client.createSession()
      try await client.send(.incrementCounter(id: firstCounter), to: created.id)
      try await client.send(.changeSetting(.displayName("Ada")), to: created.id)
      try await client.send(.toggleFavorite(episodeID: firstEpisode), to: created.id)
      // What the visitor sees once the favorite's save is done (while it is in flight the page
      // shows it saving; a session is never put to sleep with it in flight).
      try await waitUntil {
        let shown = try? await client.state(of: created.id)
        return shown?.state.episodesPart.episodes.allSatisfy { !$0.isSaving } ?? false
      }
      let before = try await client.state(of: created.id)

      // Once the settings' save (an effect) is done.
      try await waitUntil {
        await registry.sleepIdleSessions(now: .now.advanced(by: Self.away)) == 1
      }
      #expect(registry.asleepCount == 1)
      // Its state is kept as its changes from the app's baseline, not as the value.
      #expect(registry.asleepWithWholeStateCount == 0)
      // Reading the state and the metrics does not need the store.
      #expect(try await client.state(of: created.id) == before)
      let metrics = String(buffer: try await client.call(.get, "/metrics").body)
      #expect(metrics.contains("app_sessions_asleep 1"))
      #expect(metrics.contains("app_sessions_asleep_whole 0"))
      #expect(registry.asleepCount == 1)
      // Nor does opening an event stream: it starts with the state kept asleep.
      async let stream = client.call(.get, "/api/session/events", session: created.id)
      try await waitUntil { registry.eventStreamCount(of: created.id) == 1 }
      #expect(registry.asleepCount == 1)

      // The next action wakes it: the same state, the next revision, the same ids.
      let answer = try await client.send(.incrementCounter(id: firstCounter), to: created.id)
      #expect(registry.asleepCount == 0)
      #expect(answer.revision == before.revision + 1)
      #expect(answer.generation == before.generation)
      #expect(answer.state.counters.map(\.count) == [2])
      #expect(answer.state.settingsPart == before.state.settingsPart)
      #expect(answer.state.episodesPart == before.state.episodesPart)
      #expect(answer.state.searchPart == before.state.searchPart)
      // The woken store continues the session's dependencies: the next counter's id is the
      // one after the ids already given, not the first again.
      let added = try await client.send(.addCounter, to: created.id)
      let ids = added.state.counters.map(\.id)
      #expect(ids.count == 2 && Set(ids).count == 2, "\(ids)")

      try await client.call(.delete, "/api/session", session: created.id) { _ in }
      let pushed = try EventStreamTests.snapshots(try await stream.body)
      #expect(pushed.map(\.revision) == [0, 1, 2].map { before.revision + $0 })
      #expect(pushed.first?.state == before.state)
    }
  }

  /// A running timer, an open event stream and an open episode screen (its presentation waits
  /// for the screen to dismiss itself) each keep a session awake.
  @Test func aSessionWithAnEffectInFlightOrAStreamOpenStaysAwake() async throws {
    let clock = TestClock()
    let registry = makeRegistry(configuration: .init(idleTimeout: .seconds(600)), clock: clock)
    try await makeApplication(registry).test(.ahc(.http)) { client in
      let ticking = try await client.createSession().id
      try await client.send(.toggleTimer(id: firstCounter), to: ticking)
      let watched = try await client.createSession().id
      async let stream = client.call(.get, "/api/session/events", session: watched)
      try await waitUntil { registry.eventStreamCount(of: watched) == 1 }
      let screen = try await client.createSession().id
      try await client.send(.openEpisode(id: firstEpisode), to: screen)

      #expect(await registry.sleepIdleSessions(now: .now.advanced(by: Self.away)) == 0)
      // The timer still ticks: its store was not released.
      try await waitForSleeper(on: clock)
      await clock.advance(by: .seconds(1))
      try await waitUntil { registry.state(of: ticking)?.counters.first?.count == 1 }

      // Without them both sleep.
      try await client.send(.toggleTimer(id: firstCounter), to: ticking)
      try await client.call(.delete, "/api/session", session: watched) { _ in }
      // The stream ends with its session, whole (the server then closes its connection, as its
      // `Connection: close` said).
      #expect(try await stream.status == .ok)
      try await client.send(.closeScreen, to: screen)
      try await waitUntil { registry.state(of: screen)?.episodeScreens.isEmpty == true }
      // Once the cancelled timer and the closed screen have wound down.
      var asleep = 0
      try await waitUntil {
        asleep += await registry.sleepIdleSessions(now: .now.advanced(by: Self.away))
        return asleep == 2
      }
      #expect(registry.asleepCount == 2)
      #expect(registry.state(of: ticking)?.counters.first?.isTimerOn == false)
    }
  }

  /// Many actions reach a sleeping session at once: one store is built, and every action is
  /// applied to it once, each with its own revision.
  @Test func actionsArrivingTogetherWakeOneStore() async throws {
    let registry = makeRegistry(configuration: .init(idleTimeout: .seconds(600)))
    try await makeApplication(registry).test(.ahc(.http)) { client in
      let created = try await client.createSession()
      #expect(await registry.sleepIdleSessions(now: .now.advanced(by: Self.away)) == 1)
      let revisions = try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<20 {
          group.addTask {
            try await client.send(.incrementCounter(id: firstCounter), to: created.id).revision
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(Set(revisions) == Set((1...20).map { created.revision + $0 }))
      #expect(try await client.state(of: created.id).state.counters.map(\.count) == [20])
    }
  }

  /// Putting a session to sleep while its visitor's actions arrive loses none of them: an
  /// action either reaches the store before the state is taken, or stops the session from
  /// sleeping, or wakes a new store.
  @Test func noActionIsLostToASleepThatRacesIt() async throws {
    let registry = makeRegistry(configuration: .init(idleTimeout: .seconds(600)))
    try await makeApplication(registry).test(.ahc(.http)) { client in
      let id = try await client.createSession().id
      var sent = 0
      for _ in 0..<30 {
        async let slept = registry.sleepIdleSessions(now: .now.advanced(by: Self.away))
        for _ in 0..<3 {
          try await client.send(.incrementCounter(id: firstCounter), to: id)
          sent += 1
        }
        _ = await slept
      }
      let count = try await client.state(of: id).state.counters.map(\.count)
      #expect(count == [sent])
    }
  }

  @Test func aSleepingSessionEndsAndExpiresLikeAnyOther() async throws {
    let registry = makeRegistry(configuration: .init(idleTimeout: .seconds(600)))
    try await makeApplication(registry).test(.ahc(.http)) { client in
      let ended = try await client.createSession().id
      let expiring = try await client.createSession().id
      #expect(await registry.sleepIdleSessions(now: .now.advanced(by: Self.away)) == 2)

      let deleted = try await client.call(.delete, "/api/session", session: ended)
      #expect(deleted.status == .noContent)
      let afterEnd = try await client.post(
        String(decoding: try JSONEncoder().encode(UserAction.addCounter), as: UTF8.self),
        to: ended)
      #expect(afterEnd.status == .notFound)

      #expect(registry.expireIdleSessions(now: .now.advanced(by: .seconds(601))) == 1)
      #expect(!registry.contains(expiring))
      #expect(registry.asleepCount == 0)
    }
  }
}
