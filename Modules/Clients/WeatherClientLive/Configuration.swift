import AppConfiguration
import Foundation
import WeatherClient

extension WeatherClient {
  /// Where and how the live client reaches Open-Meteo.
  ///
  /// Build it in code (an executable's flags), or from the environment:
  ///
  /// | variable | default |
  /// |---|---|
  /// | `WEATHER_GEOCODING_BASE_URL` | `https://geocoding-api.open-meteo.com` |
  /// | `WEATHER_FORECAST_BASE_URL` | `https://api.open-meteo.com` |
  /// | `WEATHER_FORECAST_TIMEZONE` | `auto`: the place's own time zone |
  /// | `WEATHER_TIMEOUT_SECONDS` | `HTTP_TIMEOUT_SECONDS`, else 10 |
  ///
  /// ```swift
  /// let client = WeatherClient.live(
  ///   configuration: .init(forecastBaseURL: URL(string: "http://127.0.0.1:8080")!))
  /// ```
  public struct Configuration: Hashable, Sendable {
    /// The base of the geocoding API; requests go to `<base>/v1/search`.
    public var geocodingBaseURL: URL
    /// The base of the forecast API; requests go to `<base>/v1/forecast`.
    public var forecastBaseURL: URL
    /// The time zone the forecast's days are counted in (Open-Meteo's `timezone` parameter):
    /// by default `auto`, the place's own, so that a forecast starts on the place's today — the
    /// same rule as the offline client's.
    public var forecastTimeZone: String
    /// The longest one request may take.
    public var timeout: Duration

    /// Open-Meteo's public geocoding API.
    public static let defaultGeocodingBaseURL = URL(
      string: "https://geocoding-api.open-meteo.com")!
    /// Open-Meteo's public forecast API.
    public static let defaultForecastBaseURL = URL(string: "https://api.open-meteo.com")!
    /// Open-Meteo's time zone of the coordinates themselves.
    public static let placesTimeZone = "auto"
    /// The timeout when none is configured.
    public static let defaultTimeout = Duration.seconds(10)

    /// Creates a configuration; every parameter has Open-Meteo's public default.
    public init(
      geocodingBaseURL: URL = Self.defaultGeocodingBaseURL,
      forecastBaseURL: URL = Self.defaultForecastBaseURL,
      forecastTimeZone: String = Self.placesTimeZone,
      timeout: Duration = Self.defaultTimeout
    ) {
      self.geocodingBaseURL = geocodingBaseURL
      self.forecastBaseURL = forecastBaseURL
      self.forecastTimeZone = forecastTimeZone
      self.timeout = timeout
    }

    /// Reads the configuration from environment variables (see the table above); unset
    /// variables keep their defaults.
    ///
    /// - Throws: ``ConfigurationError`` naming the first variable that is set but invalid.
    public init(
      environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigurationError) {
      try self.init(settings: ConfigurationReader(environment))
    }

    /// Reads the configuration from `settings`: the variables above, or the flags that replace
    /// them; unset ones keep their defaults.
    ///
    /// - Throws: ``ConfigurationError`` naming the first flag or variable that is set but
    ///   invalid.
    public init(settings environment: ConfigurationReader) throws(ConfigurationError) {
      self.init(
        geocodingBaseURL: try environment.url(
          "WEATHER_GEOCODING_BASE_URL", default: Self.defaultGeocodingBaseURL),
        forecastBaseURL: try environment.url(
          "WEATHER_FORECAST_BASE_URL", default: Self.defaultForecastBaseURL),
        forecastTimeZone: environment.string("WEATHER_FORECAST_TIMEZONE") ?? Self.placesTimeZone,
        timeout: try environment.timeout("WEATHER_TIMEOUT_SECONDS", default: Self.defaultTimeout)
      )
    }
  }
}
