import AppWeb
import ComposableArchitecture
import FavoriteClient
import Foundation
import Hummingbird
import HummingbirdTesting
import SettingsClient
import Testing

@testable import WebFrontend
@testable import WebHTTP
@testable import WebSessions

/// Sessions saved to a `SavedSessions` and resumed by another registry (a restarted server, or
/// another instance sharing the archive), for their visitor only.
@MainActor
struct SavedSessionsTests {
  /// A registry saving to `archive`, on `clock`, with new counter ids from `seed`.
  nonisolated func makeSavingRegistry(
    _ savedSessions: SavedSessions, clock: TestClock<Duration> = TestClock(), seed: Int = 0,
    saveTimeout: Duration = .seconds(30)
  ) -> SessionRegistry {
    let uuid = countingUUIDs(from: seed)
    return SessionRegistry(
      app: .app, configuration: .init(saveTimeout: saveTimeout),
      logger: quietLogger,
      savedSessions: savedSessions,
      dependencies: {
        $0.uuid = uuid
        $0.continuousClock = clock
        $0.favoriteClient = .inMemory()
        $0.settingsClient = .inMemory()
      })
  }

  /// A session of a new visitor: its id and the visitor's cookie value.
  nonisolated func createSession(
    _ client: some TestClientProtocol
  ) async throws -> (id: String, visitor: String) {
    let response = try await client.call(.post, "/api/session")
    #expect(response.status == .created)
    let cookies = response.headers[values: .setCookie]
    func value(_ name: String) throws -> String {
      let cookie = try #require(cookies.first { $0.hasPrefix(name + "=") })
      return String(cookie.dropFirst(name.count + 1).prefix { $0 != ";" })
    }
    return (try value("session"), try value("visitor"))
  }

  nonisolated func cookies(_ session: (id: String, visitor: String)) -> HTTPFields {
    [.cookie: "session=\(session.id); visitor=\(session.visitor)"]
  }

  /// Sends an action with both cookies; the response.
  nonisolated func send(
    _ action: UserAction, _ session: (id: String, visitor: String),
    _ client: some TestClientProtocol
  ) async throws -> TestResponse {
    var headers = cookies(session)
    headers[.contentType] = "application/json"
    return try await client.call(
      .post, "/api/session/actions", headers: headers,
      body: ByteBuffer(bytes: try JSONEncoder().encode(action)))
  }

  nonisolated func state(
    _ session: (id: String, visitor: String), _ client: some TestClientProtocol
  ) async throws -> TestResponse {
    try await client.call(.get, "/api/session/state", headers: cookies(session))
  }

  @Test func anAcknowledgedActionIsSavedAndAnotherServerResumesTheSession() async throws {
    let savedSessions = SavedSessions.inMemory()
    let first = makeSavingRegistry(savedSessions)
    let (session, lastSeen) = try await makeApplication(first).test(.router) { client in
      let session = try await createSession(client)
      for action: UserAction in [
        .incrementCounter(id: firstCounter), .incrementCounter(id: firstCounter), .addCounter,
        .selectTab(.settings),
      ] {
        #expect(try await send(action, session, client).status == .ok)
      }
      // Acknowledged, hence saved: the archive has the revision the visitor last saw.
      let lastSeen: SessionResponse = try decodeBody(try await state(session, client))
      let id = try #require(SessionID(session.id))
      let saved = try #require(try await savedSessions.load(id))
      #expect(saved.revision == lastSeen.revision)
      return (session, lastSeen)
    }
    // The first server is gone without a word (nothing more saved); another one shares the archive.
    let second = makeSavingRegistry(savedSessions, seed: 100)
    try await makeApplication(second).test(.router) { client in
      let response = try await state(session, client)
      #expect(response.status == .ok)
      let resumed: SessionResponse = try decodeBody(response)
      #expect(resumed.state.counters.map(\.count) == [2, 0])
      #expect(resumed.state.counters.map(\.id) == lastSeen.state.counters.map(\.id))
      #expect(resumed.state.selectedTab == "settings")
      #expect(resumed.revision > lastSeen.revision)
      #expect(resumed.generation != lastSeen.generation)
      // It goes on where it was.
      let after: SessionResponse = try decodeBody(
        try await send(.incrementCounter(id: firstCounter), session, client))
      #expect(after.state.counters.first?.count == 3)
    }
  }

