import Foundation
import LivePostgres
import LiveStorage
import Logging
import PostgresNIO
import Testing

/// The PostgreSQL server the tests may use: `TEST_DATABASE_URL`, which `Tools/test-all` sets to
/// a throwaway server it starts on 127.0.0.1. Each test gets a database of its own on it.
enum TestPostgres {
  static let url = ProcessInfo.processInfo.environment["TEST_DATABASE_URL"]

  static var isAvailable: Bool { url != nil }

  /// Why PostgreSQL tests did not run.
  static let skipReason: Comment =
    "no PostgreSQL: set TEST_DATABASE_URL (Tools/test-all starts a server and sets it)"

  /// Whether the run must have PostgreSQL (`Tools/test-all` without `--swift` says so).
  static var isRequired: Bool {
    ProcessInfo.processInfo.environment["APP_TEST_SERVICES"] == "required"
  }

  /// Creates an empty database, runs `body` with its URL, then drops it.
  static func withDatabase<T>(_ body: (String) async throws -> T) async throws -> T {
    let admin = try PostgresURL(try #require(url))
    let name = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    try await execute("CREATE DATABASE \(name)", on: admin)
    do {
      let result = try await body(databaseURL(admin, name))
      try await execute("DROP DATABASE \(name) WITH (FORCE)", on: admin)
      return result
    } catch {
      try? await execute("DROP DATABASE \(name) WITH (FORCE)", on: admin)
      throw error
    }
  }

  /// Runs one statement as the test user, on the server's maintenance database.
  static func execute(_ sql: String, on admin: PostgresURL) async throws {
    try await withConnection(to: admin) { connection in
      try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "sql"))
    }
  }

  /// Runs `body` on a connection of its own to the server's maintenance database, closed after.
  static func withConnection<T>(
    to admin: PostgresURL, _ body: (PostgresConnection) async throws -> T
  ) async throws -> T {
    let connection = try await PostgresConnection.connect(
      configuration: PostgresConnection.Configuration(
        host: admin.host, port: admin.port, username: admin.user, password: admin.password,
        database: admin.database, tls: .disable),
      id: 1, logger: Logger(label: "storage-tests"))
    do {
      let result = try await body(connection)
      try await connection.close()
      return result
    } catch {
      try? await connection.close()
      throw error
    }
  }

  /// What the server is doing, from a connection of its own: each backend's state, what it
  /// waits for and since when, and its statement. A test that could not open its storage records
  /// this, so that a connection the server did not answer in time says why.
  static func activity() async -> String {
    do {
      let admin = try PostgresURL(try #require(url))
      return try await withConnection(to: admin) { connection in
        let rows = try await connection.query(
          """
          SELECT pid::text, coalesce(datname, '-'), backend_type, coalesce(state, '-'),
            coalesce(wait_event_type || '/' || wait_event, '-'),
            coalesce(extract(epoch FROM now() - backend_start)::int::text, '-'),
            left(regexp_replace(coalesce(query, ''), '\\s+', ' ', 'g'), 80)
          FROM pg_stat_activity ORDER BY backend_start
          """, logger: Logger(label: "sql"))
        var lines = ["pid database type state waiting-on age-s query"]
        for try await (pid, database, type, state, wait, age, query) in rows.decode(
          (String, String, String, String, String, String, String).self)
        {
          lines.append([pid, database, type, state, wait, age, query].joined(separator: " | "))
        }
        return lines.joined(separator: "\n")
      }
    } catch {
      return "the server's activity could not be read either: \(String(reflecting: error))"
    }
  }

  static func databaseURL(_ admin: PostgresURL, _ database: String) -> String {
    "postgres://\(admin.user)@\(admin.host):\(admin.port)/\(database)?sslmode=disable"
  }
}

/// The two implementations of `Storage`, each test running on both (PostgreSQL when a server
/// is available).
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
  case sqlite, postgres

  static var available: [Backend] { TestPostgres.isAvailable ? allCases : [.sqlite] }

  var testDescription: String { rawValue }

  /// Runs `body` with a function that opens the same, initially empty, database again each
  /// time it is called (a restart).
  func withStorage(
    _ body: (_ open: @Sendable () async throws -> any Storage) async throws -> Void
  ) async throws {
    switch self {
    case .sqlite:
      let folder = FileManager.default.temporaryDirectory
        .appending(path: "storage-tests-\(UUID().uuidString)")
      defer { try? FileManager.default.removeItem(at: folder) }
      let path = folder.appending(path: "nested/app.sqlite").path
      try await body { try SQLiteStorage(path: path) }
    case .postgres:
      let opened = OpenedStorages()
      try await TestPostgres.withDatabase { url in
        do {
          try await body {
            let started = ContinuousClock.now
            let storage: PostgresStorage
            do {
              storage = try await PostgresStorage.open(url: url)
            } catch {
              Issue.record(
                """
                PostgreSQL storage not opened after \(ContinuousClock.now - started): \(error)
                The server's activity then:
                \(await TestPostgres.activity())
                """)
              throw error
            }
            await opened.add(storage)
            return storage
          }
        } catch {
          await opened.closeAll()
          throw error
        }
        await opened.closeAll()
      }
    }
  }

  /// The migrations a fresh database has, oldest first.
  func appliedMigrations(_ storage: any Storage) async throws -> [String] {
    switch storage {
    case let storage as SQLiteStorage: try await storage.appliedMigrations()
    case let storage as PostgresStorage: try await storage.appliedMigrations()
    default: []
    }
  }
}

/// The PostgreSQL storages a test opened, closed when it ends.
actor OpenedStorages {
  private var storages: [PostgresStorage] = []
  func add(_ storage: PostgresStorage) { storages.append(storage) }
  func closeAll() async {
    for storage in storages { await storage.close() }
    storages = []
  }
}
