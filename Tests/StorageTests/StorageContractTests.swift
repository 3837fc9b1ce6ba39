import Foundation
import LiveStorage
import Testing

/// What every `Storage` promises, checked on SQLite and on PostgreSQL alike.
struct StorageContractTests {
  @Test(arguments: Backend.available)
  func favoritesAreKeptPerOwnerAndSurviveReopening(_ backend: Backend) async throws {
    try await backend.withStorage { open in
      let (functions, parsers) = (UUID(), UUID())
      let storage = try await open()
      try await storage.setFavorite(true, episode: functions, owner: "ada")
      try await storage.setFavorite(true, episode: parsers, owner: "ada")
      try await storage.setFavorite(true, episode: parsers, owner: "ada")  // already one
      try await storage.setFavorite(false, episode: functions, owner: "ada")
      try await storage.setFavorite(true, episode: functions, owner: "grace")
      try await storage.setFavorite(false, episode: UUID(), owner: "grace")  // never one
      let reopened = try await open()
      #expect(try await reopened.favorites(owner: "ada") == [parsers])
      #expect(try await reopened.favorites(owner: "grace") == [functions])
      #expect(try await reopened.favorites(owner: "nobody") == [])
    }
  }

  @Test(arguments: Backend.available)
  func settingsAreReplacedAsAWhole(_ backend: Backend) async throws {
    try await backend.withStorage { open in
      let storage = try await open()
      #expect(try await storage.settings(owner: "ada") == [:])
      try await storage.replaceSettings(["displayName": "Ada", "digest": "weekly"], owner: "ada")
      try await storage.replaceSettings(["displayName": "Grace 🧮 'quoted'"], owner: "grace")
      try await storage.replaceSettings(["displayName": "Ada L."], owner: "ada")
      #expect(try await storage.settings(owner: "ada") == ["displayName": "Ada L."])
      #expect(
        try await open().settings(owner: "grace") == ["displayName": "Grace 🧮 'quoted'"])
    }
  }

  @Test(arguments: Backend.available)
  func theSchemaIsMigratedOnce(_ backend: Backend) async throws {
    try await backend.withStorage { open in
      let first = try await open()
      #expect(
        try await backend.appliedMigrations(first) == Self.migrations)
      try await first.setFavorite(true, episode: UUID(), owner: "ada")
      let second = try await open()
      #expect(
        try await backend.appliedMigrations(second) == Self.migrations)
      #expect(try await second.favorites(owner: "ada").count == 1)
    }
  }

  @Test(arguments: Backend.available)
  func aCancelledWriteStoresNothing(_ backend: Backend) async throws {
    try await backend.withStorage { open in
      let storage = try await open()
      let episode = UUID()
      let write = Task {
        withUnsafeCurrentTask { $0?.cancel() }
        try await storage.setFavorite(true, episode: episode, owner: "ada")
      }
      await #expect(throws: CancellationError.self) { try await write.value }
      #expect(try await storage.favorites(owner: "ada") == [])
    }
  }

  @Test(arguments: Backend.available)
  func concurrentWritesAreAllKept(_ backend: Backend) async throws {
    try await backend.withStorage { open in
      let storage = try await open()
      let episodes = (0..<100).map { _ in UUID() }
      try await withThrowingTaskGroup(of: Void.self) { group in
        for episode in episodes {
          group.addTask { try await storage.setFavorite(true, episode: episode, owner: "ada") }
        }
        try await group.waitForAll()
      }
      #expect(try await storage.favorites(owner: "ada") == Set(episodes))
    }
  }

  static let migrations = [
    "1 favorites and settings", "2 sessions", "3 session keys", "4 session quarantine",
    "5 session holder",
  ]

  /// An unreadable session is moved aside with its reason, for an operator to recover.
  @Test(arguments: Backend.available)
  func aQuarantinedSessionIsMovedAsideWithItsReason(_ backend: Backend) async throws {
    try await backend.withStorage { open in
      let storage = try await open()
      try await storage.saveSession(
        SessionRow(owner: "visitor:a", revision: 3, state: Data("garbled".utf8)), id: "s1")
      try await storage.saveSession(
        SessionRow(owner: "visitor:b", revision: 1, state: Data("{}".utf8)), id: "s2")
      try await storage.quarantineSession(id: "s1", reason: "not JSON")
      try await storage.quarantineSession(id: "never saved", reason: "nothing")
      #expect(try await storage.savedSession(id: "s1") == nil)
      #expect(try await storage.storedSessionKeys() == [SessionKey.of("s2")])
      let aside = try await open().quarantinedSessions()
      #expect(aside.map(\.key) == [SessionKey.of("s1")])
      #expect(aside.map(\.reason) == ["not JSON"])
    }
  }

  /// A session id opens the session, so the database holds only its SHA-256.
  @Test(arguments: Backend.available)
  func aSessionIsStoredUnderTheDigestOfItsIdNeverTheId(_ backend: Backend) async throws {
    try await backend.withStorage { open in
      let storage = try await open()
      let id = "0123456789abcdef0123456789abcdef"
      let saved = SessionRow(owner: "visitor:a", revision: 1, state: Data("{}".utf8))
      try await storage.saveSession(saved, id: id)
      // SHA-256 of the id's UTF-8, in hexadecimal (as `printf %s ID | sha256sum` prints it).
      let key = "3eb1bd439947eb762998e566ccc2e099c791118b2f40579cc4f7da2b5061b7f9"
      #expect(SessionKey.of(id) == key)
      #expect(try await storage.storedSessionKeys() == [key])
      #expect(try await open().savedSession(id: id) == saved)
      #expect(try await storage.savedSession(id: key) == nil)
      try await storage.deleteSession(id: id)
      #expect(try await storage.storedSessionKeys() == [])
    }
  }

  @Test(arguments: Backend.available)
  func aSessionIsSavedAndOnlyANewerRevisionReplacesIt(_ backend: Backend) async throws {
    try await backend.withStorage { open in
      let storage = try await open()
      #expect(try await storage.savedSession(id: "s1") == nil)
      let first = SessionRow(owner: "visitor:a", revision: 3, state: Data("{\"n\":3}".utf8))
      try await storage.saveSession(first, id: "s1")
      try await storage.saveSession(
        SessionRow(owner: "visitor:a", revision: 2, state: Data("old".utf8)), id: "s1")
      #expect(try await open().savedSession(id: "s1") == first)
      let newer = SessionRow(owner: "visitor:a", revision: 4, state: Data([0, 255, 10]))
      try await storage.saveSession(newer, id: "s1")
      try await storage.saveSession(
        SessionRow(owner: "visitor:b", revision: 1, state: Data()), id: "s2")
      #expect(try await open().savedSession(id: "s1") == newer)
      try await storage.deleteSession(id: "s1")
      try await storage.deleteSession(id: "never saved")
      #expect(try await storage.savedSession(id: "s1") == nil)
      #expect(try await storage.savedSession(id: "s2")?.owner == "visitor:b")
    }
  }

  @Test(arguments: Backend.available)
  func sessionsSavedTogetherAreEachKeptUnlessANewerRevisionIs(_ backend: Backend) async throws {
    try await backend.withStorage { open in
      let storage = try await open()
      let kept = SessionRow(owner: "visitor:a", revision: 5, state: Data("a5".utf8))
      try await storage.saveSession(kept, id: "a")
      try await storage.saveSessions([])
      let batch = [
        (id: "c", session: SessionRow(owner: "visitor:c", revision: 1, state: Data("c1".utf8))),
        (id: "a", session: SessionRow(owner: "visitor:a", revision: 4, state: Data("a4".utf8))),
        (id: "b", session: SessionRow(owner: "visitor:b", revision: 2, state: Data("b2".utf8))),
      ]
      try await storage.saveSessions(batch)
      let reopened = try await open()
      #expect(try await reopened.savedSession(id: "a") == kept, "an older revision is ignored")
      #expect(try await reopened.savedSession(id: "b") == batch[2].session)
      #expect(try await reopened.savedSession(id: "c") == batch[0].session)
    }
  }

  @Test(arguments: Backend.available)
  func sessionsSavedBeforeADateAreForgotten(_ backend: Backend) async throws {
    try await backend.withStorage { open in
      let storage = try await open()
      for id in ["a", "b"] {
        try await storage.saveSession(
          SessionRow(owner: "visitor:x", revision: 1, state: Data(id.utf8)), id: id)
      }
      #expect(
        try await storage.deleteSessions(savedBefore: Date(timeIntervalSinceNow: -3_600)) == 0)
      #expect(try await storage.deleteSessions(savedBefore: Date(timeIntervalSinceNow: 3_600)) == 2)
      #expect(try await storage.savedSession(id: "a") == nil)
    }
  }

  /// One copy of a session at a time: a claim makes a copy the session's holder, and from then on
  /// the storage keeps only that copy's saves — the copy that held it before can no longer
  /// overwrite what the new one saved, whatever the revisions, nor delete it.
  @Test(arguments: Backend.available)
  func onlyTheCopyThatHoldsASessionMaySaveIt(_ backend: Backend) async throws {
    try await backend.withStorage { open in
      let storage = try await open()
      let first = SessionRow(owner: "visitor:a", revision: 3, state: Data("3".utf8), holder: "b")
      #expect(try await storage.saveSession(first, id: "s"), "a new session is inserted")
      // Copy "b" saves again: the same holder, a newer revision (and the same one, as a retry
      // whose acknowledgement was lost does).
      let fourth = SessionRow(owner: "visitor:a", revision: 4, state: Data("4".utf8), holder: "b")
      #expect(try await storage.saveSession(fourth, id: "s"))
      #expect(try await storage.saveSession(fourth, id: "s"))
      // Another visitor cannot claim it; nothing changes.
      #expect(try await storage.claimSession(id: "s", owner: "visitor:z", holder: "z") == nil)
      #expect(try await storage.claimSession(id: "none", owner: "visitor:a", holder: "a") == nil)
      #expect(try await storage.savedSession(id: "s")?.holder == "b")
      // Copy "a" (another instance) takes it over: it reads revision 4 and holds the session.
      let claimed = try await storage.claimSession(id: "s", owner: "visitor:a", holder: "a")
      #expect(
        claimed == SessionRow(owner: "visitor:a", revision: 4, state: fourth.state, holder: "a"))
      // The stale copy "b" is refused, even with a higher revision than anything saved…
      let stale = SessionRow(owner: "visitor:a", revision: 9, state: Data("9".utf8), holder: "b")
      #expect(try await storage.saveSession(stale, id: "s") == false)
      // …in a batch too, where the other sessions are written.
      let other = SessionRow(owner: "visitor:c", revision: 1, state: Data("c".utf8), holder: "c")
      #expect(
        try await storage.saveSessions([(id: "s", session: stale), (id: "t", session: other)])
          == ["s"])
      #expect(try await storage.savedSession(id: "t") == other)
      // The new holder's saves are kept, from the revision it resumed at.
      let fifth = SessionRow(owner: "visitor:a", revision: 5, state: Data("5".utf8), holder: "a")
      #expect(try await storage.saveSession(fifth, id: "s"))
      // An older revision of the holder itself is not written either.
      let older = SessionRow(owner: "visitor:a", revision: 2, state: Data("2".utf8), holder: "a")
      #expect(try await storage.saveSession(older, id: "s") == false)
      #expect(try await open().savedSession(id: "s") == fifth)
      // The stale copy cannot delete it; its holder can.
      try await storage.deleteSession(id: "s", heldBy: "b")
      #expect(try await storage.savedSession(id: "s") == fifth)
      try await storage.deleteSession(id: "s", heldBy: "a")
      #expect(try await storage.savedSession(id: "s") == nil)
    }
  }
}
