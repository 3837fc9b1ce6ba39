import Foundation
import Testing
import WeatherClient
import WeatherClientOffline

/// The bundled gazetteer (loaded once per test process).
func bundled() throws -> Gazetteer {
  try Gazetteer.bundled()
}

/// The first place the bundled gazetteer finds for `query`.
func firstPlace(_ query: String) throws -> GeocodingSearch.Result {
  try #require(try bundled().search(query).first, "no place found for \"\(query)\"")
}

/// An instant, from ISO 8601 text such as `2026-01-15T20:00:00Z`.
func instant(_ text: String) throws -> Date {
  try #require(ISO8601DateFormatter().date(from: text), "not an ISO 8601 instant: \(text)")
}

/// Midnight UTC of `day` (`yyyy-MM-dd`), how forecasts date their days.
func day(_ text: String) throws -> Date {
  try #require(DateFormatter.openMeteoDay().date(from: text), "not a day: \(text)")
}

/// An offline client whose clock is stopped at `now`.
func client(at now: Date) -> WeatherClient {
  WeatherClient.offline(now: { now })
}

/// A small gazetteer in the bundled file's format, with places out of population order.
let smallGazetteerText = """
  # test gazetteer; columns: geonameid,name,latitude,longitude,country,country_code,admin1,\
  population,timezone,alternates
  10\tSpringfield\t39.8017\t-89.6437\tUnited States\tUS\tIllinois\t114394\tAmerica/Chicago\t
  11\tSpringfield\t37.2153\t-93.2982\tUnited States\tUS\tMissouri\t169176\tAmerica/Chicago\t
  12\tSpringe\t52.2083\t9.5542\tGermany\tDE\t\t29000\tEurope/Berlin\t
  13\tZürich\t47.3667\t8.55\tSwitzerland\tCH\t\t415367\tEurope/Zurich\tZurich|Zuerich|Zurigo|Zürichberg
  14\tSpring Valley\t41.1134\t-74.0437\tUnited States\tUS\tNew York\t33000\tAmerica/New_York\t
  15\tBig Spring\t32.2504\t-101.4787\tUnited States\tUS\tTexas\t28000\tAmerica/Chicago\tSpringtown

  """
