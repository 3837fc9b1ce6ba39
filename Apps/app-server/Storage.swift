import FavoriteClient
import FavoriteClientLive
import LivePostgres
import LiveStorage
import SettingsClient
import SettingsClientLive
import WebFrontend

/// The storage the server opened, closed when it stops.
enum OpenedStorage: CustomStringConvertible {
  case sqlite(SQLiteStorage)
  case postgres(PostgresStorage)

  var storage: any AppStorage {
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

  /// A visitor's favorites and settings, kept in this storage.
  var visitorData: SessionRegistry.VisitorData {
    { [storage] visitor in
      let favoriteClient = FavoriteClient.live(storage: storage, owner: Self.owner(visitor))
      let settingsClient = SettingsClient.live(storage: storage, owner: Self.owner(visitor))
      return { values in
        values.favoriteClient = favoriteClient
        values.settingsClient = settingsClient
      }
    }
  }

  /// Sessions saved in this storage, so that they survive a restart and move between instances
  /// that share it.
  var sessionArchive: SessionArchive {
    let storage = self.storage
    return SessionArchive(
      load: { id in
        guard let saved = try await storage.savedSession(id: id.rawValue),
          let visitor = Self.visitor(owning: saved.owner)
        else { return nil }
        return SessionArchive.Entry(visitor: visitor, revision: saved.revision, state: saved.state)
      },
      save: { id, entry in
        try await storage.saveSession(
          SavedSession(
            owner: Self.owner(entry.visitor), revision: entry.revision, state: entry.state),
          id: id.rawValue)
      },
      delete: { id in try await storage.deleteSession(id: id.rawValue) },
      prune: { date in try await storage.deleteSessions(savedBefore: date) })
  }
}
