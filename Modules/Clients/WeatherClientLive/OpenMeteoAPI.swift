import Foundation
import LiveHTTP
import WeatherClient

/// The two Open-Meteo endpoints the live client uses.
struct OpenMeteoAPI: Sendable {
  let configuration: WeatherClient.Configuration
  let geocoding: HTTPRequester
  let forecasts: HTTPRequester

  init(configuration: WeatherClient.Configuration) {
    self.configuration = configuration
    self.geocoding = HTTPRequester(service: "Open-Meteo geocoding", timeout: configuration.timeout)
    self.forecasts = HTTPRequester(service: "Open-Meteo forecast", timeout: configuration.timeout)
  }

  /// `GET <geocoding>/v1/search?name=<query>`.
  func search(query: String) async throws -> GeocodingSearch {
    let url = try self.searchURL(query: query)
    return try await self.geocoding.decode(
      GeocodingSearch.self, from: url, decoder: .openMeteo(),
      rejectionReason: OpenMeteoErrorBody.reason(in:))
  }

  /// `GET <forecast>/v1/forecast?latitude&longitude&daily=…&timezone[&temperature_unit]`.
  func forecast(
    location: GeocodingSearch.Result, unit: TemperatureUnit = .celsius
  ) async throws -> Forecast {
    let url = try self.forecastURL(location: location, unit: unit)
    return try await self.forecasts.decode(
      Forecast.self, from: url, decoder: .openMeteo(),
      rejectionReason: OpenMeteoErrorBody.reason(in:))
  }

  func searchURL(query: String) throws(HTTPServiceError) -> URL {
    try Endpoint.url(
      base: self.configuration.geocodingBaseURL, path: "/v1/search",
      query: [("name", query)], service: self.geocoding.service)
  }

  /// Celsius is Open-Meteo's default, so it is not sent.
  func forecastURL(
    location: GeocodingSearch.Result, unit: TemperatureUnit
  ) throws(HTTPServiceError) -> URL {
    var query: [(name: String, value: String)] = [
      ("latitude", "\(location.latitude)"),
      ("longitude", "\(location.longitude)"),
      ("daily", "temperature_2m_max,temperature_2m_min"),
      ("timezone", self.configuration.forecastTimeZone),
    ]
    if unit != .celsius {
      query.append(("temperature_unit", unit.rawValue))
    }
    return try Endpoint.url(
      base: self.configuration.forecastBaseURL, path: "/v1/forecast", query: query,
      service: self.forecasts.service)
  }
}

/// The body Open-Meteo sends with a 4xx: `{"error":true,"reason":"…"}`.
private struct OpenMeteoErrorBody: Decodable {
  var error: Bool
  var reason: String

  @Sendable static func reason(in body: Data) -> String? {
    guard let decoded = try? JSONDecoder().decode(Self.self, from: body), decoded.error
    else { return nil }
    return decoded.reason
  }
}
