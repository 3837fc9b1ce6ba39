import Dependencies
import DependenciesMacros

/// Looks up places and their weather forecast.
///
/// Features depend on this interface only. The implementation that talks to Open-Meteo lives in
/// `WeatherClientLive`, which only executables link.
///
/// ```swift
/// @Dependency(\.weatherClient) var weatherClient
///
/// let places = try await weatherClient.search(query: "Berlin")
/// let forecast = try await weatherClient.forecast(location: places.results[0])
/// ```
///
/// In tests every endpoint is unimplemented (``testValue``): override the ones a test expects to
/// be called.
@DependencyClient
public struct WeatherClient: Sendable {
  /// Fetches the daily forecast of a place, in degrees Celsius.
  public var forecast: @Sendable (_ location: GeocodingSearch.Result) async throws -> Forecast

  /// Fetches the daily forecast of a place in the given temperature unit.
  ///
  /// Prefer the ``forecast(location:unit:)`` spelling at call sites.
  public var forecastInUnit:
    @Sendable (_ location: GeocodingSearch.Result, _ unit: TemperatureUnit) async throws -> Forecast

  /// Searches places whose name matches `query`.
  ///
  /// No match is not an error: it gives a ``GeocodingSearch`` with no results.
  public var search: @Sendable (_ query: String) async throws -> GeocodingSearch
}

extension WeatherClient {
  /// Fetches the daily forecast of a place in the given temperature unit.
  ///
  /// ```swift
  /// let forecast = try await weatherClient.forecast(location: place, unit: .fahrenheit)
  /// ```
  public func forecast(
    location: GeocodingSearch.Result, unit: TemperatureUnit
  ) async throws -> Forecast {
    try await self.forecastInUnit(location: location, unit: unit)
  }
}
