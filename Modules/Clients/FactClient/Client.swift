import Dependencies
import DependenciesMacros

/// Fetches a short text fact about a number.
///
/// Features depend on this interface only; `FactClientLive` asks the number-trivia service and
/// only executables link it.
///
/// ```swift
/// @Dependency(\.factClient) var factClient
///
/// let fact = try await factClient.fetch(42)
/// ```
@DependencyClient
public struct FactClient: Sendable {
  /// Returns a fact about the number, as plain text.
  public var fetch: @Sendable (Int) async throws -> String
}
