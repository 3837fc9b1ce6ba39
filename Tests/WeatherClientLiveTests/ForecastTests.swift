import FixtureServer
import Foundation
import LiveHTTP
import Testing
import WeatherClient
import WeatherClientLive

struct ForecastTests {
  @Test func forecastDecodesDailyTemperatures() async throws {
    try await withFixtureServer(routes: ["/v1/forecast": try fixture("forecast-equator-7d")]) {
      server in
      let forecast = try await liveClient(server).forecast(location: berlin)
      #expect(forecast.daily.temperatureMax == [28.1, 27.8, 27.5, 27.4, 27.6, 27.3, 27.5])
      #expect(forecast.daily.temperatureMin == [27.5, 26, 26.8, 26.8, 26.9, 26.6, 26.9])
      #expect(forecast.daily.time.count == 7)
      #expect(forecast.daily.time.first == (try day("2026-05-24")))
      #expect(forecast.daily.time.last == (try day("2026-05-30")))
      #expect(
        forecast.dailyUnits == Forecast.DailyUnits(temperatureMax: "°C", temperatureMin: "°C"))
    }
  }

  @Test func forecastRequestsBothDailySeriesWithoutAUnit() async throws {
    try await withFixtureServer(routes: ["/v1/forecast": try fixture("forecast-equator-7d")]) {
      server in
      _ = try await liveClient(server).forecast(location: berlin)
      _ = try await liveClient(server).forecast(location: berlin, unit: .celsius)
      let target =
        "/v1/forecast?latitude=52.52437&longitude=13.41053"
        + "&daily=temperature_2m_max,temperature_2m_min&timezone=Europe/Berlin"
      #expect(server.requests.map(\.target) == [target, target])
    }
  }

  @Test func forecastInFahrenheitAsksForTheUnit() async throws {
    try await withFixtureServer(routes: ["/v1/forecast": try fixture("forecast-equator-7d")]) {
      server in
      let location = GeocodingSearch.Result(
        country: "United States", latitude: 40.6782, longitude: -73.9442, id: 1, name: "Brooklyn")
      _ = try await liveClient(server).forecast(location: location, unit: .fahrenheit)
      #expect(
        server.requests.map(\.target) == [
          "/v1/forecast?latitude=40.6782&longitude=-73.9442"
            + "&daily=temperature_2m_max,temperature_2m_min&timezone=Europe/Berlin"
            + "&temperature_unit=fahrenheit"
        ])
    }
  }

  @Test func forecastIgnoresExtraDailySeries() async throws {
    try await withFixtureServer(routes: ["/v1/forecast": try fixture("forecast-norwich-8d")]) {
      server in
      let forecast = try await liveClient(server).forecast(location: berlin)
      #expect(forecast.daily.time.count == 8)
      #expect(forecast.daily.temperatureMax.first == 16.5)
      #expect(forecast.daily.time[5] == (try day("2025-06-01")))
    }
  }

  @Test func forecastSurfacesOpenMeteoErrorReason() async throws {
    try await withFixtureServer(
      routes: ["/v1/forecast": try fixture("forecast-error-400", status: 400)]
    ) { server in
      let error = await #expect(throws: HTTPServiceError.self) {
        try await liveClient(server).forecast(location: berlin)
      }
      #expect(
        error?.cause
          == .rejected(
            status: 400, reason: "Latitude must be in range of -90 to 90°. Given: 123.0."))
      #expect(
        error?.description
          == "Open-Meteo forecast: HTTP 400: Latitude must be in range of -90 to 90°. Given: 123.0."
      )
    }
  }

  @Test func forecastNamesTheBadDayInAnUndecodableBody() async throws {
    let body = #"""
      {"daily_units":{"temperature_2m_max":"°C","temperature_2m_min":"°C"},
       "daily":{"time":["2026-05-24","2026-05-25","tomorrow"],
                "temperature_2m_max":[1,2,3],"temperature_2m_min":[0,1,2]}}
      """#
    try await withFixtureServer(routes: ["/v1/forecast": .json(body)]) { server in
      let error = await #expect(throws: HTTPServiceError.self) {
        try await liveClient(server).forecast(location: berlin)
      }
      guard case .undecodableBody(let path, _) = error?.cause else {
        Issue.record("expected an undecodable body, got \(String(describing: error))")
        return
      }
      #expect(path == "daily.time[2]")
      #expect(
        error?.description.hasPrefix(
          "Open-Meteo forecast: response body does not decode at daily.time[2]") == true)
    }
  }

  @Test func forecastSurfacesHTTPStatus() async throws {
    try await withFixtureServer(routes: ["/v1/forecast": .status(502)]) { server in
      let error = await #expect(throws: HTTPServiceError.self) {
        try await liveClient(server).forecast(location: berlin)
      }
      #expect(error?.description == "Open-Meteo forecast: HTTP 502")
    }
  }
}
