import Foundation
import Testing
import WeatherClient

struct MocksTests {
  @Test func forecastMockIsThreeFahrenheitDaysFromTheEpoch() {
    #expect(Forecast.mock.daily.temperatureMax == [90, 70, 100])
    #expect(Forecast.mock.daily.temperatureMin == [70, 50, 80])
    #expect(
      Forecast.mock.daily.time == [
        Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 86_400),
        Date(timeIntervalSince1970: 172_800),
      ])
    #expect(
      Forecast.mock.dailyUnits == Forecast.DailyUnits(temperatureMax: "°F", temperatureMin: "°F"))
  }

  @Test func forecastMockInCelsiusIsConverted() {
    let celsius = Forecast.mock(in: .celsius)
    #expect(celsius.daily.temperatureMax == [32.2, 21.1, 37.8])
    #expect(celsius.daily.temperatureMin == [21.1, 10, 26.7])
    #expect(celsius.daily.time == Forecast.mock.daily.time)
    #expect(celsius.dailyUnits.temperatureMax == "°C")
    #expect(Forecast.mock(in: .fahrenheit) == Forecast.mock)
  }

  @Test func geocodingMockIsBrooklynLosAngelesSanFrancisco() {
    #expect(
      GeocodingSearch.mock.results == [
        GeocodingSearch.Result(
          country: "United States", latitude: 40.6782, longitude: -73.9442, id: 1,
          name: "Brooklyn"),
        GeocodingSearch.Result(
          country: "United States", latitude: 34.0522, longitude: -118.2437, id: 2,
          name: "Los Angeles"),
        GeocodingSearch.Result(
          country: "United States", latitude: 37.7749, longitude: -122.4194, id: 3,
          name: "San Francisco"),
      ])
    #expect(GeocodingSearch.mock.results.allSatisfy { $0.admin1 == nil })
  }
}
