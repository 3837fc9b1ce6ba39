import Dependencies
import DependenciesMacros

/// Produces random integers.
///
/// Features depend on this interface only; `RandomNumberClientLive` provides the system's secure
/// generator or an HTTP source, and only executables link it.
///
/// ```swift
/// @Dependency(\.randomNumberClient) var randomNumberClient
///
/// let roll = try await randomNumberClient.fetch(min: 1, max: 6)
/// ```
@DependencyClient
public struct RandomNumberClient: Sendable {
  /// Returns a random integer in `min...max`, bounds included.
  ///
  /// Throws ``RandomNumberRangeError`` when `min > max`.
  public var fetch: @Sendable (_ min: Int, _ max: Int) async throws -> Int
}
