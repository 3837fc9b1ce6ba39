import Dependencies
import DependenciesMacros
import Foundation
import Synchronization

/// Loads and saves which episodes are favorites.
///
/// Features depend on this interface only. `FavoriteClientLive` keeps the choices in the app's
/// database (SQLite, embedded, by default), for one owner: the local profile in `app-cli`, a
/// visitor in `app-server`. ``simulated(failureRate:delay:)`` is the seed's stand-in service, kept
/// for tests and demonstrations.
///
/// ```swift
/// @Dependency(\.favoriteClient) var favoriteClient
///
/// let saved = try await favoriteClient.favorite(episode.id, true)
/// let favorites = try await favoriteClient.favorites()
/// ```
@DependencyClient
public struct FavoriteClient: Sendable {
  /// The ids of the episodes marked as favorites.
  public var favorites: @Sendable () async throws -> Set<UUID>
  /// Saves the choice and returns the saved value. A save whose task is cancelled before it is
  /// stored throws `CancellationError` and stores nothing, so of two quick taps only the last one
  /// is kept.
  public var favorite: @Sendable (_ episodeID: UUID, _ isFavorite: Bool) async throws -> Bool
}

/// Why the simulated service failed.
public struct FavoriteError: LocalizedError, Equatable, Sendable {
  public init() {}
  public var errorDescription: String? { "Favoriting failed." }
}

extension FavoriteClient {
  /// The seed's simulated service: each save waits `delay` on the `continuousClock` dependency,
  /// then fails with probability `failureRate` (drawn from the `withRandomNumberGenerator`
  /// dependency); saved choices are kept in memory (``inMemory(_:)``), in this client value. Both
  /// dependencies are the ones in effect when the client is made.
  public static func simulated(
    failureRate: Double = 0.25, delay: Duration = .seconds(1)
  ) -> Self {
    @Dependency(\.continuousClock) var clock
    @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator
    let memory = inMemory()
    return Self(
      favorites: memory.favorites,
      favorite: { id, isFavorite in
        try await clock.sleep(for: delay)
        let roll = withRandomNumberGenerator { Double.random(in: 0..<1, using: &$0) }
        guard roll >= failureRate else { throw FavoriteError() }
        return try await memory.favorite(id, isFavorite)
      })
  }

  /// Choices kept in memory, saved at once and never failing: for tests, and for a process that
  /// is asked to keep nothing.
  public static func inMemory(_ favorites: Set<UUID> = []) -> Self {
    let saved = Mutex(favorites)
    return Self(
      favorites: { saved.withLock { $0 } },
      favorite: { id, isFavorite in
        try Task.checkCancellation()
        saved.withLock { saved in
          if isFavorite { saved.insert(id) } else { saved.remove(id) }
        }
        return isFavorite
      })
  }
}

extension FavoriteClient: TestDependencyKey {
  /// Both endpoints are unimplemented: calling one records a test failure and throws.
  public static let testValue = Self()
  public static let previewValue = Self.simulated()
}

extension DependencyValues {
  /// Loads and saves favorite choices of episodes.
  public var favoriteClient: FavoriteClient {
    get { self[FavoriteClient.self] }
    set { self[FavoriteClient.self] = newValue }
  }
}
