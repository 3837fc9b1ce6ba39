import AppConfiguration
import AppTerminal
import ComposableArchitecture
import Dependencies
import FavoriteClient
import FavoriteClientLive
import Foundation
import LivePostgres
import LiveStorage
import Logging
import SettingsClient
import SettingsClientLive
import Synchronization
import WebFrontend
import WebSessions

/// The storage an executable opened — one SQLite file, or a PostgreSQL database — closed when it
/// stops.
enum OpenedStorage: CustomStringConvertible, Sendable {
  case sqlite(SQLiteStorage)
  case postgres(PostgresStorage)

  /// Opens what `settings` name (`--database-url`/`DATABASE_URL`, else `--database`/
  /// `APP_DATABASE`, else `fileName` in the user's data directory). A database that cannot be
  /// opened — a bad URL, a server that cannot be reached, a file that is not a database — is
  /// an error here, before anything is served.
  static func open(
    _ settings: ConfigurationReader, fileName: String, logger: Logger
  ) async throws -> OpenedStorage {
    switch try settings.storage() {
    case .sqlite(let path):
      let path = try StorageLocation.databasePath(flag: path, fileName: fileName)
      return .sqlite(try StorageLocation.open(path))
    case .postgres(let url):
      return .postgres(try await PostgresStorage.open(url: url, logger: logger))
    }
  }

  var storage: any Storage {
    switch self {
    case .sqlite(let storage): storage
    case .postgres(let storage): storage
    }
  }

  var description: String {
    switch self {
    case .sqlite(let storage): storage.path
    case .postgres(let storage): storage.url.description
    }
  }

  func close() async {
    if case .postgres(let storage) = self { await storage.close() }
  }

  /// The favorite and settings clients of one owner's rows.
  func clients(owner: String) -> DependencyOverrides {
    let favoriteClient = FavoriteClient.live(storage: storage, owner: owner)
    let settingsClient = SettingsClient.live(storage: storage, owner: owner)
    return { values in
      values.favoriteClient = favoriteClient
      values.settingsClient = settingsClient
    }
  }

  /// The terminal app's kept counters and tab: the owner's row in the table of saved sessions,
  /// named `terminal:<owner>` (stored, like every saved session, under its key's hash). Each
  /// run is a holder of its own: its load claims the row, so the run started last keeps its
  /// counters, and an older run still open is told its saves are refused.
  func keptApp(owner: String) -> KeptAppClient {
    let (storage, id, holder) = (storage, "terminal:" + owner, UUID().uuidString)
    let revision = Mutex(0)
    return KeptAppClient(
      load: {
        if let saved = try await storage.claimSession(id: id, owner: owner, holder: holder) {
          revision.withLock { $0 = saved.revision }
          return saved.state.isEmpty ? nil : saved.state
        }
        // Nothing kept yet: this run makes the row (empty) now, so that a run started after it
        // claims it even before this one saves anything. When another run made it first, this
        // one claims it — it started later.
        let empty = SessionRow(owner: owner, revision: 0, state: Data(), holder: holder)
        if try await storage.saveSession(empty, id: id) { return nil }
        let saved = try await storage.claimSession(id: id, owner: owner, holder: holder)
        revision.withLock { $0 = saved?.revision ?? 0 }
        return saved.flatMap { $0.state.isEmpty ? nil : $0.state }
      },
      save: { state in
        let next = revision.withLock { revision in
          revision += 1
          return revision
        }
        let session = SessionRow(owner: owner, revision: next, state: state, holder: holder)
        guard try await storage.saveSession(session, id: id) else {
          throw KeptAppClient.Superseded()
        }
      })
  }
}

extension OpenedStorage {
  /// How a visitor's rows name their owner.
  private static let visitorPrefix = "visitor:"

  /// The owner of a visitor's rows.
  static func owner(_ visitor: VisitorID) -> String {
    visitorPrefix + visitor.rawValue
  }

  /// The visitor that owns rows of `owner`, if a visitor does.
  static func visitor(owning owner: String) -> VisitorID? {
    guard owner.hasPrefix(visitorPrefix) else { return nil }
    return VisitorID(owner.dropFirst(visitorPrefix.count))
  }

  /// The server's view of this storage: each visitor's favorites and settings, and saved
  /// sessions, so that they survive a restart and move between instances that share it.
  var serverStorage: ServerStorage {
    let storage = self.storage
    return ServerStorage(
      description: description,
      visitorData: { visitor in self.clients(owner: Self.owner(visitor)) },
      savedSessions: SavedSessions(
        load: { id in
          guard let saved = try await storage.savedSession(id: id.rawValue) else { return nil }
          return Self.resumable(saved)
        },
        claim: { id, visitor, holder in
          try await storage.claimSession(
            id: id.rawValue, owner: Self.owner(visitor), holder: holder
          ).flatMap(Self.resumable)
        },
        save: { entries in
          let refused = try await storage.saveSessions(
            entries.map { id, entry in
              (
                id: id.rawValue,
                session: SessionRow(
                  owner: Self.owner(entry.visitor), revision: entry.revision, state: entry.state,
                  holder: entry.holder)
              )
            })
          return Set(refused.compactMap { SessionID($0) })
        },
        delete: { id, holder in try await storage.deleteSession(id: id.rawValue, heldBy: holder) },
        prune: { date in try await storage.deleteSessions(savedBefore: date) },
        quarantine: { id, reason in
          try await storage.quarantineSession(id: id.rawValue, reason: reason)
        }),
      close: { await self.close() })
  }
}

extension OpenedStorage {
  /// A saved row as the server sees it; `nil` for a row that no visitor owns.
  private static func resumable(_ saved: SessionRow) -> SavedSessions.SavedSession? {
    visitor(owning: saved.owner).map { visitor in
      SavedSessions.SavedSession(
        visitor: visitor, revision: saved.revision, state: saved.state, holder: saved.holder)
    }
  }
}

extension ServerStorage {
  /// With `failureRate` (`--favorite-failure-rate`), favorites are saved by the seed's simulated
  /// service (a second's wait, failing that often, kept for the session) instead of this storage:
  /// a demonstration of the seed's faults. Settings stay in the storage.
  func simulatingFavorites(failureRate: Double?) -> ServerStorage {
    guard let failureRate else { return self }
    var storage = self
    let kept = visitorData
    storage.visitorData = { visitor in
      let overrides = kept(visitor)
      return { values in
        overrides(&values)
        values.favoriteClient = .simulated(failureRate: failureRate)
      }
    }
    return storage
  }
}
