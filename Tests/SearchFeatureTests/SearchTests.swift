import ComposableArchitecture
import Foundation
import SearchFeature
import Testing
import WeatherClient

struct SomethingWentWrong: LocalizedError, Equatable {
  var errorDescription: String? { "Open-Meteo geocoding: HTTP 503" }
}

@MainActor
struct SearchTests {
  let specialResult = GeocodingSearch.Result(
    country: "Special Country", latitude: 0, longitude: 0, id: 42, name: "Special Place")

  var mockDays: [Search.State.Weather.Day] {
    [
      .init(
        date: Date(timeIntervalSince1970: 0), temperatureMax: 90, temperatureMaxUnit: "°F",
        temperatureMin: 70, temperatureMinUnit: "°F"),
      .init(
        date: Date(timeIntervalSince1970: 86_400), temperatureMax: 70, temperatureMaxUnit: "°F",
        temperatureMin: 50, temperatureMinUnit: "°F"),
      .init(
        date: Date(timeIntervalSince1970: 172_800), temperatureMax: 100,
        temperatureMaxUnit: "°F", temperatureMin: 80, temperatureMinUnit: "°F"),
    ]
  }

  /// A store on `clock` whose search records every query it is asked into `searched`, then
  /// answers with `answer` (by default the mock results at once).
  func storeRecordingSearches(
    clock: TestClock<Duration>, into searched: LockIsolated<[String]>,
    answer: @escaping @Sendable (String) async throws -> GeocodingSearch = { _ in .mock }
  ) -> TestStoreOf<Search> {
    TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.continuousClock = clock
      $0.weatherClient.search = { @Sendable query in
        searched.withValue { $0.append(query) }
        return try await answer(query)
      }
    }
  }

  @Test func searchAndClearQuery() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.continuousClock = clock
      $0.weatherClient.search = { @Sendable _ in .mock }
    }
    await store.send(.searchQueryChanged("S")) {
      $0.searchQuery = "S"
      $0.isSearchInFlight = true
    }
    await clock.advance(by: Search.debounce)
    await store.receive(\.searchQueryChangeDebounced)
    await store.receive(\.searchResponse.success) {
      $0.results = GeocodingSearch.mock.results
      $0.isSearchInFlight = false
    }
    await store.send(.searchQueryChanged("")) {
      $0.results = []
      $0.searchQuery = ""
    }
  }

  @Test func aQueryLongerThanAnyPlaceNameIsCutToTheLimit() async {
    let clock = TestClock()
    let searched = LockIsolated<[String]>([])
    let store = storeRecordingSearches(clock: clock, into: searched)
    let pasted = String(repeating: "Seoul ", count: 1_000)
    let kept = String(pasted.prefix(Search.maximumQueryLength))
    await store.send(.searchQueryChanged(pasted)) {
      $0.searchQuery = kept
      $0.isSearchInFlight = true
    }
    await clock.advance(by: Search.debounce)
    await store.receive(\.searchQueryChangeDebounced)
    await store.receive(\.searchResponse.success) {
      $0.results = GeocodingSearch.mock.results
      $0.isSearchInFlight = false
    }
    #expect(searched.value == [kept])
    #expect(kept.count == 200)
  }

  @Test func onlyTheQueryThatStaysStillIsSearched() async {
    let clock = TestClock()
    let searched = LockIsolated<[String]>([])
    let store = storeRecordingSearches(clock: clock, into: searched)
    await store.send(.searchQueryChanged("S")) {
      $0.searchQuery = "S"
      $0.isSearchInFlight = true
    }
    await clock.advance(by: .milliseconds(200))
    await store.send(.searchQueryChanged("Se")) { $0.searchQuery = "Se" }
    await clock.advance(by: .milliseconds(200))
    await store.send(.searchQueryChanged("Seo")) { $0.searchQuery = "Seo" }
    await clock.advance(by: .milliseconds(299))
    #expect(searched.value == [])
    await clock.advance(by: .milliseconds(1))
    await store.receive(\.searchQueryChangeDebounced)
    await store.receive(\.searchResponse.success) {
      $0.results = GeocodingSearch.mock.results
      $0.isSearchInFlight = false
    }
    #expect(searched.value == ["Seo"])
  }

  @Test func anEditCancelsTheSearchInFlight() async {
    let clock = TestClock()
    let searched = LockIsolated<[String]>([])
    let store = storeRecordingSearches(clock: clock, into: searched) { query in
      try await clock.sleep(for: .seconds(1))
      return GeocodingSearch(results: query == "Se" ? GeocodingSearch.mock.results : [])
    }
    await store.send(.searchQueryChanged("S")) {
      $0.searchQuery = "S"
      $0.isSearchInFlight = true
    }
    await clock.advance(by: Search.debounce)
    await store.receive(\.searchQueryChangeDebounced)
    await store.send(.searchQueryChanged("Se")) { $0.searchQuery = "Se" }
    await clock.advance(by: .seconds(2))
    await store.receive(\.searchQueryChangeDebounced)
    await store.receive(\.searchResponse.success) {
      $0.results = GeocodingSearch.mock.results
      $0.isSearchInFlight = false
    }
    #expect(searched.value == ["S", "Se"])
  }

  @Test func aSubmittedQueryIsSearchedAtOnceAndOnlyOnce() async {
    let clock = TestClock()
    let searched = LockIsolated<[String]>([])
    let store = storeRecordingSearches(clock: clock, into: searched)
    await store.send(.searchQueryChanged("Seoul")) {
      $0.searchQuery = "Seoul"
      $0.isSearchInFlight = true
    }
    await store.send(.searchQueryChangeDebounced)
    await store.receive(\.searchResponse.success) {
      $0.results = GeocodingSearch.mock.results
      $0.isSearchInFlight = false
    }
    await clock.advance(by: .seconds(1))
    #expect(searched.value == ["Seoul"])
  }

  @Test func searchFailureIsShown() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.continuousClock = clock
      $0.weatherClient.search = { @Sendable _ in throw SomethingWentWrong() }
    }
    await store.send(.searchQueryChanged("S")) {
      $0.searchQuery = "S"
      $0.isSearchInFlight = true
    }
    await store.send(.searchQueryChangeDebounced)
    await store.receive(\.searchResponse.failure) {
      $0.errorMessage = "Open-Meteo geocoding: HTTP 503"
      $0.isSearchInFlight = false
    }
    await store.send(.searchQueryChanged("")) {
      $0.searchQuery = ""
      $0.errorMessage = nil
    }
  }

  @Test func debouncedSendWithAnEmptyQueryDoesNothing() async {
    let store = TestStore(initialState: Search.State()) { Search() }
    await store.send(.searchQueryChangeDebounced)
  }

  @Test func clearingTheQueryCancelsTheSearchInFlight() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.continuousClock = clock
      $0.weatherClient.search = { @Sendable _ in
        try await clock.sleep(for: .seconds(1))
        return .mock
      }
    }
    await store.send(.searchQueryChanged("S")) {
      $0.searchQuery = "S"
      $0.isSearchInFlight = true
    }
    await store.send(.searchQueryChangeDebounced)
    await store.send(.searchQueryChanged("")) {
      $0.searchQuery = ""
      $0.isSearchInFlight = false
    }
    await clock.advance(by: .seconds(1))
    // Exhaustivity: no searchResponse arrives and nothing is left in flight.
  }

  @Test func clearingTheQueryCancelsThePendingDebounce() async {
    let clock = TestClock()
    let store = TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.searchQueryChanged("S")) {
      $0.searchQuery = "S"
      $0.isSearchInFlight = true
    }
    await store.send(.searchQueryChanged("")) {
      $0.searchQuery = ""
      $0.isSearchInFlight = false
    }
    await clock.advance(by: .seconds(1))
  }

  @Test func tapOnLocation() async {
    let store = TestStore(
      initialState: Search.State(results: GeocodingSearch.mock.results + [specialResult])
    ) {
      Search()
    } withDependencies: {
      $0.weatherClient.forecast = { @Sendable _ in .mock }
    }
    await store.send(.searchResultTapped(specialResult)) {
      $0.resultForecastRequestInFlight = specialResult
    }
    await store.receive(\.forecastResponse) {
      $0.resultForecastRequestInFlight = nil
      $0.weather = Search.State.Weather(id: 42, days: mockDays)
    }
  }

  @Test func anEstimatedForecastIsShownAsAnEstimate() async {
    var estimate = Forecast.mock
    estimate.isEstimate = true
    let store = TestStore(initialState: Search.State(results: [specialResult])) {
      Search()
    } withDependencies: {
      $0.weatherClient.forecast = { @Sendable [estimate] _ in estimate }
    }
    await store.send(.searchResultTapped(specialResult)) {
      $0.resultForecastRequestInFlight = specialResult
    }
    await store.receive(\.forecastResponse) {
      $0.resultForecastRequestInFlight = nil
      $0.weather = Search.State.Weather(id: 42, days: mockDays, isEstimate: true)
    }
  }

  @Test func tapOnLocationInFahrenheitAsksForThatUnit() async {
    let store = TestStore(
      initialState: Search.State(results: [specialResult], temperatureUnit: .fahrenheit)
    ) {
      Search()
    } withDependencies: {
      $0.weatherClient.forecastInUnit = { @Sendable _, unit in
        #expect(unit == .fahrenheit)
        return .mock
      }
    }
    await store.send(.searchResultTapped(specialResult)) {
      $0.resultForecastRequestInFlight = specialResult
    }
    await store.receive(\.forecastResponse) {
      $0.resultForecastRequestInFlight = nil
      $0.weather = Search.State.Weather(id: 42, days: mockDays)
    }
  }

  @Test func tapOnASecondLocationCancelsTheFirstRequest() async {
    let clock = TestClock()
    let results = GeocodingSearch.mock.results + [specialResult]
    let store = TestStore(initialState: Search.State(results: results)) {
      Search()
    } withDependencies: {
      $0.weatherClient.forecast = { @Sendable _ in
        try await clock.sleep(for: .seconds(0))
        return .mock
      }
    }
    await store.send(.searchResultTapped(results[0])) {
      $0.resultForecastRequestInFlight = results[0]
    }
    await store.send(.searchResultTapped(specialResult)) {
      $0.resultForecastRequestInFlight = specialResult
    }
    await clock.advance()
    await store.receive(\.forecastResponse) {
      $0.resultForecastRequestInFlight = nil
      $0.weather = Search.State.Weather(id: 42, days: mockDays)
    }
  }

  @Test func forecastFailureIsShown() async {
    let results = GeocodingSearch.mock.results
    let store = TestStore(initialState: Search.State(results: results)) {
      Search()
    } withDependencies: {
      $0.weatherClient.forecast = { @Sendable _ in throw SomethingWentWrong() }
    }
    await store.send(.searchResultTapped(results[0])) {
      $0.resultForecastRequestInFlight = results[0]
    }
    await store.receive(\.forecastResponse) {
      $0.resultForecastRequestInFlight = nil
      $0.errorMessage = "Open-Meteo geocoding: HTTP 503"
    }
  }

  @Test func forecastWithShortTemperatureArraysDoesNotCrash() async {
    var forecast = Forecast.mock
    forecast.daily.temperatureMin = [1]
    let store = TestStore(initialState: Search.State(results: [specialResult])) {
      Search()
    } withDependencies: {
      $0.weatherClient.forecast = { @Sendable [forecast] _ in forecast }
    }
    await store.send(.searchResultTapped(specialResult)) {
      $0.resultForecastRequestInFlight = specialResult
    }
    await store.receive(\.forecastResponse) {
      $0.resultForecastRequestInFlight = nil
      $0.weather = Search.State.Weather(
        id: 42,
        days: [
          .init(
            date: Date(timeIntervalSince1970: 0), temperatureMax: 90, temperatureMaxUnit: "°F",
            temperatureMin: 1, temperatureMinUnit: "°F")
        ])
    }
  }
}
