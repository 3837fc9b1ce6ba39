import AppWeb
import ComposableArchitecture
import FavoriteClient
import Foundation
import Hummingbird
import HummingbirdTesting
import SettingsClient
import Synchronization
import Testing
import WebFrontend
import WebHTTP
import WebSessions

/// What the server does when its storage refuses writes: nothing is acknowledged that is not
/// saved, the refused states are saved by themselves once the storage takes writes again, and
/// readiness and metrics say so meanwhile.
@MainActor
struct SaveFailureTests {
  /// An in-memory archive whose writes fail while `isFailing` is set, as a full disk or an
  /// unreachable database does.
  final class FailingSavedSessions: Sendable {
    let stored = SavedSessions.inMemory()
    let isFailing = Mutex(false)
    let attempts = Mutex(0)
    /// Reads fail (an unreachable database), or never answer (a database that hangs).
    let readsFail = Mutex(false)
    let readsHang = Mutex(false)

    struct Refused: LocalizedError {
      var errorDescription: String? { "disk I/O error: database or disk is full" }
    }

    struct Unreachable: LocalizedError {
      var errorDescription: String? { "connection refused (127.0.0.1:5432)" }
    }

    var savedSessions: SavedSessions {
      SavedSessions(
        load: { [self] id in
          if readsFail.withLock({ $0 }) { throw Unreachable() }
          if readsHang.withLock({ $0 }) { try await Task.sleep(for: .seconds(3_600)) }
          return try await stored.load(id)
        },
        claim: { [self] id, visitor, holder in
          if readsFail.withLock({ $0 }) { throw Unreachable() }
          if readsHang.withLock({ $0 }) { try await Task.sleep(for: .seconds(3_600)) }
          return try await stored.claim(id, visitor, holder)
        },
        save: { [self] entries in
          attempts.withLock { $0 += 1 }
          if isFailing.withLock({ $0 }) { throw Refused() }
          return try await stored.save(entries)
        },
        delete: stored.delete, prune: stored.prune)
    }

    func savedCount(of id: String) async throws -> Int? {
      guard let sessionID = SessionID(id), let entry = try await stored.load(sessionID) else {
        return nil
      }
      let snapshot = try JSONSerialization.jsonObject(with: entry.state) as? [String: Any]
      let counters = snapshot?["counters"] as? [[String: Any]]
      // The saved form of an observable state names each stored property with its underscore.
      return counters?.first?["_count"] as? Int
    }
  }

