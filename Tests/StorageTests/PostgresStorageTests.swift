import Foundation
import LivePostgres
import LiveStorage
import Logging
import PostgresNIO
import Testing

struct PostgresURLTests {
  @Test func aFullURLIsRead() throws {
    let url = try PostgresURL(
      "postgresql://app%40x:p%3Ass@db.example:6543/kept?sslmode=require&connect_timeout=2")
    #expect(url.user == "app@x")
    #expect(url.password == "p:ss")
    #expect(url.host == "db.example")
    #expect(url.port == 6543)
    #expect(url.database == "kept")
    #expect(url.tls == .require)
    #expect(url.connectTimeout == .seconds(2))
    #expect(url.description == "postgres://app@x@db.example:6543/kept")
  }

  @Test func theDefaultsAreLibpqs() throws {
    let url = try PostgresURL("postgres://app@127.0.0.1")
    #expect(url.port == 5432)
    #expect(url.database == "app")
    #expect(url.password == nil)
    #expect(url.tls == .prefer)
    #expect(url.connectTimeout == .seconds(5))
  }

  @Test(arguments: [
    ("", "expected postgres://"),
    ("127.0.0.1:5432", "expected postgres://"),
    ("mysql://app@host/db", "the scheme is \"mysql\""),
    ("postgres:///db", "it names no host"),
    ("postgres://host/db", "it names no user"),
    ("postgres://app@host:0/db", "out of range"),
    ("postgres://app@host/a/b", "contains \"/\""),
    ("postgres://app@host/db?sslmode=maybe", "sslmode must be"),
    ("postgres://app@host/db?connect_timeout=-1", "connect_timeout must be"),
    ("postgres://app@host/db?sslmdoe=disable", "\"sslmdoe\" is not supported"),
  ])
  func aBadURLIsRefusedSayingWhy(_ url: String, _ reason: String) {
    let error = #expect(throws: StorageError.self) { try PostgresURL(url) }
    #expect(error?.message.hasPrefix("DATABASE_URL is not a usable PostgreSQL URL") == true)
    #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
  }

  @Test func thePasswordNeverAppearsInAMessage() async throws {
    let error = await #expect(throws: StorageError.self) {
      try await PostgresStorage.open(url: "postgres://app:s3cret@127.0.0.1:1/db?sslmode=disable")
    }
    #expect(error?.message.contains("s3cret") == false)
    #expect(error?.message.hasPrefix("PostgreSQL at postgres://app@127.0.0.1:1/db") == true)
  }
}

@Suite(.enabled(if: TestPostgres.isAvailable, TestPostgres.skipReason))
struct PostgresStorageTests {
  /// What a test that could not open its storage records: every backend, this one included
  /// (running the query), with its state and what it waits for.
  @Test func theServersActivityListsItsBackends() async throws {
    let activity = await TestPostgres.activity()
    let lines = activity.split(separator: "\n")
    #expect(lines.first == "pid database type state waiting-on age-s query")
    #expect(
      lines.contains {
        $0.contains("| client backend | active |") && $0.contains("SELECT pid::text")
      },
      "\(activity)")
    #expect(lines.contains { $0.contains("checkpointer") }, "\(activity)")
  }

  @Test func anUnknownDatabaseIsRefusedWithTheServersReason() async throws {
    let admin = try PostgresURL(try #require(TestPostgres.url))
    let error = await #expect(throws: StorageError.self) {
      try await PostgresStorage.open(url: TestPostgres.databaseURL(admin, "no_such_database"))
    }
    #expect(
      error?.message.contains("database \"no_such_database\" does not exist") == true,
      "\(error?.message ?? "")")
  }

  @Test func instancesStartingTogetherMigrateOnce() async throws {
    try await TestPostgres.withDatabase { url in
      let storages = try await withThrowingTaskGroup(of: PostgresStorage.self) { group in
        for _ in 0..<4 { group.addTask { try await PostgresStorage.open(url: url) } }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      for storage in storages {
        #expect(
          try await storage.appliedMigrations() == StorageContractTests.migrations)
        await storage.close()
      }
    }
  }

  @Test func aBlockedDatabaseFailsTheOperationInTimeAndServesAgainAfter() async throws {
    try await TestPostgres.withDatabase { url in
      let storage = try await PostgresStorage.open(url: url, operationTimeout: .seconds(2))
      // Another client holds the table: every write to it waits.
      let admin = try PostgresURL(url)
      let blocker = try await PostgresConnection.connect(
        configuration: PostgresConnection.Configuration(
          host: admin.host, port: admin.port, username: admin.user, password: nil,
          database: admin.database, tls: .disable),
        id: 9, logger: Logger(label: "blocker"))
      try await blocker.query("BEGIN", logger: Logger(label: "sql"))
      try await blocker.query(
        "LOCK TABLE favorite IN ACCESS EXCLUSIVE MODE", logger: Logger(label: "sql"))
      let error = await #expect(throws: StorageError.self) {
        try await storage.setFavorite(true, episode: UUID(), owner: "ada")
      }
      #expect(error?.message.hasPrefix("PostgreSQL at \(admin)") == true, "\(error?.message ?? "")")
      try await blocker.query("ROLLBACK", logger: Logger(label: "sql"))
      try await blocker.close()
      let episode = UUID()
      try await storage.setFavorite(true, episode: episode, owner: "ada")
      // (Whether the write that timed out landed is not known to the caller, nor asserted.)
      #expect(try await storage.favorites(owner: "ada").contains(episode))
      await storage.close()
    }
  }

  /// A session saved under its id by an earlier version is found under its key after the
  /// upgrade (the "3 session keys" migration, run again on a row as the old version wrote it).
  @Test func theUpgradeStoresOldSessionsUnderTheirKeys() async throws {
    try await TestPostgres.withDatabase { url in
      let storage = try await PostgresStorage.open(url: url)
      let id = "0123456789abcdef0123456789abcdef"
      let database = try PostgresURL(url)
      try await TestPostgres.execute(
        "INSERT INTO session (id, owner, revision, state) VALUES ('\(id)', 'visitor:a', 7, 'x')",
        on: database)
      try await TestPostgres.execute(
        "DELETE FROM schema_migration WHERE id = '3 session keys'", on: database)
      await storage.close()
      let upgraded = try await PostgresStorage.open(url: url)
      #expect(try await upgraded.storedSessionKeys() == [SessionKey.of(id)])
      #expect(try await upgraded.savedSession(id: id)?.revision == 7)
      await upgraded.close()
    }
  }

  @Test func aClosedStorageFailsWithoutHanging() async throws {
    try await TestPostgres.withDatabase { url in
      let storage = try await PostgresStorage.open(url: url, operationTimeout: .seconds(2))
      await storage.close()
      await #expect(throws: StorageError.self) { try await storage.favorites(owner: "ada") }
    }
  }
}

struct RequiredServicesTests {
  @Test func postgresIsThereWhenTheRunRequiresIt() {
    #expect(
      !TestPostgres.isRequired || TestPostgres.isAvailable,
      "APP_TEST_SERVICES=required but TEST_DATABASE_URL is not set")
  }
}
