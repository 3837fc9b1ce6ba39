import Foundation
import WeatherClient

extension WeatherClient {
  /// A client that needs no network: places from the bundled ``Gazetteer`` and forecasts from a
  /// simple climatological model.
  ///
  /// - `search(query:)` is a case- and accent-insensitive prefix match over the names of about
  ///   34,000 places (``Gazetteer/search(_:limit:)``), at most 10 results, most populous first.
  ///   The gazetteer is loaded on the first call, not before.
  /// - `forecast(location:)` and `forecast(location:unit:)` give 7 days starting today in the
  ///   place's time zone (the gazetteer's, found by the place's `id`; UTC for a place it does not
  ///   know), dated as the live client dates days. Temperatures are made up but plausible for the
  ///   latitude and season, and the same for a place and a date on every call.
  ///
  /// ```swift
  /// let client = WeatherClient.offline()
  /// let seoul = try await client.search(query: "seo").results[0]
  /// let forecast = try await client.forecast(location: seoul, unit: .fahrenheit)
  /// ```
  ///
  /// - Parameter now: The current time; tests pin it to make "today" known.
  /// - Returns: A client whose endpoints throw ``GazetteerError`` if the bundled gazetteer cannot
  ///   be loaded (a broken build), and the forecasts ``OfflineWeatherError`` for coordinates out
  ///   of range.
  public static func offline(now: @escaping @Sendable () -> Date = Date.init) -> Self {
    offline(gazetteer: { () throws(GazetteerError) in try Gazetteer.bundled() }, now: now)
  }

  /// A client like ``offline(now:)`` over the places of `gazetteer`.
  ///
  /// ```swift
  /// let gazetteer = try Gazetteer(contentsOf: url)
  /// let client = WeatherClient.offline(gazetteer: gazetteer)
  /// ```
  public static func offline(
    gazetteer: Gazetteer, now: @escaping @Sendable () -> Date = Date.init
  ) -> Self {
    offline(gazetteer: { () throws(GazetteerError) in gazetteer }, now: now)
  }

  private static func offline(
    gazetteer: @escaping @Sendable () throws(GazetteerError) -> Gazetteer,
    now: @escaping @Sendable () -> Date
  ) -> Self {
    @Sendable func forecast(
      _ location: GeocodingSearch.Result, _ unit: TemperatureUnit
    ) throws -> Forecast {
      guard
        OfflineWeatherError.areValid(latitude: location.latitude, longitude: location.longitude)
      else {
        throw OfflineWeatherError(latitude: location.latitude, longitude: location.longitude)
      }
      // The place's local date, as the app's search shows it; for bare coordinates (the
      // one-shot `forecast` command), the nearest place's.
      let places = try gazetteer()
      let identifier =
        places.timeZoneIdentifier(ofPlace: location.id)
        ?? places.timeZoneIdentifier(nearLatitude: location.latitude, longitude: location.longitude)
      let timeZone = identifier.flatMap(TimeZone.init(identifier:)) ?? .gmt
      return OfflineForecast.forecast(
        latitude: location.latitude, longitude: location.longitude, timeZone: timeZone,
        now: now(), unit: unit)
    }
    return Self(
      forecast: { location in try forecast(location, .celsius) },
      forecastInUnit: { location, unit in try forecast(location, unit) },
      search: { query in GeocodingSearch(results: try gazetteer().search(query)) }
    )
  }
}
