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
/// ``SessionRegistry/Configuration/archiveTimeout``), so whatever a visitor saw acknowledged
/// survives a crash. A request naming a session this process does not have looks it
/// up here, and resumes it only for the visitor it belongs to.
///
/// The executable provides the storage (`app-server` uses the same database as favorites and
/// settings); ``inMemory()`` serves tests.
public struct SessionArchive: Sendable {
  /// One saved session (a row of the storage's `session` table; `LiveStorage.SavedSession` on the
  /// storage's side of the composition).
  public struct SavedSession: Equatable, Sendable {
    /// Whose session it is: only a request with this visitor cookie resumes it.
    public var visitor: VisitorID
    /// The revision the state had when saved.
    public var revision: Int
    /// What the app keeps of the state, as JSON.
    public var state: Data

    public init(visitor: VisitorID, revision: Int, state: Data) {
      self.visitor = visitor
      self.revision = revision
      self.state = state
    }
  }

  /// The session saved under an id, if any.
  public var load: @Sendable (_ session: SessionID) async throws -> SavedSession?
  /// Saves several sessions in one transaction, each unless a newer revision of its
  /// session is saved already.
  public var save: @Sendable (_ sessions: [SessionID: SavedSession]) async throws -> Void
  /// Forgets a session (the visitor ended it, or it expired).
  public var delete: @Sendable (_ session: SessionID) async throws -> Void
  /// Forgets every session saved before a date; returns how many.
  public var prune: @Sendable (_ savedBefore: Date) async throws -> Int
  /// Sets aside a session whose saved state cannot be read, with the reason, where an operator
  /// can recover it; without a place for that, the session is deleted.
  public var quarantine: @Sendable (_ session: SessionID, _ reason: String) async throws -> Void
  /// Writes what the sessions using this archive hand to it, grouped.
  let writer = ArchiveWriter()

  public init(
    load: @escaping @Sendable (SessionID) async throws -> SavedSession?,
    save: @escaping @Sendable ([SessionID: SavedSession]) async throws -> Void,
    delete: @escaping @Sendable (SessionID) async throws -> Void,
    prune: @escaping @Sendable (Date) async throws -> Int,
    quarantine: (@Sendable (SessionID, String) async throws -> Void)? = nil
  ) {
    self.load = load
    self.save = save
    self.delete = delete
    self.prune = prune
    self.quarantine = quarantine ?? { id, _ in try await delete(id) }
  }

  /// Saves one session, unless a newer revision of it is saved already.
  public func save(_ id: SessionID, _ session: SavedSession) async throws {
    try await save([id: session])
  }

  /// An archive in this process's memory: what a restart of the registry (not of the process)
  /// resumes from. For tests.
  public static func inMemory() -> SessionArchive {
    let entries = Mutex<[SessionID: (entry: SavedSession, savedAt: Date)]>([:])
    return SessionArchive(
      load: { id in entries.withLock { $0[id]?.entry } },
      save: { batch in
        entries.withLock { entries in
          for (id, entry) in batch {
            if let saved = entries[id], saved.entry.revision >= entry.revision { continue }
            entries[id] = (entry, Date())
          }
        }
      },
      delete: { id in entries.withLock { _ = $0.removeValue(forKey: id) } },
      prune: { date in
        entries.withLock { entries in
          let old = entries.filter { $0.value.savedAt < date }.keys
          for id in old { entries[id] = nil }
          return old.count
        }
      })
  }
}
