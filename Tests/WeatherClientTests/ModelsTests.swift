import Foundation
import Testing
import WeatherClient

struct ModelsTests {
  @Test func geocodingWithoutResultsKeyDecodesAsEmpty() throws {
    let search = try JSONDecoder.openMeteo().decode(
      GeocodingSearch.self, from: Data(#"{"generationtime_ms":0.52}"#.utf8))
    #expect(search == GeocodingSearch(results: []))
  }

  @Test func geocodingResultIgnoresExtraKeysAndAllowsMissingAdmin1() throws {
    let json = #"""
      {"results":[
        {"id":2950159,"name":"Berlin","latitude":52.52437,"longitude":13.41053,"elevation":74.0,
         "postcodes":["10967"],"country":"Germany","admin1":"Land Berlin"},
        {"id":6058560,"name":"London","latitude":42.98339,"longitude":-81.23304,"country":"Canada"}
      ]}
      """#
    let search = try JSONDecoder.openMeteo().decode(GeocodingSearch.self, from: Data(json.utf8))
    #expect(
      search.results == [
        GeocodingSearch.Result(
          country: "Germany", latitude: 52.52437, longitude: 13.41053, id: 2_950_159,
          name: "Berlin", admin1: "Land Berlin"),
        GeocodingSearch.Result(
          country: "Canada", latitude: 42.98339, longitude: -81.23304, id: 6_058_560,
          name: "London"),
      ])
    #expect(search.results[0].id == 2_950_159)
  }

  @Test func geocodingWithNullResultsDecodesAsEmpty() throws {
    let search = try JSONDecoder.openMeteo().decode(
      GeocodingSearch.self, from: Data(#"{"results":null}"#.utf8))
    #expect(search.results.isEmpty)
  }

  @Test func forecastUsesOpenMeteoKeysAndUTCDays() throws {
    let json = #"""
      {"latitude":0,"daily_units":{"time":"iso8601","temperature_2m_max":"°C","temperature_2m_min":"°C"},
       "daily":{"time":["1970-01-01","1970-01-02"],"temperature_2m_max":[28.1,26],
                "temperature_2m_min":[27.5,26.8]}}
      """#
    let forecast = try JSONDecoder.openMeteo().decode(Forecast.self, from: Data(json.utf8))
    #expect(
      forecast
        == Forecast(
          daily: Forecast.Daily(
            temperatureMax: [28.1, 26], temperatureMin: [27.5, 26.8],
            time: [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 86_400)]),
          dailyUnits: Forecast.DailyUnits(temperatureMax: "°C", temperatureMin: "°C")))
  }

  @Test func forecastRoundTripsThroughOpenMeteoCoding() throws {
    let data = try JSONEncoder.openMeteo().encode(Forecast.mock)
    let text = try #require(String(data: data, encoding: .utf8))
    #expect(text.contains(#""1970-01-03""#))
    #expect(text.contains(#""daily_units""#))
    #expect(text.contains(#""temperature_2m_max""#))
    #expect(try JSONDecoder.openMeteo().decode(Forecast.self, from: data) == Forecast.mock)
  }

  @Test func anEstimateSaysSoInJSONAndAForecastDoesNot() throws {
    let forecast = try JSONEncoder.openMeteo().encode(Forecast.mock)
    #expect(!(String(data: forecast, encoding: .utf8) ?? "").contains("estimate"))
    #expect(try JSONDecoder.openMeteo().decode(Forecast.self, from: forecast).isEstimate == false)

    var estimate = Forecast.mock
    estimate.isEstimate = true
    let data = try JSONEncoder.openMeteo().encode(estimate)
    #expect((String(data: data, encoding: .utf8) ?? "").contains(#""estimate":true"#))
    #expect(try JSONDecoder.openMeteo().decode(Forecast.self, from: data) == estimate)
  }

  @Test func geocodingRoundTripsThroughJSON() throws {
    let data = try JSONEncoder().encode(GeocodingSearch.mock)
    #expect(try JSONDecoder().decode(GeocodingSearch.self, from: data) == GeocodingSearch.mock)
  }

  @Test func temperatureUnitsAreOpenMeteoParameters() {
    #expect(TemperatureUnit.allCases == [.celsius, .fahrenheit])
    #expect(TemperatureUnit.fahrenheit.rawValue == "fahrenheit")
    #expect(TemperatureUnit.celsius.symbol == "°C")
    #expect(TemperatureUnit.fahrenheit.symbol == "°F")
  }
}
