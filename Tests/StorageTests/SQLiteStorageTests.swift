import FavoriteClient
import FavoriteClientLive
import Foundation
import GRDB
import LiveStorage
import SettingsClient
import SettingsClientLive
import Testing

/// A fresh folder for one test's database files.
private func temporaryFolder() throws -> URL {
  let folder = FileManager.default.temporaryDirectory
    .appending(path: "storage-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  return folder
}

struct SQLiteStorageTests {
  let folder: URL
  var path: String { folder.appending(path: "nested/app.sqlite").path }

  init() throws {
    folder = try temporaryFolder()
  }

  @Test func aFileIsInWALMode() async throws {
    #expect(try await SQLiteStorage(path: path).journalMode() == "wal")
    #expect(try await SQLiteStorage(path: path).journalMode() == "wal")
  }

  @Test func aPathThatCannotHoldADatabaseIsRefusedWithItsName() throws {
    let file = folder.appending(path: "plain-file")
    try Data("not a folder".utf8).write(to: file)
    let error = #expect(throws: StorageError.self) {
      try SQLiteStorage(path: file.appending(path: "app.sqlite").path)
    }
    #expect(
      error?.message.hasPrefix("The database \(file.path)/app.sqlite could not be opened") == true)
  }

  @Test func aFileThatIsNotADatabaseIsRefused() throws {
    let file = folder.appending(path: "garbage.sqlite")
    try Data(repeating: 0x5A, count: 4096).write(to: file)
    let error = #expect(throws: StorageError.self) { try SQLiteStorage(path: file.path) }
    #expect(error?.message.contains("not a database") == true, "\(error?.message ?? "")")
  }

  /// A session saved under its id by an earlier version is found under its key after the
  /// upgrade (the "3 session keys" migration).
  @Test func theUpgradeStoresOldSessionsUnderTheirKeys() async throws {
    let id = "0123456789abcdef0123456789abcdef"
    try FileManager.default.createDirectory(
      atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
    do {
      let old = try DatabaseQueue(path: path)
      try SQLiteStorage.migrator.migrate(old, upTo: "2 sessions")
      try await old.write { db in
        try db.execute(
          sql: "INSERT INTO session (id, owner, revision, state, saved_at) VALUES (?, ?, 7, ?, 0)",
          arguments: [id, "visitor:a", Data("x".utf8)])
      }
    }
    let upgraded = try SQLiteStorage(path: path)
    #expect(try await upgraded.storedSessionKeys() == [SessionKey.of(id)])
    #expect(try await upgraded.savedSession(id: id)?.revision == 7)
  }

  /// The database holds visitors' data: what the storage creates only its user may read.
  @Test func aNewDatabaseAndItsFolderAreReadableByTheirUserOnly() async throws {
    try FileManager.default.setAttributes([.posixPermissions: 0o750], ofItemAtPath: folder.path)
    let storage = try SQLiteStorage(path: path)
    try await storage.setFavorite(true, episode: UUID(), owner: "ada")
    let files = FileManager.default
    func mode(_ path: String) throws -> Int {
      try #require(files.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }
    #expect(try mode((path as NSString).deletingLastPathComponent) == 0o700)
    for file in [path, path + "-wal", path + "-shm"] {
      #expect(try mode(file) == 0o600, "\(file)")
    }
    // A folder that existed keeps its mode.
    #expect(try mode(folder.path) == 0o750)
  }

  @Test func inMemoryStorageKeepsNothingBetweenValues() async throws {
    let first = try SQLiteStorage(inMemory: ())
    try await first.setFavorite(true, episode: UUID(), owner: "ada")
    #expect(try await first.favorites(owner: "ada").count == 1)
    #expect(try await SQLiteStorage(inMemory: ()).favorites(owner: "ada") == [])
  }
}

struct LiveClientsTests {
  @Test func favoriteClientSavesAndLoadsItsOwnersChoices() async throws {
    let storage = try SQLiteStorage(inMemory: ())
    let ada = FavoriteClient.live(storage: storage, owner: "ada")
    let grace = FavoriteClient.live(storage: storage, owner: "grace")
    let episode = UUID()
    #expect(try await ada.favorite(episode, true) == true)
    #expect(try await ada.favorites() == [episode])
    #expect(try await grace.favorites() == [])
    #expect(try await ada.favorite(episode, false) == false)
    #expect(try await ada.favorites() == [])
  }

  @Test func settingsClientRoundTripsEveryValue() async throws {
    let storage = try SQLiteStorage(inMemory: ())
    let client = SettingsClient.live(storage: storage, owner: "ada")
    #expect(try await client.load() == StoredSettings())
    let settings = StoredSettings(
      digest: "weekly", displayName: "Ada, \"the\" first 🧮", enableNotifications: true,
      isHapticFeedbackEnabled: false, protectMyPosts: true, sendEmailNotifications: true,
      sendMobileNotifications: false, temperatureUnit: "fahrenheit")
    try await client.save(settings)
    #expect(try await client.load() == settings)
    try await client.save(StoredSettings(displayName: "Ada"))
    #expect(try await client.load() == StoredSettings(displayName: "Ada"))
  }

  @Test func storedValuesThisVersionCannotReadAreNil() async throws {
    let storage = try SQLiteStorage(inMemory: ())
    try await storage.replaceSettings(
      ["enableNotifications": "maybe", "protectMyPosts": "true", "fromTheFuture": "x"],
      owner: "ada")
    let loaded = try await SettingsClient.live(storage: storage, owner: "ada").load()
    #expect(loaded == StoredSettings(enableNotifications: nil, protectMyPosts: true))
  }
}