  @Test func anotherVisitorCannotResumeASession() async throws {
    let savedSessions = SavedSessions.inMemory()
    let session = try await makeApplication(makeSavingRegistry(savedSessions)).test(.router) {
      client in
      let session = try await createSession(client)
      _ = try await send(.incrementCounter(id: firstCounter), session, client)
      return session
    }
    try await makeApplication(makeSavingRegistry(savedSessions)).test(.router) { client in
      let stranger = (id: session.id, visitor: VisitorID().rawValue)
      #expect(try await state(stranger, client).status == .notFound)
      #expect(try await send(.addCounter, stranger, client).status == .notFound)
      let noVisitor = try await client.call(.get, "/api/session/state", session: session.id)
      #expect(noVisitor.status == .notFound)
      // The owner still can, afterwards.
      #expect(try await state(session, client).status == .ok)
    }
  }

  @Test func aRunningTimerRunsAgainAfterTheResume() async throws {
    let savedSessions = SavedSessions.inMemory()
    let session = try await makeApplication(makeSavingRegistry(savedSessions)).test(.router) {
      client in
      let session = try await createSession(client)
      _ = try await send(.toggleTimer(id: firstCounter), session, client)
      return session
    }
    let clock = TestClock()
    try await makeApplication(makeSavingRegistry(savedSessions, clock: clock)).test(.router) {
      client in
      let resumed: SessionResponse = try decodeBody(try await state(session, client))
      #expect(resumed.state.counters.first?.isTimerOn == true)
      for tick in 1...3 {
        try await waitForSleeper(on: clock)
        await clock.advance(by: .seconds(1))
        try await waitUntil {
          guard let response = try? await state(session, client),
            let view = try? JSONDecoder().decode(
              SessionResponse.self, from: Data(response.body.readableBytesView))
          else { return false }
          return view.state.counters.first?.count == tick
        }
      }
    }
  }

  @Test func aSessionTheVisitorEndedIsNotResumed() async throws {
    let savedSessions = SavedSessions.inMemory()
    let registry = makeSavingRegistry(savedSessions)
    let session = try await makeApplication(registry).test(.router) { client in
      let session = try await createSession(client)
      _ = try await send(.addCounter, session, client)
      let ended = try await client.call(.delete, "/api/session", headers: cookies(session))
      #expect(ended.status == .noContent)
      return session
    }
    let id = try #require(SessionID(session.id))
    try await waitUntil { (try? await savedSessions.load(id)) == nil }
    try await makeApplication(makeSavingRegistry(savedSessions)).test(.router) { client in
      let response = try await state(session, client)
      #expect(response.status == .notFound)
    }
  }

