import Foundation
import Testing
import WeatherClient
import WeatherClientOffline

struct ForecastTests {
  @Test func forecastIsSevenDaysInCelsius() async throws {
    let forecast = try await client(at: try instant("2026-05-24T12:00:00Z"))
      .forecast(location: try firstPlace("Seoul"))
    #expect(forecast.daily.time.count == 7)
    #expect(forecast.daily.temperatureMax.count == 7)
    #expect(forecast.daily.temperatureMin.count == 7)
    #expect(forecast.dailyUnits == Forecast.DailyUnits(temperatureMax: "°C", temperatureMin: "°C"))
    let expectedDays = try (24...30).map { try day("2026-05-\($0)") }
    #expect(forecast.daily.time == expectedDays)
  }

  @Test func everyOfflineForecastIsMarkedAsAnEstimate() async throws {
    let weather = client(at: try instant("2026-05-24T12:00:00Z"))
    let seoul = try firstPlace("Seoul")
    #expect(try await weather.forecast(location: seoul).isEstimate)
    #expect(try await weather.forecast(location: seoul, unit: .fahrenheit).isEstimate)
  }

  @Test func daysStartTodayInThePlacesTimeZone() async throws {
    // 20:00 UTC on 15 January is 05:00 on the 16th in Seoul and 12:00 on the 15th in LA.
    let weather = client(at: try instant("2026-01-15T20:00:00Z"))
    let seoul = try await weather.forecast(location: try firstPlace("Seoul"))
    let losAngeles = try await weather.forecast(location: try firstPlace("Los Angeles"))
    #expect(seoul.daily.time.first == (try day("2026-01-16")))
    #expect(seoul.daily.time.last == (try day("2026-01-22")))
    #expect(losAngeles.daily.time.first == (try day("2026-01-15")))
    #expect(losAngeles.daily.time.last == (try day("2026-01-21")))
  }

  @Test func justAfterMidnightUTCItIsStillYesterdayInLosAngeles() async throws {
    let weather = client(at: try instant("2026-07-01T00:30:00Z"))
    let seoul = try await weather.forecast(location: try firstPlace("Seoul"))
    let losAngeles = try await weather.forecast(location: try firstPlace("Los Angeles"))
    #expect(seoul.daily.time.first == (try day("2026-07-01")))
    #expect(losAngeles.daily.time.first == (try day("2026-06-30")))
  }

