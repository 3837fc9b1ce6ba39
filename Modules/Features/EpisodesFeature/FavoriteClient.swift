import ComposableArchitecture
import Foundation

/// Saves whether an episode is a favorite.
///
/// There is no favorites service yet, so executables use ``simulated(failureRate:delay:)``, the
/// seed's stand-in: it takes a second and fails one time in four. A real service gets its own
/// interface and live modules, like the other clients, without touching ``Episodes``.
@DependencyClient
public struct FavoriteClient: Sendable {
  /// Saves the choice and returns the saved value.
  public var favorite: @Sendable (_ episodeID: UUID, _ isFavorite: Bool) async throws -> Bool
}

/// Why the simulated service failed.
public struct FavoriteError: LocalizedError, Equatable, Sendable {
  public init() {}
  public var errorDescription: String? { "Favoriting failed." }
}

extension FavoriteClient {
  /// The seed's simulated request: waits `delay` on the `continuousClock` dependency, then fails
  /// with probability `failureRate` (drawn from the `withRandomNumberGenerator` dependency). Both
  /// dependencies are the ones in effect when the client is made.
  public static func simulated(
    failureRate: Double = 0.25, delay: Duration = .seconds(1)
  ) -> Self {
    @Dependency(\.continuousClock) var clock
    @Dependency(\.withRandomNumberGenerator) var withRandomNumberGenerator
    return Self(favorite: { _, isFavorite in
      try await clock.sleep(for: delay)
      let roll = withRandomNumberGenerator { Double.random(in: 0..<1, using: &$0) }
      guard roll >= failureRate else { throw FavoriteError() }
      return isFavorite
    })
  }
}

extension FavoriteClient: TestDependencyKey {
  public static let testValue = Self()
  public static let previewValue = Self.simulated()
}

extension DependencyValues {
  /// Saves favorite choices of episodes.
  public var favoriteClient: FavoriteClient {
    get { self[FavoriteClient.self] }
    set { self[FavoriteClient.self] = newValue }
  }
}
