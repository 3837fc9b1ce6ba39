import Foundation
import WeatherClient

/// Builds the offline client's forecasts from ``Climate``.
enum OfflineForecast {
  /// Open-Meteo's default forecast length.
  static let dayCount = 7

  /// The number of days from 1970-01-01 to the calendar date that `date` falls on in `timeZone`.
  static func dayNumber(of date: Date, in timeZone: TimeZone) -> Int {
    let local = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
    return Int((local / 86_400).rounded(.down))
  }

  /// ``dayCount`` days from the date of `now` in `timeZone`, each day dated as Open-Meteo's are
  /// decoded (midnight UTC of its calendar date), temperatures rounded to 0.1 degree in `unit`.
  ///
  /// Fahrenheit is converted from the rounded Celsius figure, so both units tell the same story.
  static func forecast(
    latitude: Double, longitude: Double, timeZone: TimeZone, now: Date, unit: TemperatureUnit
  ) -> Forecast {
    let climate = Climate(latitude: latitude, longitude: longitude)
    let today = dayNumber(of: now, in: timeZone)
    let days = (today..<today + dayCount).map { ($0, climate.day($0)) }
    func converted(_ celsius: Double) -> Double {
      let rounded = roundedToTenth(celsius)
      switch unit {
      case .celsius: return rounded
      case .fahrenheit: return roundedToTenth(rounded * 9 / 5 + 32)
      }
    }
    return Forecast(
      daily: Forecast.Daily(
        temperatureMax: days.map { converted($0.1.maximum) },
        temperatureMin: days.map { converted($0.1.minimum) },
        time: days.map { Date(timeIntervalSince1970: Double($0.0) * 86_400) }
      ),
      dailyUnits: Forecast.DailyUnits(temperatureMax: unit.symbol, temperatureMin: unit.symbol),
      isEstimate: true
    )
  }

  private static func roundedToTenth(_ value: Double) -> Double {
    (value * 10).rounded() / 10
  }
}
