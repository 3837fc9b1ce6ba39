import Foundation
import GRDB

/// ``Storage`` in an SQLite file (or in memory), through GRDB: nothing to install.
///
/// A file is opened in WAL mode (readers never wait for the writer; several processes may share
/// the file, a busy writer is waited for up to ``busyTimeout``), its schema brought up to date by
/// versioned migrations (``migrator``) before the first access.
public final class SQLiteStorage: Storage {
  /// The file, or `:memory:`.
  public let path: String
  private let writer: any DatabaseWriter

  /// How long a write waits for another connection's write to end before it fails.
  public static let busyTimeout: TimeInterval = 5

  /// Opens (creating it and its folder if needed) and migrates the database at `path`.
  ///
  /// What it creates only its user may read: the folder mode 0700, the file 0600 (SQLite gives
  /// its `-wal` and `-shm` files the database file's mode). The file holds visitors' favorites
  /// and settings. A folder or file that exists keeps its mode.
  ///
  /// - Throws: ``StorageError`` saying which file could not be opened and why.
  public init(path: String) throws {
    self.path = path
    do {
      try Self.createPrivately(path)
      writer = try DatabasePool(path: path, configuration: Self.configuration)
      try Self.migrator.migrate(writer)
    } catch {
      throw StorageError(
        "The database \(path) could not be opened: \(Self.describe(error))")
    }
  }

  /// Creates the database's folder (mode 0700) and an empty file (mode 0600, which SQLite takes
  /// as a new database) when they do not exist.
  private static func createPrivately(_ path: String) throws {
    let files = FileManager.default
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    if !files.fileExists(atPath: folder.path) {
      try files.createDirectory(
        at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
      do {
        try files.createDirectory(
          at: folder, withIntermediateDirectories: false,
          attributes: [.posixPermissions: 0o700])
      } catch {
        // Unless another process created it meanwhile.
        guard files.fileExists(atPath: folder.path) else { throw error }
      }
    }
    if !files.fileExists(atPath: path) {
      // O_EXCL: a file that appears meanwhile is left as it is.
      let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      if descriptor >= 0 { close(descriptor) }
    }
  }

  /// An empty database in memory, gone with this value: for tests and for `--database :memory:`.
  public init(inMemory: ()) throws {
    path = ":memory:"
    writer = try DatabaseQueue(configuration: Self.configuration)
    try Self.migrator.migrate(writer)
  }

  private static var configuration: Configuration {
    var configuration = Configuration()
    configuration.busyMode = .timeout(busyTimeout)
    configuration.label = "app-storage"
    return configuration
  }

  /// The schema's history. A migration, once released, never changes: a new version of the
  /// schema is a new migration appended here.
  public static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("1 favorites and settings") { db in
      try db.execute(
        sql: """
          CREATE TABLE favorite (
            owner TEXT NOT NULL,
            episode TEXT NOT NULL,
            saved_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
            PRIMARY KEY (owner, episode)
          ) WITHOUT ROWID;
          CREATE TABLE setting (
            owner TEXT NOT NULL,
            name TEXT NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (owner, name)
          ) WITHOUT ROWID;
          """)
    }
    migrator.registerMigration("2 sessions") { db in
      try db.execute(
        sql: """
          CREATE TABLE session (
            id TEXT NOT NULL PRIMARY KEY,
            owner TEXT NOT NULL,
            revision INTEGER NOT NULL,
            state BLOB NOT NULL,
            saved_at REAL NOT NULL
          ) WITHOUT ROWID;
          CREATE INDEX session_saved_at ON session (saved_at);
          """)
    }
    migrator.registerMigration("3 session keys") { db in
      // Sessions saved before this version were stored under their ids: store them under the
      // key a lookup uses now (SessionKey).
      db.add(
        function: DatabaseFunction("app_session_key", argumentCount: 1, pure: true) { values in
          String.fromDatabaseValue(values[0]).map(SessionKey.of)
        })
      try db.execute(sql: "UPDATE session SET id = app_session_key(id)")
    }
    migrator.registerMigration("4 session quarantine") { db in
      try db.execute(
        sql: """
          CREATE TABLE session_quarantine (
            id TEXT NOT NULL,
            owner TEXT NOT NULL,
            revision INTEGER NOT NULL,
            state BLOB NOT NULL,
            saved_at REAL NOT NULL,
            reason TEXT NOT NULL,
            quarantined_at REAL NOT NULL
          );
          """)
    }
    migrator.registerMigration("5 session holder") { db in
      // Which running copy of a session may save it (Storage.claimSession).
      try db.execute(sql: "ALTER TABLE session ADD COLUMN holder TEXT NOT NULL DEFAULT ''")
    }
    return migrator
  }

  /// The identifiers of the migrations applied to this database, oldest first.
  public func appliedMigrations() async throws -> [String] {
    try await access { try Self.migrator.appliedMigrations($0) }
  }

  /// SQLite's journal mode for this database: `wal` for a file, `memory` in memory.
  public func journalMode() async throws -> String {
    try await access { try String.fetchOne($0, sql: "PRAGMA journal_mode") ?? "" }
  }

  public func favorites(owner: String) async throws -> Set<UUID> {
    try await access { db in
      let ids = try String.fetchAll(
        db, sql: "SELECT episode FROM favorite WHERE owner = ?", arguments: [owner])
      return Set(ids.compactMap(UUID.init(uuidString:)))
    }
  }

  public func setFavorite(_ isFavorite: Bool, episode: UUID, owner: String) async throws {
    try await access(writing: true) { db in
      if isFavorite {
        try db.execute(
          sql: "INSERT INTO favorite (owner, episode) VALUES (?, ?) ON CONFLICT DO NOTHING",
          arguments: [owner, episode.uuidString])
      } else {
        try db.execute(
          sql: "DELETE FROM favorite WHERE owner = ? AND episode = ?",
          arguments: [owner, episode.uuidString])
      }
    }
  }

