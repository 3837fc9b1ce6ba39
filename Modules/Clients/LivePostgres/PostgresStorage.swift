import Foundation
import LiveStorage
import Logging
import PostgresNIO
import Synchronization

/// ``Storage`` in a PostgreSQL database, through postgres-nio: what several `app-server`
/// instances share when one machine is not enough.
///
/// - A pool of connections (``maximumConnections``), opened when needed and closed when idle.
/// - Every operation has a deadline (``operationTimeout``): a database that is down or does not
///   answer makes the operation fail with a ``StorageError`` after it, never hang the caller. The
///   server ends any statement a little earlier (`statement_timeout`, four fifths of it), so a
///   write reported as failed has normally been rolled back; as with any remote database, a
///   write that timed out may still have landed.
/// - The schema is brought up to date by versioned migrations (``migrations``) when the storage
///   is opened, under an advisory lock, so instances starting together migrate once.
/// - A write is atomic (one statement, or a transaction); a task cancelled before the statement
///   is sent, or before the commit, changes nothing.
///
/// ```swift
/// let storage = try await PostgresStorage.open(url: "postgres://app@127.0.0.1/app")
/// defer { Task { await storage.close() } }
/// ```
public final class PostgresStorage: Storage {
  /// The database, without the password.
  public let url: PostgresURL
  /// The longest an operation may take, waiting for a connection included.
  public let operationTimeout: Duration
  /// The most connections open at once.
  public static let maximumConnections = 16

  private let client: PostgresClient
  private let running: Task<Void, Never>
  private let logger: Logger

  private init(url: PostgresURL, operationTimeout: Duration, logger: Logger) {
    self.url = url
    self.operationTimeout = operationTimeout
    self.logger = logger
    var configuration = PostgresClient.Configuration(
      host: url.host, port: url.port, username: url.user, password: url.password,
      database: url.database, tls: Self.tls(url.tls))
    configuration.options.connectTimeout = url.connectTimeout
    configuration.options.maximumConnections = Self.maximumConnections
    configuration.options.connectionIdleTimeout = .seconds(60)
    configuration.options.additionalStartupParameters = [
      // A little shorter than the deadline, so that the server gives up on a statement (and
      // rolls it back) before the caller is told it failed: a write reported as failed then
      // almost never lands later. (Almost: which side gives up first is a race.)
      ("statement_timeout", "\(Self.milliseconds(operationTimeout) * 4 / 5)"),
      ("application_name", "composable-app"),
    ]
    let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
    self.client = client
    self.running = Task { await client.run() }
  }

  /// Connects to the database at `url` (a `DATABASE_URL`), checks that it answers and migrates
  /// its schema.
  ///
  /// - Throws: ``StorageError`` when the URL is not usable, the server cannot be reached in
  ///   time, refuses the login, or the migration fails — saying which and why.
  ///
  /// - Parameters:
  ///   - operationTimeout: the deadline of every operation afterwards.
  ///   - migrationTimeout: the deadline of the migration (which may wait for another instance's).
  public static func open(
    url: String,
    operationTimeout: Duration = .seconds(5),
    migrationTimeout: Duration = .seconds(60),
    logger: Logger = Logger(label: "storage.postgres")
  ) async throws -> PostgresStorage {
    let url = try PostgresURL(url)
    do {
      try await probe(url, logger: logger)
    } catch {
      throw StorageError("PostgreSQL at \(url) could not be opened: \(Self.describe(error))")
    }
    let storage = PostgresStorage(url: url, operationTimeout: operationTimeout, logger: logger)
    do {
      try await storage.migrate(timeout: migrationTimeout)
    } catch {
      await storage.close()
      throw StorageError(
        "PostgreSQL at \(storage.url) could not be opened: \(Self.describe(error))")
    }
    return storage
  }

