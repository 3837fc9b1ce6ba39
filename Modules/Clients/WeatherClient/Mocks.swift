import Foundation

extension Forecast {
  /// Three days in degrees Fahrenheit, starting on 1970-01-01.
  public static let mock = Self(
    daily: Daily(
      temperatureMax: [90, 70, 100],
      temperatureMin: [70, 50, 80],
      time: [0, 86_400, 172_800].map(Date.init(timeIntervalSince1970:))
    ),
    dailyUnits: DailyUnits(temperatureMax: "°F", temperatureMin: "°F")
  )

  /// ``mock`` converted to `unit`.
  public static func mock(in unit: TemperatureUnit) -> Self {
    switch unit {
    case .fahrenheit:
      return .mock
    case .celsius:
      func celsius(_ fahrenheit: Double) -> Double {
        ((fahrenheit - 32) * 5 / 9 * 10).rounded() / 10
      }
      var forecast = Self.mock
      forecast.daily.temperatureMax = forecast.daily.temperatureMax.map(celsius)
      forecast.daily.temperatureMin = forecast.daily.temperatureMin.map(celsius)
      forecast.dailyUnits = DailyUnits(temperatureMax: "°C", temperatureMin: "°C")
      return forecast
    }
  }
}

extension GeocodingSearch {
  /// Brooklyn, Los Angeles and San Francisco, with ids 1, 2 and 3.
  public static let mock = Self(
    results: [
      Result(
        country: "United States",
        latitude: 40.6782,
        longitude: -73.9442,
        id: 1,
        name: "Brooklyn"
      ),
      Result(
        country: "United States",
        latitude: 34.0522,
        longitude: -118.2437,
        id: 2,
        name: "Los Angeles"
      ),
      Result(
        country: "United States",
        latitude: 37.7749,
        longitude: -122.4194,
        id: 3,
        name: "San Francisco"
      ),
    ]
  )
}