  /// The value of an unlabelled series in a /metrics answer.
  nonisolated func value(_ name: String, in metrics: String) -> Double? {
    metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }
      .flatMap { Double($0.dropFirst(name.count + 1)) }
  }

  func metrics(_ client: some TestClientProtocol) async throws -> String {
    String(buffer: try await client.call(.get, "/metrics").body)
  }

  /// A new session whose first state is saved, then the storage refusing writes.
  func sessionSavedThenFailing(
    _ storage: FailingSavedSessions, _ client: some TestClientProtocol
  ) async throws -> String {
    let id = try await client.createSession().id
    try await waitUntil { (try? await storage.savedCount(of: id)) == 0 }
    storage.isFailing.withLock { $0 = true }
    return id
  }

  /// An increment sent as raw JSON (a refused one has no state to decode).
  func increment(_ id: String, _ client: some TestClientProtocol) async throws -> TestResponse {
    try await client.post(#"{"type": "counter.increment", "id": "\#(firstCounter)"}"#, to: id)
  }

  func makeRegistry(_ savedSessions: SavedSessions) -> SessionRegistry {
    SessionRegistry(
      app: .app,
      configuration: .init(
        saveTimeout: .seconds(30), storageProbeInterval: .zero,
        storageProbeTimeout: .milliseconds(200)),
      logger: quietLogger, savedSessions: savedSessions,
      dependencies: {
        $0.uuid = .incrementing
        $0.continuousClock = TestClock()
        $0.favoriteClient = .inMemory()
        $0.settingsClient = .inMemory()
      })
  }

  @Test func aRefusedWriteIsNotAcknowledgedAndIsSavedOnceTheStorageTakesWrites() async throws {
    let storage = FailingSavedSessions()
    try await makeApplication(makeRegistry(storage.savedSessions)).test(.router) { client in
      let id = try await sessionSavedThenFailing(storage, client)

      // The change happens in the session, but the answer does not claim it is kept.
      let refused = try await increment(id, client)
      #expect(refused.status == .serviceUnavailable)
      #expect(refused.headers[.retryAfter] == "5")
      let error = try decodeBody(refused, as: APIError.Body.self)
      #expect(
        error.error.hasPrefix(
          "not saved: the storage refused the write (disk I/O error: database or disk is full)"))
      #expect(try await client.state(of: id).state.counters.first?.count == 1)
      #expect(try await storage.savedCount(of: id) == 0)

      // Readiness tells a balancer; metrics count the failures and the unsaved state's age.
      let ready = try await client.call(.get, "/readyz")
      #expect(ready.status == .serviceUnavailable)
      #expect(
        try decodeBody(ready, as: APIError.Body.self).error.hasPrefix("saves are failing (for "))
      let failing = try await metrics(client)
      #expect((value("app_session_saves_failed_total", in: failing) ?? 0) >= 1)
      #expect((value("app_session_oldest_unsaved_seconds", in: failing) ?? 0) > 0)

      // The writer keeps trying; once the storage takes writes, the state is saved with no
      // request from the visitor.
      try await waitUntil { storage.attempts.withLock { $0 } >= 4 }
      storage.isFailing.withLock { $0 = false }
      try await waitUntil { (try? await storage.savedCount(of: id)) == 1 }
      try await waitUntil { (try? await client.call(.get, "/readyz").status) == .ok }
      let healthy = try await metrics(client)
      #expect(value("app_session_oldest_unsaved_seconds", in: healthy) == 0)
      #expect((value("app_session_saves_retried_total", in: healthy) ?? 0) >= 1)

      // And acknowledged again.
      let kept = try await client.send(.incrementCounter(id: firstCounter), to: id)
      #expect(kept.state.counters.first?.count == 2)
      #expect(try await storage.savedCount(of: id) == 2)
    }
  }

  @Test func theNewestStateWinsOverTheOneThatFailed() async throws {
    let storage = FailingSavedSessions()
    try await makeApplication(makeRegistry(storage.savedSessions)).test(.router) { client in
      let id = try await sessionSavedThenFailing(storage, client)
      for _ in 1...3 {
        let answer = try await increment(id, client)
        #expect(answer.status == .serviceUnavailable)
      }
      storage.isFailing.withLock { $0 = false }
      try await waitUntil { (try? await storage.savedCount(of: id)) == 3 }
    }
  }

  @Test func aSessionEndedByItsVisitorIsNotWrittenAgain() async throws {
    let storage = FailingSavedSessions()
    try await makeApplication(makeRegistry(storage.savedSessions)).test(.router) { client in
      let id = try await sessionSavedThenFailing(storage, client)
      _ = try await increment(id, client)
      #expect(try await client.call(.delete, "/api/session", session: id).status == .noContent)
      // While the storage still refuses writes, the ended session's state stops waiting.
      try await waitUntil {
        guard let text = try? await metrics(client) else { return false }
        return value("app_session_oldest_unsaved_seconds", in: text) == 0
      }
      storage.isFailing.withLock { $0 = false }
      // Another session's acknowledged write goes through the same writer after any retry.
      let other = try await client.createSession().id
      try await client.send(.incrementCounter(id: firstCounter), to: other)
      #expect(try await storage.savedCount(of: other) == 1)
      #expect(try await storage.savedCount(of: id) == nil)
    }
  }

  /// An instance with nothing to save learns of an outage from readiness alone: it probes its
  /// storage, reports a read that fails or does not answer, and recovers by itself.
  @Test func readinessFailsWhileTheStorageDoesNotAnswerEvenWithNothingToSave() async throws {
    let storage = FailingSavedSessions()
    try await makeApplication(makeRegistry(storage.savedSessions)).test(.router) { client in
      #expect(try await client.call(.get, "/readyz").status == .ok)

      storage.readsFail.withLock { $0 = true }
      let refused = try await client.call(.get, "/readyz")
      #expect(refused.status == .serviceUnavailable)
      #expect(
        try decodeBody(refused, as: APIError.Body.self).error
          == "the storage cannot be read: connection refused (127.0.0.1:5432)")

      storage.readsFail.withLock { $0 = false }
      storage.readsHang.withLock { $0 = true }
      let hanging = try await client.call(.get, "/readyz")
      #expect(hanging.status == .serviceUnavailable)
      #expect(
        try decodeBody(hanging, as: APIError.Body.self).error
          == "the storage did not answer in 0.2 s")

      storage.readsHang.withLock { $0 = false }
      #expect(try await client.call(.get, "/readyz").status == .ok)
      #expect(storage.attempts.withLock { $0 } == 0)
    }
  }

  /// The page learns on its event stream when what it was told was "not saved" is saved after
  /// all, so that it can take its message away.
  @Test func theEventStreamSaysWhenRefusedChangesAreSavedAfterAll() async throws {
    let storage = FailingSavedSessions()
    try await makeApplication(makeRegistry(storage.savedSessions)).test(.ahc(.http)) { client in
      let id = try await sessionSavedThenFailing(storage, client)
      let port = try #require(client.port)
      let stream = try RawHTTP.Connection(port: port)
      stream.send(
        "GET /api/session/events HTTP/1.1\r\nHost: localhost:\(port)\r\nCookie: session=\(id)\r\n\r\n"
      )
      // Blocking reads run on a thread of their own, never on the pool the server runs on.
      let first = try await RawHTTP.blocking { stream.read(until: "event: state") }
      #expect(first.hasPrefix("HTTP/1.1 200"))
      #expect(try await increment(id, client).status == .serviceUnavailable)
      storage.isFailing.withLock { $0 = false }
      let events = try await RawHTTP.blocking { stream.read(until: "event: saved") }
      #expect(events.contains("event: saved\ndata: {\"revision\":"), "\(events)")
      _ = try await client.call(.delete, "/api/session", session: id)
    }
  }
}