  public func settings(owner: String) async throws -> [String: String] {
    try await access { db in
      let rows = try Row.fetchAll(
        db, sql: "SELECT name, value FROM setting WHERE owner = ?", arguments: [owner])
      return Dictionary(rows.map { ($0["name"], $0["value"]) }, uniquingKeysWith: { $1 })
    }
  }

  public func replaceSettings(_ values: [String: String], owner: String) async throws {
    try await access(writing: true) { db in
      try db.execute(sql: "DELETE FROM setting WHERE owner = ?", arguments: [owner])
      for (name, value) in values.sorted(by: { $0.key < $1.key }) {
        try db.execute(
          sql: "INSERT INTO setting (owner, name, value) VALUES (?, ?, ?)",
          arguments: [owner, name, value])
      }
    }
  }

  public func savedSession(id: String) async throws -> SessionRow? {
    try await access { db in
      try Row.fetchOne(
        db, sql: "SELECT owner, revision, state, holder FROM session WHERE id = ?",
        arguments: [SessionKey.of(id)]
      ).map(Self.savedSession)
    }
  }

  public func claimSession(id: String, owner: String, holder: String) async throws
    -> SessionRow?
  {
    try await access(writing: true) { db in
      try Row.fetchOne(
        db,
        sql: """
          UPDATE session SET holder = ?, saved_at = ? WHERE id = ? AND owner = ?
          RETURNING owner, revision, state, holder
          """,
        arguments: [holder, Date().timeIntervalSince1970, SessionKey.of(id), owner]
      ).map(Self.savedSession)
    }
  }

  private static func savedSession(_ row: Row) -> SessionRow {
    SessionRow(
      owner: row["owner"], revision: row["revision"], state: row["state"], holder: row["holder"])
  }

  @discardableResult
  public func saveSessions(_ sessions: [(id: String, session: SessionRow)]) async throws
    -> Set<String>
  {
    guard !sessions.isEmpty else { return [] }
    return try await access(writing: true) { db in
      let savedAt = Date().timeIntervalSince1970
      let statement = try db.cachedStatement(
        sql: """
          INSERT INTO session (id, owner, revision, state, holder, saved_at)
          VALUES (?, ?, ?, ?, ?, ?)
          ON CONFLICT (id) DO UPDATE SET
            owner = excluded.owner, revision = excluded.revision, state = excluded.state,
            saved_at = excluded.saved_at
          WHERE session.holder = excluded.holder AND session.revision <= excluded.revision
          """)
      var refused: Set<String> = []
      for (id, session) in sessions {
        try statement.execute(arguments: [
          SessionKey.of(id), session.owner, session.revision, session.state, session.holder,
          savedAt,
        ])
        if db.changesCount == 0 { refused.insert(id) }
      }
      return refused
    }
  }

  public func deleteSession(id: String, heldBy holder: String?) async throws {
    try await access(writing: true) { db in
      if let holder {
        try db.execute(
          sql: "DELETE FROM session WHERE id = ? AND holder = ?",
          arguments: [SessionKey.of(id), holder])
      } else {
        try db.execute(sql: "DELETE FROM session WHERE id = ?", arguments: [SessionKey.of(id)])
      }
    }
  }

  public func quarantineSession(id: String, reason: String) async throws {
    try await access(writing: true) { db in
      let key = SessionKey.of(id)
      try db.execute(
        sql: """
          INSERT INTO session_quarantine
            (id, owner, revision, state, saved_at, reason, quarantined_at)
          SELECT id, owner, revision, state, saved_at, ?, ? FROM session WHERE id = ?
          """, arguments: [reason, Date().timeIntervalSince1970, key])
      try db.execute(sql: "DELETE FROM session WHERE id = ?", arguments: [key])
    }
  }

  public func quarantinedSessions() async throws -> [(key: String, reason: String)] {
    try await access { db in
      try Row.fetchAll(
        db, sql: "SELECT id, reason FROM session_quarantine ORDER BY quarantined_at, rowid"
      ).map { (key: $0["id"], reason: $0["reason"]) }
    }
  }

  public func storedSessionKeys() async throws -> [String] {
    try await access { try String.fetchAll($0, sql: "SELECT id FROM session") }
  }

  public func deleteSessions(savedBefore date: Date) async throws -> Int {
    try await access(writing: true) { db in
      try db.execute(
        sql: "DELETE FROM session WHERE saved_at < ?", arguments: [date.timeIntervalSince1970])
      return db.changesCount
    }
  }

  /// Runs `body` in a read, or in a write transaction; a task cancelled before the commit
  /// throws `CancellationError` and changes nothing. Other failures become ``StorageError``.
  private func access<T: Sendable>(
    writing: Bool = false, _ body: @escaping @Sendable (Database) throws -> T
  ) async throws -> T {
    try Task.checkCancellation()
    do {
      return writing ? try await writer.write(body) : try await writer.read(body)
    } catch let error as CancellationError {
      throw error
    } catch {
      throw StorageError("The database \(path) failed: \(Self.describe(error))")
    }
  }

  private static func describe(_ error: any Error) -> String {
    if let error = error as? DatabaseError {
      return error.message.map { "\($0) (SQLite code \(error.resultCode.rawValue))" }
        ?? "SQLite code \(error.resultCode.rawValue)"
    }
    if let error = error as? CocoaError, let path = error.filePath {
      return "\(error.localizedDescription) (\(path))"
    }
    return "\(error.localizedDescription)"
  }
}