  @Test func aPlaceTheGazetteerDoesNotKnowCountsDaysInTheNearestPlacesTimeZone() async throws {
    // Id 1 is not a GeoNames city of the gazetteer; the coordinates are Seoul's. 20:00 UTC on
    // 15 January is the 16th there.
    let unknown = GeocodingSearch.Result(
      country: "South Korea", latitude: 37.566, longitude: 126.9784, id: 1, name: "Somewhere")
    let weather = client(at: try instant("2026-01-15T20:00:00Z"))
    let first = try await weather.forecast(location: unknown).daily.time.first
    #expect(first == (try day("2026-01-16")))
    // Bare coordinates, as the one-shot command gives them: Seongnam's, and a point off Los
    // Angeles (the 15th there).
    let seongnam = GeocodingSearch.Result(
      country: "", latitude: 37.4386, longitude: 127.1378, id: 0, name: "")
    let offLosAngeles = GeocodingSearch.Result(
      country: "", latitude: 33.9, longitude: -118.6, id: 0, name: "")
    let seongnamFirst = try await weather.forecast(location: seongnam).daily.time.first
    #expect(seongnamFirst == (try day("2026-01-16")))
    #expect(
      try await weather.forecast(location: offLosAngeles).daily.time.first
        == (try day("2026-01-15")))
  }

  @Test func fahrenheitIsTheSameForecastConverted() async throws {
    let weather = client(at: try instant("2026-03-10T08:00:00Z"))
    for query in ["Oslo", "Singapore", "Sydney", "Seoul"] {
      let place = try firstPlace(query)
      let celsius = try await weather.forecast(location: place)
      let celsiusAgain = try await weather.forecast(location: place, unit: .celsius)
      let fahrenheit = try await weather.forecast(location: place, unit: .fahrenheit)
      #expect(celsiusAgain == celsius)
      #expect(
        fahrenheit.dailyUnits == Forecast.DailyUnits(temperatureMax: "°F", temperatureMin: "°F"))
      #expect(fahrenheit.daily.time == celsius.daily.time)
      for (f, c) in zip(
        fahrenheit.daily.temperatureMax + fahrenheit.daily.temperatureMin,
        celsius.daily.temperatureMax + celsius.daily.temperatureMin)
      {
        // F = C × 9/5 + 32, rounded to a tenth of a degree.
        #expect(abs(f - (c * 9 / 5 + 32)) <= 0.051, "\(query): \(c) °C shown as \(f) °F")
      }
    }
  }

  @Test func temperaturesAreGivenToATenthOfADegree() async throws {
    let forecast = try await client(at: try instant("2026-03-10T08:00:00Z"))
      .forecast(location: try firstPlace("Oslo"), unit: .fahrenheit)
    for value in forecast.daily.temperatureMax + forecast.daily.temperatureMin {
      #expect(abs(value * 10 - (value * 10).rounded()) < 1e-6, "\(value)")
    }
  }

  @Test func samePlaceAndDateGiveTheSameNumbers() async throws {
    let seoul = try firstPlace("Seoul")
    let now = try instant("2026-05-24T12:00:00Z")
    let first = try await client(at: now).forecast(location: seoul)
    let second = try await WeatherClient.offline(now: { now }).forecast(location: seoul)
    #expect(first == second)
    // A day later the six shared dates keep their numbers.
    let nextDay = try await client(at: now.addingTimeInterval(86_400)).forecast(location: seoul)
    #expect(Array(nextDay.daily.time.prefix(6)) == Array(first.daily.time.dropFirst()))
    #expect(
      Array(nextDay.daily.temperatureMax.prefix(6)) == Array(first.daily.temperatureMax.dropFirst())
    )
    #expect(
      Array(nextDay.daily.temperatureMin.prefix(6)) == Array(first.daily.temperatureMin.dropFirst())
    )
  }

  @Test func anotherDateOrPlaceGivesOtherNumbers() async throws {
    let seoul = try firstPlace("Seoul")
    let week = try await client(at: try instant("2026-05-24T12:00:00Z")).forecast(location: seoul)
    let nextWeek = try await client(at: try instant("2026-05-31T12:00:00Z"))
      .forecast(location: seoul)
    #expect(week.daily.temperatureMax != nextWeek.daily.temperatureMax)
    #expect(Set(week.daily.temperatureMax).count > 1, "every day the same: \(week)")
    let busan = try await client(at: try instant("2026-05-24T12:00:00Z"))
      .forecast(location: try firstPlace("Busan"))
    #expect(busan.daily.temperatureMax != week.daily.temperatureMax)
  }

  @Test func theEquatorIsWarmerThanOsloInJanuary() async throws {
    let january = client(at: try instant("2026-01-15T12:00:00Z"))
    let singapore = try await january.forecast(location: try firstPlace("Singapore"))
    let oslo = try await january.forecast(location: try firstPlace("Oslo"))
    #expect(mean(singapore) > mean(oslo) + 15, "Singapore \(singapore), Oslo \(oslo)")
    #expect(mean(singapore) > 20)
    #expect(mean(oslo) < 5)
  }

  @Test func sydneyIsWarmerInJanuaryThanInJuly() async throws {
    let sydney = try firstPlace("Sydney")
    let january = try await client(at: try instant("2026-01-15T00:00:00Z")).forecast(
      location: sydney)
    let july = try await client(at: try instant("2026-07-15T00:00:00Z")).forecast(location: sydney)
    #expect(mean(january) > mean(july) + 8, "January \(january), July \(july)")
    // And the other way round in the north.
    let oslo = try firstPlace("Oslo")
    let osloJanuary = try await client(at: try instant("2026-01-15T00:00:00Z")).forecast(
      location: oslo)
    let osloJuly = try await client(at: try instant("2026-07-15T00:00:00Z")).forecast(
      location: oslo)
    #expect(mean(osloJuly) > mean(osloJanuary) + 8)
  }

  @Test func maximumIsNeverBelowMinimumAndValuesArePlausible() async throws {
    let start = try instant("2026-01-01T12:00:00Z")
    for latitude in stride(from: -90.0, through: 90.0, by: 7.5) {
      let place = GeocodingSearch.Result(
        country: "Nowhere", latitude: latitude, longitude: latitude * 1.7, id: -1, name: "Grid")
      for week in 0..<53 {
        let forecast = try await client(at: start.addingTimeInterval(Double(week) * 7 * 86_400))
          .forecast(location: place)
        for (maximum, minimum) in zip(forecast.daily.temperatureMax, forecast.daily.temperatureMin)
        {
          #expect(maximum >= minimum, "latitude \(latitude), week \(week)")
          #expect(maximum - minimum <= 16, "latitude \(latitude), week \(week)")
          #expect((-60.0...50.0).contains(minimum), "latitude \(latitude), week \(week)")
          #expect((-60.0...50.0).contains(maximum), "latitude \(latitude), week \(week)")
        }
      }
    }
  }

  @Test func coordinatesOutOfRangeAreRefused() async throws {
    let place = GeocodingSearch.Result(
      country: "Nowhere", latitude: 123, longitude: 13.4, id: 1, name: "Nowhere")
    let error = await #expect(throws: OfflineWeatherError.self) {
      try await WeatherClient.offline().forecast(location: place)
    }
    #expect(
      error?.description
        == "Offline forecast: latitude must be in range of -90 to 90° and longitude of -180 to "
        + "180°. Given: 123.0, 13.4.")
    let notANumber = GeocodingSearch.Result(
      country: "Nowhere", latitude: .nan, longitude: 0, id: 1, name: "Nowhere")
    await #expect(throws: OfflineWeatherError.self) {
      try await WeatherClient.offline().forecast(location: notANumber, unit: .fahrenheit)
    }
  }
}

/// The mean of a forecast's daily maxima and minima.
private func mean(_ forecast: Forecast) -> Double {
  let values = forecast.daily.temperatureMax + forecast.daily.temperatureMin
  return values.reduce(0, +) / Double(values.count)
}