  /// One connection, opened and closed: the pool retries a refused connection quietly until an
  /// operation's deadline, so the reason (refused, unknown database, bad password) is only seen
  /// on a connection of one's own.
  private static func probe(_ url: PostgresURL, logger: Logger) async throws {
    var configuration = PostgresConnection.Configuration(
      host: url.host, port: url.port, username: url.user, password: url.password,
      database: url.database,
      tls: try {
        switch url.tls {
        case .disable: .disable
        case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
        case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
      }())
    configuration.options.connectTimeout = .seconds(url.connectTimeout.components.seconds)
    let connection = try await PostgresConnection.connect(
      configuration: configuration, id: 0, logger: logger)
    try await connection.close()
  }

  /// Closes every connection; operations afterwards fail.
  public func close() async {
    running.cancel()
    await running.value
  }

  // MARK: Schema

  /// The schema's history, one statement list per version. A migration, once released, never
  /// changes: a new version of the schema is a new migration appended here.
  public static let migrations: [(id: String, statements: [String])] = [
    (
      "1 favorites and settings",
      [
        """
        CREATE TABLE favorite (
          owner text NOT NULL, episode text NOT NULL,
          saved_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (owner, episode))
        """,
        """
        CREATE TABLE setting (
          owner text NOT NULL, name text NOT NULL, value text NOT NULL, PRIMARY KEY (owner, name))
        """,
      ]
    ),
    (
      "2 sessions",
      [
        """
        CREATE TABLE session (
          id text PRIMARY KEY, owner text NOT NULL, revision bigint NOT NULL,
          state bytea NOT NULL, saved_at timestamptz NOT NULL DEFAULT now())
        """,
        "CREATE INDEX session_saved_at ON session (saved_at)",
      ]
    ),
    (
      "3 session keys",
      [
        // Sessions saved before this version were stored under their ids: store them under
        // the key a lookup uses now (SessionKey: hex SHA-256 of the id's UTF-8).
        "UPDATE session SET id = encode(sha256(convert_to(id, 'UTF8')), 'hex')"
      ]
    ),
    (
      "4 session quarantine",
      [
        """
        CREATE TABLE session_quarantine (
          id text NOT NULL, owner text NOT NULL, revision bigint NOT NULL, state bytea NOT NULL,
          saved_at timestamptz NOT NULL, reason text NOT NULL,
          quarantined_at timestamptz NOT NULL DEFAULT clock_timestamp())
        """
      ]
    ),
    (
      "5 session holder",
      [
        // Which running copy of a session may save it (Storage.claimSession).
        "ALTER TABLE session ADD COLUMN holder text NOT NULL DEFAULT ''"
      ]
    ),
  ]

  /// The lock key that serialises migrations of every instance (any constant would do; this is
  /// "composable-app" folded into 63 bits).
  private static let migrationLock: Int64 = 0x636F_6D70_6F73_6162

  private func migrate(timeout: Duration) async throws {
    let milliseconds = Self.milliseconds(timeout)
    try await transaction(timeout: timeout) { connection, logger in
      try await connection.query(
        "SET LOCAL statement_timeout = \(unescaped: String(milliseconds))", logger: logger)
      try await connection.query(
        "SELECT pg_advisory_xact_lock(\(Self.migrationLock))", logger: logger)
      try await connection.query(
        """
        CREATE TABLE IF NOT EXISTS schema_migration (
          id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
        """, logger: logger)
      var applied = Set<String>()
      for try await id in try await connection.query(
        "SELECT id FROM schema_migration", logger: logger
      ).decode(String.self) {
        applied.insert(id)
      }
      for migration in Self.migrations where !applied.contains(migration.id) {
        for statement in migration.statements {
          try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
        try await connection.query(
          "INSERT INTO schema_migration (id) VALUES (\(migration.id))", logger: logger)
      }
    }
  }

  /// The identifiers of the migrations applied to this database, oldest first.
  public func appliedMigrations() async throws -> [String] {
    try await read { client, logger in
      var ids: [String] = []
      for try await id in try await client.query(
        "SELECT id FROM schema_migration ORDER BY applied_at, id", logger: logger
      ).decode(String.self) {
        ids.append(id)
      }
      return ids
    }
  }

  // MARK: Storage

  public func favorites(owner: String) async throws -> Set<UUID> {
    try await read { client, logger in
      var ids = Set<UUID>()
      for try await episode in try await client.query(
        "SELECT episode FROM favorite WHERE owner = \(owner)", logger: logger
      ).decode(String.self) {
        if let id = UUID(uuidString: episode) { ids.insert(id) }
      }
      return ids
    }
  }

  public func setFavorite(_ isFavorite: Bool, episode: UUID, owner: String) async throws {
    let episode = episode.uuidString
    try await write(
      isFavorite
        ? """
        INSERT INTO favorite (owner, episode) VALUES (\(owner), \(episode))
        ON CONFLICT DO NOTHING
        """
        : "DELETE FROM favorite WHERE owner = \(owner) AND episode = \(episode)")
  }

  public func settings(owner: String) async throws -> [String: String] {
    try await read { client, logger in
      var values: [String: String] = [:]
      for try await (name, value) in try await client.query(
        "SELECT name, value FROM setting WHERE owner = \(owner)", logger: logger
      ).decode((String, String).self) {
        values[name] = value
      }
      return values
    }
  }

  public func replaceSettings(_ values: [String: String], owner: String) async throws {
    let sorted = values.sorted { $0.key < $1.key }
    let (names, texts) = (sorted.map(\.key), sorted.map(\.value))
    try await transaction { connection, logger in
      _ = try await connection.query("DELETE FROM setting WHERE owner = \(owner)", logger: logger)
      // Every row in one statement: a round trip, however many settings.
      _ = try await connection.query(
        """
        INSERT INTO setting (owner, name, value)
        SELECT \(owner), name, value FROM unnest(\(names)::text[], \(texts)::text[]) AS t(name, value)
        """, logger: logger)
    }
  }

  public func savedSession(id: String) async throws -> SessionRow? {
    try await read { client, logger in
      for try await (owner, revision, state, holder) in try await client.query(
        "SELECT owner, revision, state, holder FROM session WHERE id = \(SessionKey.of(id))",
        logger: logger
      ).decode((String, Int, Data, String).self) {
        return SessionRow(owner: owner, revision: revision, state: state, holder: holder)
      }
      return nil
    }
  }

  public func claimSession(id: String, owner: String, holder: String) async throws
    -> SessionRow?
  {
    // One statement: the row is read and taken over atomically, in one round trip.
    try await writing { client, logger in
      for try await (owner, revision, state, holder) in try await client.query(
        """
        UPDATE session SET holder = \(holder), saved_at = now()
        WHERE id = \(SessionKey.of(id)) AND owner = \(owner)
        RETURNING owner, revision, state, holder
        """,
        logger: logger
      ).decode((String, Int, Data, String).self) {
        return SessionRow(owner: owner, revision: revision, state: state, holder: holder)
      }
      return nil
    }
  }

  @discardableResult
  public func saveSessions(_ sessions: [(id: String, session: SessionRow)]) async throws
    -> Set<String>
  {
    // One session: one statement, applied atomically in one round trip. Several: one
    // transaction, one statement each, in the order of their ids (two servers saving the same
    // sessions lock their rows in one order, so they cannot deadlock). A statement that leaves
    // its row as it was returns no row.
    if sessions.count == 1, let (id, session) = sessions.first {
      return try await write(try Self.saving(session, id: id)) == 0 ? [id] : []
    }
    guard !sessions.isEmpty else { return [] }
    return try await transaction { connection, logger in
      var refused: Set<String> = []
      for (id, session) in sessions.sorted(by: { $0.id < $1.id }) {
        var rows = 0
        for try await _ in try await connection.query(
          try Self.saving(session, id: id), logger: logger)
        {
          rows += 1
        }
        if rows == 0 { refused.insert(id) }
      }
      return refused
    }
  }

  private static func saving(_ session: SessionRow, id: String) throws -> PostgresQuery {
    try """
    INSERT INTO session (id, owner, revision, state, holder)
    VALUES (\(SessionKey.of(id)), \(session.owner), \(session.revision), \(session.state),
      \(session.holder))
    ON CONFLICT (id) DO UPDATE SET
      owner = excluded.owner, revision = excluded.revision, state = excluded.state,
      saved_at = now()
    WHERE session.holder = excluded.holder AND session.revision <= excluded.revision
    RETURNING 1
    """
  }

  public func deleteSession(id: String, heldBy holder: String?) async throws {
    if let holder {
      try await write(
        "DELETE FROM session WHERE id = \(SessionKey.of(id)) AND holder = \(holder)")
    } else {
      try await write("DELETE FROM session WHERE id = \(SessionKey.of(id))")
    }
  }

  public func quarantineSession(id: String, reason: String) async throws {
    let key = SessionKey.of(id)
    try await transaction { connection, logger in
      try await connection.query(
        """
        INSERT INTO session_quarantine (id, owner, revision, state, saved_at, reason)
        SELECT id, owner, revision, state, saved_at, \(reason) FROM session WHERE id = \(key)
        """, logger: logger)
      try await connection.query("DELETE FROM session WHERE id = \(key)", logger: logger)
    }
  }

  public func quarantinedSessions() async throws -> [(key: String, reason: String)] {
    try await read { client, logger in
      var sessions: [(key: String, reason: String)] = []
      for try await (key, reason) in try await client.query(
        "SELECT id, reason FROM session_quarantine ORDER BY quarantined_at", logger: logger
      ).decode((String, String).self) {
        sessions.append((key: key, reason: reason))
      }
      return sessions
    }
  }

  public func storedSessionKeys() async throws -> [String] {
    try await read { client, logger in
      var keys: [String] = []
      for try await key in try await client.query("SELECT id FROM session", logger: logger)
        .decode(String.self)
      {
        keys.append(key)
      }
      return keys
    }
  }

  public func deleteSessions(savedBefore date: Date) async throws -> Int {
    try await transaction { connection, logger in
      var count = 0
      for try await _ in try await connection.query(
        "DELETE FROM session WHERE saved_at < \(date) RETURNING id", logger: logger
      ).decode(String.self) {
        count += 1
      }
      return count
    }
  }

  // MARK: Access

  private func read<T: Sendable>(
    _ body: @escaping @Sendable (PostgresClient, Logger) async throws -> T
  ) async throws -> T {
    try await withDeadline(operationTimeout) { [client, logger] in
      try await body(client, logger)
    }
  }

  /// Runs one statement, which PostgreSQL applies atomically without a transaction of ours (one
  /// round trip instead of three); a task cancelled before it is sent sends nothing. Returns the
  /// number of rows the statement returned.
  @discardableResult
  private func write(_ statement: PostgresQuery) async throws -> Int {
    try await writing { client, logger in
      // Read to the end, which gives the connection back to the pool.
      var rows = 0
      for try await _ in try await client.query(statement, logger: logger) { rows += 1 }
      return rows
    }
  }

  /// Runs `body`, which sends one statement that writes, with the deadline; a task cancelled
  /// before it starts sends nothing.
  private func writing<T: Sendable>(
    _ body: @escaping @Sendable (PostgresClient, Logger) async throws -> T
  ) async throws -> T {
    try await withDeadline(operationTimeout) { [client, logger] in
      try Task.checkCancellation()
      return try await body(client, logger)
    }
  }

  /// Runs `body` in a transaction, committed unless `body` throws or the task is cancelled.
  private func transaction<T: Sendable>(
    timeout: Duration? = nil,
    _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
  ) async throws -> T {
    try await withDeadline(timeout ?? operationTimeout) { [client, logger] in
      try await client.withConnection { connection in
        try await connection.query("BEGIN", logger: logger)
        do {
          let result = try await body(connection, logger)
          try Task.checkCancellation()
          try await connection.query("COMMIT", logger: logger)
          return result
        } catch {
          _ = try? await connection.query("ROLLBACK", logger: logger)
          throw error
        }
      }
    }
  }

  /// Runs `operation` and answers as soon as it ends or `timeout` passes, whichever is
  /// first, without waiting for an operation that ignores cancellation (a query to a server that
  /// stopped answering). Failures become ``StorageError``; cancellation stays `CancellationError`.
  private func withDeadline<T: Sendable>(
    _ timeout: Duration, _ operation: @escaping @Sendable () async throws -> T
  ) async throws -> T {
    try Task.checkCancellation()
    let outcome = Mutex<CheckedContinuation<T, any Error>?>(nil)
    let finish: @Sendable (Result<T, any Error>) -> Void = { result in
      outcome.withLock { continuation in
        continuation?.resume(with: result)
        continuation = nil
      }
    }
    // The tasks start once the continuation is in place, so an outcome is never lost.
    var tasks: [Task<Void, Never>] = []
    defer { for task in tasks { task.cancel() } }
    do {
      return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
          outcome.withLock { $0 = continuation }
          // Cancelled before the handler could see the continuation: it found none to resume.
          guard !Task.isCancelled else { return finish(.failure(CancellationError())) }
          tasks = [
            Task {
              do {
                finish(.success(try await operation()))
              } catch {
                finish(.failure(error))
              }
            },
            Task { [url] in
              guard (try? await Task.sleep(for: timeout)) != nil else { return }
              finish(
                .failure(
                  StorageError("PostgreSQL at \(url) did not answer within \(timeout.formatted())")
                ))
            },
          ]
        }
      } onCancel: {
        finish(.failure(CancellationError()))
      }
    } catch let error as CancellationError {
      throw error
    } catch let error as StorageError {
      throw error
    } catch {
      throw StorageError("PostgreSQL at \(url) failed: \(Self.describe(error))")
    }
  }

  private static func milliseconds(_ duration: Duration) -> Int64 {
    duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
  }

  private static func tls(_ mode: PostgresURL.TLSMode) -> PostgresClient.Configuration.TLS {
    switch mode {
    case .disable: .disable
    case .prefer: .prefer(.makeClientConfiguration())
    case .require: .require(.makeClientConfiguration())
    }
  }

  /// What went wrong, in words (postgres-nio's own description hides everything).
  static func describe(_ error: any Error) -> String {
    if let error = error as? StorageError { return error.message }
    guard let error = error as? PSQLError else { return String(describing: error) }
    if let message = error.serverInfo?[.message] {
      let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
      return message + state
    }
    if let underlying = error.underlying {
      return "\(error.code): \(underlying)"
    }
    return "\(error.code)"
  }
}

extension Duration {
  fileprivate func formatted() -> String {
    let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
    return seconds.formatted(.number.precision(.fractionLength(0...3))) + " s"
  }
}
