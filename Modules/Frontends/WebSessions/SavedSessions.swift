import Foundation
import Synchronization

/// Where sessions are saved so that they outlive the server process: a restart, a crash, or the
/// visitor moving to another instance behind a load balancer all resume the same app.
///
/// A session saves what its ``WebApp`` keeps of the state (the app: its counters and selected tab)
/// with the revision it had,
/// every time that part changes — writes are grouped: while one is on its way, the newest state
/// of every session that changed waits, and the next write saves them all in one transaction —
/// and an action's response waits until the state it produced is saved (up to
/// ``SessionRegistry/Configuration/saveTimeout``), so whatever a visitor saw acknowledged
/// survives a crash. A request naming a session this process does not have looks it
/// up here, and resumes it only for the visitor it belongs to.
///
/// **One copy at a time.** Each running copy of a session (a ``Session``: created here, or
/// resumed by this or another instance) has a holder name of its own. Resuming claims the saved
/// session for the new copy in the same transaction that reads it (``claim``), and a save is
/// kept only while its copy still holds the session (``save``). So when a session moves to
/// another instance and back while both run, the copy left behind cannot acknowledge anything:
/// its next save is refused, and it drops itself (``SessionRegistry``), and the next request
/// resumes the state the database holds.
///
/// The executable provides the storage (`app-server` uses the same database as favorites and
/// settings); ``inMemory()`` serves tests.
public struct SavedSessions: Sendable {
  /// One saved session (a row of the storage's `session` table; `LiveStorage.SavedSession` on the
  /// storage's side of the composition).
  public struct SavedSession: Equatable, Sendable {
    /// Whose session it is: only a request with this visitor cookie resumes it.
    public var visitor: VisitorID
    /// The revision the state had when saved.
    public var revision: Int
    /// What the app keeps of the state, as JSON.
    public var state: Data
    /// Which running copy of the session holds it: the only one whose saves are kept. A copy
    /// takes a session over with ``SavedSessions/claim``.
    public var holder: String

    public init(visitor: VisitorID, revision: Int, state: Data, holder: String = "") {
      self.visitor = visitor
      self.revision = revision
      self.state = state
      self.holder = holder
    }
  }

  /// The session saved under an id, if any, as it is: who holds it is not changed.
  public var load: @Sendable (_ session: SessionID) async throws -> SavedSession?
  /// Takes over the session saved under an id for a visitor: the saved session, now held by
  /// `holder`, in one transaction — from then on the storage refuses the saves of the copy that
  /// held it before. `nil` (and nothing changes) when none is saved for that visitor.
  public var claim:
    @Sendable (_ session: SessionID, _ visitor: VisitorID, _ holder: String) async throws ->
      SavedSession?
  /// Saves several sessions in one transaction: each unless another copy holds its session (it
  /// claimed it) or a newer revision of it is saved already. Returns the sessions not written
  /// for that reason.
  public var save: @Sendable (_ sessions: [SessionID: SavedSession]) async throws -> Set<SessionID>
  /// Forgets a session (the visitor ended it, or it expired) — with a holder, only while that
  /// copy holds it, so a stale copy that expires does not delete what a newer one saved.
  public var delete: @Sendable (_ session: SessionID, _ holder: String?) async throws -> Void
  /// Forgets every session saved before a date; returns how many.
  public var prune: @Sendable (_ savedBefore: Date) async throws -> Int
  /// Sets aside a session whose saved state cannot be read, with the reason, where an operator
  /// can recover it; without a place for that, the session is deleted.
  public var quarantine: @Sendable (_ session: SessionID, _ reason: String) async throws -> Void
  /// Writes what the sessions using this archive hand to it, grouped.
  package let writer = SessionSaver()

  public init(
    load: @escaping @Sendable (SessionID) async throws -> SavedSession?,
    claim: @escaping @Sendable (SessionID, VisitorID, String) async throws -> SavedSession?,
    save: @escaping @Sendable ([SessionID: SavedSession]) async throws -> Set<SessionID>,
    delete: @escaping @Sendable (SessionID, String?) async throws -> Void,
    prune: @escaping @Sendable (Date) async throws -> Int,
    quarantine: (@Sendable (SessionID, String) async throws -> Void)? = nil
  ) {
    self.load = load
    self.claim = claim
    self.save = save
    self.delete = delete
    self.prune = prune
    self.quarantine = quarantine ?? { id, _ in try await delete(id, nil) }
  }

  /// Saves one session (``save``); returns whether it was written.
  @discardableResult
  public func save(_ id: SessionID, _ session: SavedSession) async throws -> Bool {
    try await save([id: session]).isEmpty
  }

  /// Forgets a session, whoever holds it.
  public func delete(_ id: SessionID) async throws {
    try await delete(id, nil)
  }

  /// An archive in this process's memory: what a restart of the registry (not of the process)
  /// resumes from, or what two registries in one process share as two instances share a
  /// database. For tests.
  public static func inMemory() -> SavedSessions {
    let entries = Mutex<[SessionID: (entry: SavedSession, savedAt: Date)]>([:])
    return SavedSessions(
      load: { id in entries.withLock { $0[id]?.entry } },
      claim: { id, visitor, holder in
        entries.withLock { entries in
          guard var saved = entries[id], saved.entry.visitor == visitor else { return nil }
          saved.entry.holder = holder
          saved.savedAt = Date()
          entries[id] = saved
          return saved.entry
        }
      },
      save: { batch in
        entries.withLock { entries in
          var refused: Set<SessionID> = []
          for (id, entry) in batch {
            if let saved = entries[id],
              saved.entry.holder != entry.holder || saved.entry.revision > entry.revision
            {
              refused.insert(id)
              continue
            }
            entries[id] = (entry, Date())
          }
          return refused
        }
      },
      delete: { id, holder in
        entries.withLock { entries in
          if let holder, entries[id]?.entry.holder != holder { return }
          entries[id] = nil
        }
      },
      prune: { date in
        entries.withLock { entries in
          let old = entries.filter { $0.value.savedAt < date }.keys
          for id in old { entries[id] = nil }
          return old.count
        }
      })
  }
}
