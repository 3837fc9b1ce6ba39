import Foundation
import Testing
import WeatherClient

@testable import WeatherClientOffline

/// The offline estimates against real climate normals.
struct ClimateCalibrationTests {
  /// The newcomer's example: late-November lows of −6.9 °C for London and −14 °C for Reykjavík,
  /// where the normals are about +5 °C and −1 °C. The week's mean low is held to the normal's
  /// daily minimum within 2.5 °C (the days' anomalies are up to ±3.5 °C each).
  @Test(arguments: [("London", 5.0), ("Reykjavík", -1.0)])
  func lateNovemberLowsAreNearTheNormals(place: String, normalLow: Double) async throws {
    let forecast = try await client(at: try instant("2026-11-22T12:00:00Z"))
      .forecast(location: try firstPlace(place))
    let lows = forecast.daily.temperatureMin
    let meanLow = lows.reduce(0, +) / Double(lows.count)
    #expect(abs(meanLow - normalLow) <= 2.5, "\(place): lows \(lows), normal \(normalLow)")
  }

  /// Held out: each of a dozen cities is estimated from every other station (its own normals
  /// left out), and its twelve monthly means must be within 3 °C of its normals, 1.5 °C on
  /// average; over the dozen, the calibration must at least halve the latitude model's error
  /// (which misses London's January by 6 °C and Shanghai's by 9 °C).
  @Test func aDozenCitiesLeftOutAreEstimatedFromTheirNeighbours() throws {
    let cities = [
      "London", "Paris", "Berlin", "Rome", "Oslo", "Helsinki", "Dublin", "Warsaw", "Seattle",
      "Chicago", "Sydney", "Shanghai",
    ]
    var calibratedTotal = 0.0
    var modelTotal = 0.0
    for city in cities {
      let station = try #require(ClimateNormals.stations.first { $0.name == city })
      let others = Climate.calibration.filter { $0.name != city }
      let climate = Climate(
        latitude: station.latitude, longitude: station.longitude, stations: others)
      let model = Climate(latitude: station.latitude, longitude: station.longitude, stations: [])
      let errors = (0..<12).map { month in
        climate.normalMean(onDay: midMonth(month)) - station.monthlyMeans[month]
      }
      let modelErrors = (0..<12).map { month in
        model.normalMean(onDay: midMonth(month)) - station.monthlyMeans[month]
      }
      let meanError = errors.map(abs).reduce(0, +) / 12
      #expect(errors.allSatisfy { abs($0) <= 3 }, "\(city): monthly errors \(rounded(errors))")
      #expect(meanError <= 1.5, "\(city): mean error \(meanError)")
      calibratedTotal += meanError
      modelTotal += modelErrors.map(abs).reduce(0, +) / 12
    }
    #expect(
      calibratedTotal <= modelTotal / 2,
      "mean error over the dozen: \(calibratedTotal / 12) calibrated, \(modelTotal / 12) model")
  }

  /// At a station, the estimate is the station's normals.
  @Test func everyStationsNormalsAreReproducedAtTheStation() {
    for station in ClimateNormals.stations {
      let climate = Climate(latitude: station.latitude, longitude: station.longitude)
      for month in 0..<12 {
        let estimate = climate.normalMean(onDay: midMonth(month))
        #expect(
          abs(estimate - station.monthlyMeans[month]) <= 0.3,
          "\(station.name), month \(month + 1): \(estimate) for \(station.monthlyMeans[month])")
      }
    }
  }

  /// Far from every station (mid-Pacific), the latitude model stands.
  @Test func farFromEveryStationTheLatitudeModelStands() {
    let calibrated = Climate(latitude: -40, longitude: -130)
    let model = Climate(latitude: -40, longitude: -130, stations: [])
    for month in 0..<12 {
      #expect(
        abs(
          calibrated.normalMean(onDay: midMonth(month)) - model.normalMean(onDay: midMonth(month)))
          < 0.5)
    }
  }

  /// Between two mid-months, the estimate moves smoothly: no jump at a month's first day.
  @Test func theSeasonHasNoJumpBetweenMonths() {
    let climate = Climate(latitude: 55.03, longitude: 82.92)  // Novosibirsk: a steep spring
    for day in 0..<730 {
      let step = climate.normalMean(onDay: day + 1) - climate.normalMean(onDay: day)
      #expect(abs(step) < 0.5, "day \(day): \(step)")
    }
  }

  private func midMonth(_ month: Int) -> Int {
    Climate.midMonthDay(month)
  }

  private func rounded(_ values: [Double]) -> [Double] {
    values.map { ($0 * 10).rounded() / 10 }
  }
}
