import AppConfiguration
import AppTerminal
import Dependencies
import FavoriteClient
import Foundation
import Testing
import WebFrontend
import WebSessions

@testable import AppComposition

/// The composition root builds what both executables run on.
struct CompositionTests {
  @Test func aBadVariableOfALiveClientIsAnErrorBeforeAnythingRuns() {
    let settings = ConfigurationReader(["WEATHER_FORECAST_BASE_URL": "api.open-meteo.com"])
    for composition in [AppComposition.terminal.clients, AppComposition.server.clients] {
      #expect {
        _ = try composition(settings, false)
      } throws: { error in
        (error as? ConfigurationError)?.name == "WEATHER_FORECAST_BASE_URL"
      }
    }
  }

  @Test func offlineRefusesABadServiceSettingAsOnlineDoes() throws {
    // Offline the live clients are not used, but a bad value is still refused, as the flag
    // that replaces it is: one rule for bad input (`HTTP_TIMEOUT_SECONDS=soon` as
    // `--timeout soon`).
    let settings = ConfigurationReader(["HTTP_TIMEOUT_SECONDS": "soon"])
    for composition in [AppComposition.terminal.clients, AppComposition.server.clients] {
      #expect {
        _ = try composition(settings, true)
      } throws: { error in
        (error as? ConfigurationError)?.name == "HTTP_TIMEOUT_SECONDS"
      }
    }
    // Unset ones are not needed.
    for composition in [AppComposition.terminal.clients, AppComposition.server.clients] {
      #expect(throws: Never.self) { _ = try composition(ConfigurationReader([:]), true) }
    }
  }

  @Test func theTerminalKeepsTheLocalProfilesData() async throws {
    let settings = ConfigurationReader(["APP_DATABASE": ":memory:"])
    let kept = try await AppComposition.terminal.storage(settings)
    var values = DependencyValues()
    kept(&values)
    try await withDependencies {
      $0 = values
    } operation: {
      @Dependency(\.favoriteClient) var favoriteClient
      let episode = UUID()
      let saved = try await favoriteClient.favorite(episode, true)
      let favorites = try await favoriteClient.favorites()
      #expect(saved)
      #expect(favorites == [episode])
    }
  }

  /// The terminal's counters are kept in the profile's database between runs; the run started
  /// last holds them, and an older run still open is refused rather than overwriting them.
  @Test func theTerminalKeepsItsCountersForTheRunStartedLast() async throws {
    let database = TemporaryDatabase()
    defer { database.remove() }
    let keptApp = database.keptApp
    let first = try await keptApp()
    #expect(try await first.load() == nil)
    try await first.save(Data("one".utf8))
    try await first.save(Data("two".utf8))
    let second = try await keptApp()
    #expect(try await second.load() == Data("two".utf8))
    await #expect(throws: KeptAppClient.Superseded.self) {
      try await first.save(Data("stale".utf8))
    }
    try await second.save(Data("three".utf8))
    #expect(try await keptApp().load() == Data("three".utf8))
  }

  /// On a new database too: the run started later holds the counters before either saved
  /// anything (found by the black-box check: the earlier run kept saving).
  @Test func onANewDatabaseTheRunStartedLastHoldsTheCountersAtOnce() async throws {
    let database = TemporaryDatabase()
    defer { database.remove() }
    let keptApp = database.keptApp
    let (earlier, later) = (try await keptApp(), try await keptApp())
    #expect(try await earlier.load() == nil)
    #expect(try await later.load() == nil)
    await #expect(throws: KeptAppClient.Superseded.self) {
      try await earlier.save(Data("earlier".utf8))
    }
    try await later.save(Data("later".utf8))
    #expect(try await keptApp().load() == Data("later".utf8))
  }

  @Test func theServerSavesSessionsForTheirVisitorOnly() async throws {
    let storage = try await AppComposition.server.openStorage(
      ConfigurationReader(["APP_DATABASE": ":memory:"]), .init(label: "test"))
    #expect(storage.description == ":memory:")
    let session = SessionID()
    let visitor = VisitorID()
    let entry = SavedSessions.SavedSession(visitor: visitor, revision: 3, state: Data("{}".utf8))
    try await storage.savedSessions.save(session, entry)
    #expect(try await storage.savedSessions.load(session) == entry)
    try await storage.savedSessions.delete(session)
    #expect(try await storage.savedSessions.load(session) == nil)
    await storage.close()
  }

  @Test func anUnreachableDatabaseStopsTheServerWithTheReason() async {
    await #expect {
      _ = try await AppComposition.server.openStorage(
        ConfigurationReader(["DATABASE_URL": "mysql://app:s3cret@127.0.0.1/app"]),
        .init(label: "test"))
    } throws: { error in
      let message = error.localizedDescription
      return message.contains("mysql") && !message.contains("s3cret")
    }
  }
}

/// A terminal profile's database file in a folder of its own; each ``keptApp()`` is the kept
/// counters' client of one more app-cli run on it.
struct TemporaryDatabase {
  let folder = FileManager.default.temporaryDirectory
    .appendingPathComponent("kept-app-\(UUID().uuidString)")

  func keptApp() async throws -> KeptAppClient {
    let settings = ConfigurationReader([
      "APP_DATABASE": folder.appendingPathComponent("app.sqlite").path
    ])
    var values = DependencyValues()
    try await AppComposition.terminal.storage(settings)(&values)
    return values.keptApp
  }

  func remove() {
    try? FileManager.default.removeItem(at: folder)
  }
}
