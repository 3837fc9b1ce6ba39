import AppConfiguration
import Dependencies
import FactClient
import Foundation
import LiveHTTP

extension FactClient: DependencyKey {
  /// The number-trivia service, configured from the environment (see
  /// ``FactClient/Configuration``).
  ///
  /// If a variable is set but invalid, ``fetch`` throws the ``ConfigurationError``.
  public static let liveValue: FactClient = {
    do throws(ConfigurationError) {
      return .live(
        configuration: try Configuration(environment: ProcessInfo.processInfo.environment))
    } catch {
      return Self(fetch: { _ in throw error })
    }
  }()

  /// A client that asks the number-trivia service as `configuration` says.
  ///
  /// ```swift
  /// let facts = FactClient.live(configuration: .init())
  /// let fact = try await facts.fetch(42)
  /// ```
  public static func live(configuration: Configuration) -> Self {
    let api = NumberTriviaAPI(baseURL: configuration.baseURL, timeout: configuration.timeout)
    return Self(fetch: { number in try await api.fact(about: number) })
  }
}
