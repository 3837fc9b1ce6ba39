import AppConfiguration
import Dependencies
import Foundation
import LiveHTTP
import WeatherClient

extension WeatherClient: DependencyKey {
  /// Open-Meteo, configured from the environment (see ``WeatherClient/Configuration``).
  ///
  /// If a variable is set but invalid, every endpoint throws the ``ConfigurationError``.
  public static let liveValue: WeatherClient = {
    do throws(ConfigurationError) {
      return .live(
        configuration: try Configuration(environment: ProcessInfo.processInfo.environment))
    } catch {
      return .failing(error)
    }
  }()

  /// A client that calls Open-Meteo as `configuration` says.
  ///
  /// ```swift
  /// let client = WeatherClient.live(configuration: .init(timeout: .seconds(5)))
  /// ```
  public static func live(configuration: Configuration) -> Self {
    let api = OpenMeteoAPI(configuration: configuration)
    return Self(
      forecast: { location in try await api.forecast(location: location) },
      forecastInUnit: { location, unit in try await api.forecast(location: location, unit: unit) },
      search: { query in try await api.search(query: query) }
    )
  }

  /// A client whose every endpoint throws `error`.
  static func failing(_ error: ConfigurationError) -> Self {
    Self(
      forecast: { _ in throw error },
      forecastInUnit: { _, _ in throw error },
      search: { _ in throw error }
    )
  }
}
