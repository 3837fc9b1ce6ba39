import AppConfiguration
import Dependencies
import Foundation
import LiveHTTP
import RandomNumberClient

extension RandomNumberClient: DependencyKey {
  /// Configured from the environment (see ``RandomNumberClient/Configuration``): by default the
  /// system's secure generator, which works offline.
  ///
  /// If a variable is set but invalid, ``fetch`` throws the ``ConfigurationError``.
  public static let liveValue: RandomNumberClient = {
    do throws(ConfigurationError) {
      return .live(
        configuration: try Configuration(environment: ProcessInfo.processInfo.environment))
    } catch {
      return Self(fetch: { _, _ in throw error })
    }
  }()

  /// A client that draws numbers as `configuration` says.
  ///
  /// Both sources first check the range and throw ``RandomNumberRangeError`` when `min > max`.
  ///
  /// ```swift
  /// let dice = RandomNumberClient.live(configuration: .init(source: .system))
  /// let roll = try await dice.fetch(min: 1, max: 6)
  /// ```
  public static func live(configuration: Configuration) -> Self {
    switch configuration.source {
    case .system:
      return Self(fetch: { min, max in
        let range = try RandomNumberRangeError.validatedRange(min: min, max: max)
        var generator = SystemRandomNumberGenerator()
        return Int.random(in: range, using: &generator)
      })
    case .http:
      let api = RandomNumberAPI(baseURL: configuration.baseURL, timeout: configuration.timeout)
      return Self(fetch: { min, max in
        try await api.fetch(in: RandomNumberRangeError.validatedRange(min: min, max: max))
      })
    }
  }
}
