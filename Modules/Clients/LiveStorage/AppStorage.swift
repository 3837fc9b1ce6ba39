import Foundation

/// Where the app keeps what must survive a restart: favorite episodes and settings, each
/// belonging to an owner (the local profile in `app-cli`, a visitor in `app-server`).
///
/// The live clients (`FavoriteClientLive`, `SettingsClientLive`) are written against this
/// protocol; ``SQLiteStorage`` is the embedded implementation that needs nothing installed.
/// Every write is one transaction. A write whose task is cancelled before it commits throws
/// `CancellationError` and changes nothing.
public protocol AppStorage: Sendable {
  /// The ids of the owner's favorite episodes.
  func favorites(owner: String) async throws -> Set<UUID>
  /// Marks an episode as a favorite of the owner, or unmarks it.
  func setFavorite(_ isFavorite: Bool, episode: UUID, owner: String) async throws
  /// The owner's saved settings, by name; empty when nothing was saved.
  func settings(owner: String) async throws -> [String: String]
  /// Replaces all of the owner's saved settings with `values`.
  func replaceSettings(_ values: [String: String], owner: String) async throws
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
