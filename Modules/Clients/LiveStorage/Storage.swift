import Foundation

/// Where the app keeps what must survive a restart: favorite episodes and settings, each
/// belonging to an owner (the local profile in `app-cli`, a visitor in `app-server`), and the
/// saved state of `app-server`'s sessions.
///
/// The live clients (`FavoriteClientLive`, `SettingsClientLive`) are written against this
/// protocol; ``SQLiteStorage`` is the embedded implementation that needs nothing installed, and
/// `PostgresStorage` (module `LivePostgres`) the one several servers share.
/// Every write is one transaction. A write whose task is cancelled before it commits throws
/// `CancellationError` and changes nothing. Other failures throw ``StorageError``.
public protocol Storage: Sendable {
  /// The ids of the owner's favorite episodes.
  func favorites(owner: String) async throws -> Set<UUID>
  /// Marks an episode as a favorite of the owner, or unmarks it.
  func setFavorite(_ isFavorite: Bool, episode: UUID, owner: String) async throws
  /// The owner's saved settings, by name; empty when nothing was saved.
  func settings(owner: String) async throws -> [String: String]
  /// Replaces all of the owner's saved settings with `values`.
  func replaceSettings(_ values: [String: String], owner: String) async throws

  /// The session saved under `id`, if any. A session is stored under ``SessionKey/of(_:)`` of
  /// its id, never under the id itself; every method here takes the id.
  func savedSession(id: String) async throws -> SessionRow?
  /// The session saved under `id` for `owner`, made held by `holder` in the same transaction
  /// (its ``SessionRow/holder`` in the answer is `holder`); `nil`, and nothing changes, when
  /// none is saved or it belongs to another owner.
  ///
  /// This is how a copy of a session takes it over: from then on a save by any other holder is
  /// refused (``saveSessions(_:)``), so a copy that another one took over can never overwrite
  /// what the newer copy saved.
  func claimSession(id: String, owner: String, holder: String) async throws -> SessionRow?
  /// Saves the states of several sessions (distinct ids) in one transaction. A session's row is
  /// written when none exists, or when it is held by the same ``SessionRow/holder`` with the
  /// same or an older revision; otherwise it is left as it is — another copy claimed the
  /// session, or a newer revision of this copy is saved already. Returns the ids left as they
  /// were, for which nothing was written.
  @discardableResult
  func saveSessions(_ sessions: [(id: String, session: SessionRow)]) async throws -> Set<String>
  /// Forgets the session saved under `id` (none is fine); with `holder`, only while that holder
  /// holds it.
  func deleteSession(id: String, heldBy holder: String?) async throws
  /// Moves the session saved under `id` out of the way, into the table `session_quarantine`
  /// with `reason` and the time: its state could not be read, and an operator may want to
  /// recover it. Nothing happens when no session is saved under `id`.
  func quarantineSession(id: String, reason: String) async throws
  /// The sessions set aside by ``quarantineSession(id:reason:)``, as (key, reason), oldest first.
  func quarantinedSessions() async throws -> [(key: String, reason: String)]
  /// Forgets every session saved before `date`; returns how many.
  func deleteSessions(savedBefore date: Date) async throws -> Int
  /// The keys the saved sessions are stored under (``SessionKey``), in no particular order: what
  /// a reader of the database sees.
  func storedSessionKeys() async throws -> [String]
}

extension Storage {
  /// Saves one session's state under `id` (``saveSessions(_:)``); returns whether it was written.
  @discardableResult
  public func saveSession(_ session: SessionRow, id: String) async throws -> Bool {
    try await saveSessions([(id: id, session: session)]).isEmpty
  }

  /// Forgets the session saved under `id`, whoever holds it (none is fine).
  public func deleteSession(id: String) async throws {
    try await deleteSession(id: id, heldBy: nil)
  }
}

/// A session of `app-server` as it was last saved.
public struct SessionRow: Equatable, Sendable {
  /// Whose session it is: only this owner may resume it.
  public var owner: String
  /// The revision of the state, which grows with every change.
  public var revision: Int
  /// The state, encoded by the server (JSON).
  public var state: Data
  /// Which running copy of the session saved it, or last claimed it
  /// (``Storage/claimSession(id:owner:holder:)``): only that copy's saves are kept. Empty
  /// for a row saved before copies were told apart.
  public var holder: String

  public init(owner: String, revision: Int, state: Data, holder: String = "") {
    self.owner = owner
    self.revision = revision
    self.state = state
    self.holder = holder
  }
}

/// A storage failure, worded for the person who has to act on it.
public struct StorageError: LocalizedError, Equatable, Sendable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) {
    self.message = message
  }

  public var errorDescription: String? { message }
  public var description: String { message }
}
