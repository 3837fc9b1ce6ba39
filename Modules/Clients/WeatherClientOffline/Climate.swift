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
/// - **calibration** to real climate normals: the stations of ``ClimateNormals`` say, month by
///   month, how far their normals are from the two terms above (London is 8 °C milder in
///   November, Novosibirsk 9 °C colder in January); a place takes the stations' departures
///   weighted by `exp(−(d / 1,500 km)²) / d²` of its distance `d` to each (`d` at least 10 km),
///   beside the model's own zero departure weighted as a station 1,500 km away. A place at a
///   station gets that station's normals, one between stations a blend, and one far from every
///   station the latitude model's. Departures between mid-months are interpolated;
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
    self.init(latitude: latitude, longitude: longitude, stations: Self.calibration)
  }

  /// The climate of a place calibrated by `stations` (a test leaves one out).
  init(latitude: Double, longitude: Double, stations: [Calibration]) {
    self.latitude = latitude.isFinite ? max(-90, min(latitude, 90)) : 0
    self.longitude = longitude.isFinite ? max(-180, min(longitude, 180)) : 0
    self.monthlyDepartures = Self.departures(
      atLatitude: self.latitude, longitude: self.longitude, stations: stations)
  }

  /// The departure of this place's normals from the latitude model, per month (mid-month).
  let monthlyDepartures: [Double]

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
    let mean = normalMean(onDay: day) + anomaly
    return Day(minimum: mean - spread / 2, maximum: mean + spread / 2)
  }

  /// The mean temperature of `day` in a normal year, in °C: the latitude model, calibrated.
  func normalMean(onDay day: Int) -> Double {
    annualMean + seasonalDeparture(onDay: day) + calibratedDeparture(onDay: day)
  }

  /// The calibration's departure on `day`, interpolated between the mid-month values.
  func calibratedDeparture(onDay day: Int) -> Double {
    // The day of the year, 0 on 1 January (to a day: the year's length is averaged).
    let year = Double(day) / Self.yearLength
    let dayOfYear = (year - year.rounded(.down)) * Self.yearLength
    // Mid-months are 15.2 + 30.44·m days into the year; find the two around `dayOfYear`.
    let monthLength = Self.yearLength / 12
    let position = (dayOfYear - monthLength / 2) / monthLength
    let before = Int(position.rounded(.down))
    let weight = position - Double(before)
    let first = monthlyDepartures[(before + 12) % 12]
    let second = monthlyDepartures[(before + 13) % 12]
    return first + (second - first) * weight
  }

  /// A station's departures from the latitude model, month by month.
  struct Calibration: Sendable {
    let name: String
    let latitude: Double
    let longitude: Double
    let monthlyDepartures: [Double]
  }

  /// Every station of ``ClimateNormals``, as departures from the model at its latitude.
  static let calibration: [Calibration] = ClimateNormals.stations.map { station in
    let model = Climate(latitude: station.latitude, longitude: station.longitude, stations: [])
    return Calibration(
      name: station.name, latitude: station.latitude, longitude: station.longitude,
      monthlyDepartures: (0..<12).map { month in
        station.monthlyMeans[month] - model.modelMean(inMonth: month)
      })
  }

  /// The latitude model's mean temperature in the middle of `month` (0 is January).
  func modelMean(inMonth month: Int) -> Double {
    annualMean + seasonalDeparture(onDay: Self.midMonthDay(month))
  }

  /// The day (since 1970-01-01) in the middle of `month` (0 is January) of 1970.
  static func midMonthDay(_ month: Int) -> Int {
    Int((yearLength / 12 * (Double(month) + 0.5)).rounded(.down))
  }

  /// The weighted departures of `stations` at a point, month by month.
  static func departures(
    atLatitude latitude: Double, longitude: Double, stations: [Calibration]
  ) -> [Double] {
    guard !stations.isEmpty else { return Array(repeating: 0, count: 12) }
    var sums = Array(repeating: 0.0, count: 12)
    var total = modelWeight
    for station in stations {
      let distance = kilometres(latitude, longitude, station.latitude, station.longitude)
      let weight = exp(-pow(distance / reach, 2)) / pow(max(distance, 10), 2)
      guard weight > 0 else { continue }
      total += weight
      for month in 0..<12 { sums[month] += weight * station.monthlyDepartures[month] }
    }
    return sums.map { $0 / total }
  }

  /// How far a station's climate reaches: its weight is `exp(−(d / reach)²) / d²`.
  static let reach = 1_500.0
  /// The weight of the latitude model's own (zero) departure: a station's at `reach`.
  static let modelWeight = exp(-1) / (reach * reach)

  /// The great-circle distance between two points, in km.
  static func kilometres(
    _ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double
  ) -> Double {
    let radians = Double.pi / 180
    let halfLatitude = sin((latitude2 - latitude1) * radians / 2)
    let halfLongitude = sin((longitude2 - longitude1) * radians / 2)
    let term =
      halfLatitude * halfLatitude
      + cos(latitude1 * radians) * cos(latitude2 * radians) * halfLongitude * halfLongitude
    return 6_371 * 2 * asin(min(1, sqrt(term)))
  }

  /// The coordinates in 1/10,000 degree, the gazetteer's precision.
  private var coordinates: (latitude: Int, longitude: Int) {
    (Int((latitude * 10_000).rounded()), Int((longitude * 10_000).rounded()))
  }

  private func noise(_ day: Int) -> SeededNoise {
    SeededNoise(coordinates.latitude, coordinates.longitude, day)
  }
}
