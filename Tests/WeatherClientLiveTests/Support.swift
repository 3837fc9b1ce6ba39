import FixtureServer
import Foundation
import Testing
import WeatherClient
import WeatherClientLive

/// A live client that talks to `server` for both APIs, with a fixed time zone.
func liveClient(
  _ server: FixtureServer, timeout: Duration = .seconds(30)
) -> WeatherClient {
  liveClient(baseURL: server.baseURL, timeout: timeout)
}

func liveClient(baseURL: URL, timeout: Duration = .seconds(30)) -> WeatherClient {
  WeatherClient.live(
    configuration: .init(
      geocodingBaseURL: baseURL, forecastBaseURL: baseURL, forecastTimeZone: "Europe/Berlin",
      timeout: timeout))
}

/// A response whose body is the fixture file `name`.json.
func fixture(_ name: String, status: Int = 200) throws -> FixtureServer.Response {
  let url = try #require(
    Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"))
  return try .json(contentsOf: url, status: status)
}

let berlin = GeocodingSearch.Result(
  country: "Germany", latitude: 52.52437, longitude: 13.41053, id: 2_950_159, name: "Berlin",
  admin1: "Land Berlin")

/// UTC midnight of `day` (`yyyy-MM-dd`).
func day(_ text: String) throws -> Date {
  try #require(DateFormatter.openMeteoDay().date(from: text))
}
