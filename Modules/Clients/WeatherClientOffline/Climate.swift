import Foundation

/// A simple climatological model that makes offline forecasts look like weather: plausible for
/// the place and season, different every day, and the same for a place and a date every time.
///
/// For a place at latitude φ on a day:
///
/// - **annual mean** `27 − 47 · (|φ| / 90)^1.75` °C: 27 °C at the equator, about 16 °C at 40°,
///   4 °C at 60° and −20 °C at the poles;
/// - **season** `18 · (φ / 90) · cos(2π (day − 15 July) / 365.2425)`: no swing at the equator,
///   up to ±18 °C at the poles, warmest in mid-July in the north and in mid-January in the south
///   (the sign of φ flips it);
/// - **day-to-day anomaly** up to about ±3.5 °C, mixing that day's draw with the previous day's
///   so that weather persists a little;
/// - **daily spread** (max − min) from about 4 to 12 °C: a per-place base plus a daily draw.
///
/// Draws come from ``SeededNoise`` seeded with the coordinates (to 1/10,000 degree) and the day
/// number, so nothing depends on the clock or the process.
struct Climate: Sendable {
  /// The latitude in degrees, positive north, within -90...90.
  let latitude: Double
  /// The longitude in degrees, positive east, within -180...180.
  let longitude: Double

  /// The climate of a place; coordinates out of range are clamped, and ones that are not finite
  /// read as 0 (callers check them first: see ``OfflineWeatherError``).
  init(latitude: Double, longitude: Double) {
    self.latitude = latitude.isFinite ? max(-90, min(latitude, 90)) : 0
    self.longitude = longitude.isFinite ? max(-180, min(longitude, 180)) : 0
  }

  /// One day's temperatures in degrees Celsius, not rounded.
  struct Day: Equatable, Sendable {
    var minimum: Double
    var maximum: Double
  }

  /// Days since 1970-01-01 of 15 July 1970, the peak of the northern summer in the model.
  static let northernSummerPeak = 195.0
  /// The mean length of a Gregorian year in days.
  static let yearLength = 365.2425

  /// The mean temperature over the year, in °C.
  var annualMean: Double {
    27 - 47 * pow(abs(latitude) / 90, 1.75)
  }

  /// The seasonal departure from the annual mean on `day` (days since 1970-01-01), in °C.
  func seasonalDeparture(onDay day: Int) -> Double {
    let phase = 2 * Double.pi * (Double(day) - Self.northernSummerPeak) / Self.yearLength
    return 18 * (latitude / 90) * cos(phase)
  }

  /// The temperatures of `day` (days since 1970-01-01, a calendar date of the place).
  func day(_ day: Int) -> Day {
    let today = noise(day)
    let yesterday = noise(day - 1)
    let anomaly = 3.5 * (0.65 * today.signed(0) + 0.35 * yesterday.signed(0))
    let placeSpread = 5 + 4 * SeededNoise(coordinates.latitude, coordinates.longitude).unit(1)
    let spread = max(2, placeSpread + 3 * today.signed(1))
    let mean = annualMean + seasonalDeparture(onDay: day) + anomaly
    return Day(minimum: mean - spread / 2, maximum: mean + spread / 2)
  }

  /// The coordinates in 1/10,000 degree, the gazetteer's precision.
  private var coordinates: (latitude: Int, longitude: Int) {
    (Int((latitude * 10_000).rounded()), Int((longitude * 10_000).rounded()))
  }

  private func noise(_ day: Int) -> SeededNoise {
    SeededNoise(coordinates.latitude, coordinates.longitude, day)
  }
}