  @Test func aStorageThatFailsLeavesTheServerServingWithoutClaimingSaves() async throws {
    let saves = LockIsolated(0)
    let broken = SavedSessions(
      load: { _ in throw SaveRefused() },
      claim: { _, _, _ in throw SaveRefused() },
      save: { _ in
        saves.withValue { $0 += 1 }
        throw SaveRefused()
      },
      delete: { _, _ in throw SaveRefused() },
      prune: { _ in throw SaveRefused() })
    let registry = makeSavingRegistry(broken)
    try await makeApplication(registry).test(.router) { client in
      let session = try await createSession(client)
      let response = try await send(.incrementCounter(id: firstCounter), session, client)
      // The action is answered, as not saved: a 2xx would claim it is kept. The state stays in
      // memory, and the server goes on serving.
      #expect(response.status == .serviceUnavailable)
      #expect(try decodeBody(response, as: APIError.Body.self).error.hasPrefix("not saved: "))
      #expect(registry.contains(session.id))
      // A read cannot confirm that this copy still holds the session (another instance could
      // have taken it over meanwhile): 503 as well, rather than a state that may be stale.
      let read = try await state(session, client)
      #expect(read.status == .serviceUnavailable)
      #expect(read.headers[.retryAfter] == "5")
      #expect(saves.value >= 1)
      // An unknown session cannot be looked up: 503, so that the page tries again.
      let unknown = (id: SessionID().rawValue, visitor: session.visitor)
      let refused = try await state(unknown, client)
      #expect(refused.status == .serviceUnavailable)
      #expect(refused.headers[.retryAfter] == "5")
      // Requests that arrive together share one resume and all learn its outcome.
      async let first = state(unknown, client)
      async let second = state(unknown, client)
      #expect(
        try await [first.status, second.status] == [.serviceUnavailable, .serviceUnavailable])
      #expect(await registry.pruneSavedSessions() == 0)
    }
  }

  @Test func aStorageThatHangsHoldsAnAnswerOnlyUntilTheTimeoutAndSaysNotSaved() async throws {
    let hanging = SavedSessions(
      load: { _ in nil },
      claim: { _, _, _ in nil },
      save: { _ in
        try await Task.sleep(for: .seconds(3_600))
        return []
      },
      delete: { _, _ in },
      prune: { _ in 0 })
    let registry = makeSavingRegistry(hanging, saveTimeout: .milliseconds(50))
    try await makeApplication(registry).test(.router) { client in
      let session = try await createSession(client)
      for count in 1...3 {
        // Answered when the timeout is up, as not (yet) saved; the state is in memory.
        let response = try await send(.incrementCounter(id: firstCounter), session, client)
        #expect(response.status == .serviceUnavailable)
        #expect(
          try decodeBody(response, as: APIError.Body.self).error.hasPrefix(
            "not saved: the storage did not confirm the write in time"))
        let after: SessionResponse = try decodeBody(try await state(session, client))
        #expect(after.state.counters.first?.count == count)
      }
    }
  }

  /// An instance that must resume a session while its storage does not answer says so within
  /// the archive timeout (503, try again) instead of holding the request as long as the storage
  /// takes.
  @Test func aResumeWhileTheStorageHangsIsAnsweredPromptlyWith503() async throws {
    let stored = SavedSessions.inMemory()
    let hangs = LockIsolated(false)
    let savedSessions = SavedSessions(
      load: stored.load,
      claim: { id, visitor, holder in
        if hangs.value { try await Task.sleep(for: .seconds(3_600)) }
        return try await stored.claim(id, visitor, holder)
      },
      save: stored.save, delete: stored.delete, prune: stored.prune)
    let session = try await makeApplication(makeSavingRegistry(savedSessions)).test(.router) {
      client in
      let session = try await createSession(client)
      #expect(try await send(.incrementCounter(id: firstCounter), session, client).status == .ok)
      return session
    }
    hangs.setValue(true)
    // Another instance, which does not have the session: its resume waits at most 50 ms.
    let other = makeSavingRegistry(savedSessions, seed: 100, saveTimeout: .milliseconds(50))
    try await makeApplication(other).test(.router) { client in
      let response = try await state(session, client)
      #expect(response.status == .serviceUnavailable)
      #expect(
        try decodeBody(response, as: APIError.Body.self).error
          == "saved sessions cannot be read right now; try again")
      #expect(response.headers[.retryAfter] == "5")
      hangs.setValue(false)
      let resumed: SessionResponse = try decodeBody(try await state(session, client))
      #expect(resumed.state.counters.first?.count == 1)
    }
  }

  /// A saved state this version cannot read is not resumed, and not destroyed either: it is
  /// set aside (the storages move it to `session_quarantine`) and counted.
  @Test func anUnreadableSavedStateIsSetAsideNotResumed() async throws {
    let stored = SavedSessions.inMemory()
    let quarantined = LockIsolated<[(SessionID, String)]>([])
    let savedSessions = SavedSessions(
      load: stored.load, claim: stored.claim, save: stored.save, delete: stored.delete,
      prune: stored.prune,
      quarantine: { id, reason in
        quarantined.withValue { $0.append((id, reason)) }
        try await stored.delete(id)
      })
    let id = SessionID()
    let visitor = VisitorID()
    try await savedSessions.save(
      id, .init(visitor: visitor, revision: 7, state: Data("{\"counters\": 12}".utf8)))
    let registry = makeSavingRegistry(savedSessions)
    try await makeApplication(registry).test(.router) { client in
      let response = try await state((id.rawValue, visitor.rawValue), client)
      #expect(response.status == .notFound)
      let metrics = String(buffer: try await client.call(.get, "/metrics").body)
      #expect(metrics.contains("app_sessions_quarantined_total 1\n"))
    }
    #expect(quarantined.value.map(\.0) == [id])
    #expect(quarantined.value.first?.1.isEmpty == false)
    #expect(try await savedSessions.load(id) == nil)
  }

  /// Without a place to set it aside, an unreadable state is deleted.
  @Test func aStorageWithoutQuarantineDeletesAnUnreadableState() async throws {
    let savedSessions = SavedSessions.inMemory()
    let id = SessionID()
    let visitor = VisitorID()
    try await savedSessions.save(id, .init(visitor: visitor, revision: 7, state: Data("[]".utf8)))
    try await savedSessions.quarantine(id, "unreadable")
    #expect(try await savedSessions.load(id) == nil)
  }

  /// A saved session outlives the idle timeout (its visitor comes back to their counters) and
  /// is forgotten only after the saved-session lifetime without a save — the session cookie's
  /// lifetime.
  @Test func savedSessionsAreKeptForTheirLifetimeThenPruned() async throws {
    let savedSessions = SavedSessions.inMemory()
    try await savedSessions.save(
      SessionID(), .init(visitor: VisitorID(), revision: 1, state: Data()))
    let registry = makeSavingRegistry(savedSessions)
    #expect(await registry.pruneSavedSessions(now: Date()) == 0)
    #expect(await registry.pruneSavedSessions(now: Date(timeIntervalSinceNow: 31 * 60)) == 0)
    #expect(await registry.pruneSavedSessions(now: Date(timeIntervalSinceNow: 399 * 86_400)) == 0)
    #expect(await registry.pruneSavedSessions(now: Date(timeIntervalSinceNow: 401 * 86_400)) == 1)
  }

  /// The session cookie lives as long as the saved session may, so a browser that restarts (and
  /// drops cookies without an expiry) comes back to the same counters.
  @Test func theSessionCookieOutlivesTheBrowserSession() async throws {
    try await makeApplication(makeSavingRegistry(.inMemory())).test(.router) { client in
      let response = try await client.call(.post, "/api/session")
      let cookie = try #require(
        response.headers[values: .setCookie].first { $0.hasPrefix("session=") })
      #expect(cookie.contains("Max-Age=34560000"))
    }
  }

  /// Expiry ends the session in memory (its effects stop) but keeps what it saved: the
  /// visitor's next request — the tab left open, or a visit days later — resumes its counters.
  @Test func aSessionTheSweeperExpiredResumesWithItsCounters() async throws {
    let savedSessions = SavedSessions.inMemory()
    let registry = makeSavingRegistry(savedSessions)
    try await makeApplication(registry).test(.router) { client in
      let session = try await createSession(client)
      for action: UserAction in [
        .incrementCounter(id: firstCounter), .incrementCounter(id: firstCounter), .addCounter,
      ] {
        #expect(try await send(action, session, client).status == .ok)
      }
      #expect(registry.expireIdleSessions(now: .now.advanced(by: .seconds(31 * 60))) == 1)
      #expect(!registry.contains(session.id))
      let resumed: SessionResponse = try decodeBody(try await state(session, client))
      #expect(resumed.state.counters.map(\.count) == [2, 0])
      let after: SessionResponse = try decodeBody(
        try await send(.incrementCounter(id: firstCounter), session, client))
      #expect(after.state.counters.map(\.count) == [3, 0])
    }
  }

  /// A request that finds its session past the idle timeout before the sweeper ran resumes it
  /// from what it saved, rather than losing it.
  @Test nonisolated func aRequestPastTheIdleTimeoutResumesTheSession() async throws {
    let savedSessions = SavedSessions.inMemory()
    let registry = makeSavingRegistry(savedSessions)
    let session = try await makeApplication(registry).test(.router) { client in
      let session = try await createSession(client)
      #expect(try await send(.incrementCounter(id: firstCounter), session, client).status == .ok)
      return session
    }
    // The next request comes after the idle timeout; the sweeper has not run.
    let later = ContinuousClock.now.advanced(by: .seconds(31 * 60))
    let id = try #require(SessionID(session.id))
    let generation = try #require(registry.holder(of: id))
    try await registry.resume(session.id, visitor: VisitorID(session.visitor), now: later)
    let snapshot = try registry.snapshot(of: session.id, now: later)
    #expect(snapshot.generation != generation)
    let view = try JSONDecoder().decode(StateView.self, from: snapshot.state)
    #expect(view.counters.first?.count == 1)
  }
}

struct SaveRefused: Error {}
