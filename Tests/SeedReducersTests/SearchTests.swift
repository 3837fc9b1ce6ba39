import ComposableArchitecture
import Foundation
import Testing

@MainActor
struct SearchTests {
  private struct Unavailable: Error {}

  nonisolated private static let brooklyn = GeocodingSearch.mock.results[0]
  nonisolated private static let losAngeles = GeocodingSearch.mock.results[1]

  /// `Search.State.Weather` for `Forecast.mock`, spelled out so that the test checks the seed's
  /// mapping of the forecast into days rather than repeating it.
  private static func mockWeather(id: GeocodingSearch.Result.ID) -> Search.State.Weather {
    Search.State.Weather(
      id: id,
      days: [
        Search.State.Weather.Day(
          date: Date(timeIntervalSince1970: 0), temperatureMax: 90, temperatureMaxUnit: "°F",
          temperatureMin: 70, temperatureMinUnit: "°F"),
        Search.State.Weather.Day(
          date: Date(timeIntervalSince1970: 86_400), temperatureMax: 70, temperatureMaxUnit: "°F",
          temperatureMin: 50, temperatureMinUnit: "°F"),
        Search.State.Weather.Day(
          date: Date(timeIntervalSince1970: 172_800), temperatureMax: 100,
          temperatureMaxUnit: "°F", temperatureMin: 80, temperatureMinUnit: "°F"),
      ]
    )
  }

  @Test func debouncedQuerySearchesAndShowsResults() async {
    let store = TestStore(initialState: Search.State()) {
      Search()
    } withDependencies: {
      $0.weatherClient.search = { query in
        #expect(query == "S")
        return .mock
      }
    }
    await store.send(.searchQueryChanged("S")) { $0.searchQuery = "S" }
    await store.send(.searchQueryChangeDebounced)
    await store.receive(\.searchResponse.success) {
      $0.results = GeocodingSearch.mock.results
    }
  }

  @Test func failedSearchClearsResults() async {
    let store = TestStore(
      initialState: Search.State(results: GeocodingSearch.mock.results, searchQuery: "S")
    ) {
      Search()
    } withDependencies: {
      $0.weatherClient.search = { _ in throw Unavailable() }
    }
    await store.send(.searchQueryChangeDebounced)
    await store.receive(\.searchResponse.failure) { $0.results = [] }
  }

  @Test func debouncedEmptyQueryDoesNotSearch() async {
    // `weatherClient` stays unimplemented: a search request would fail the test.
    let store = TestStore(initialState: Search.State()) { Search() }
    await store.send(.searchQueryChangeDebounced)
  }

  @Test func clearingQueryClearsResultsAndWeatherAndCancelsInFlightSearch() async {
    let store = TestStore(
      initialState: Search.State(
        results: GeocodingSearch.mock.results,
        searchQuery: "S",
        weather: Self.mockWeather(id: Self.brooklyn.id)
      )
    ) {
      Search()
    } withDependencies: {
      $0.weatherClient.search = { _ in try await Task.never() }
    }
    await store.send(.searchQueryChangeDebounced)
    // The search never answers; clearing the query must cancel it, or the exhaustive store fails
    // at the end of the test with an effect still in flight.
    await store.send(.searchQueryChanged("")) {
      $0.searchQuery = ""
      $0.results = []
      $0.weather = nil
    }
  }

  @Test func tappingResultLoadsItsForecast() async {
    let store = TestStore(
      initialState: Search.State(results: GeocodingSearch.mock.results, searchQuery: "S")
    ) {
      Search()
    } withDependencies: {
      $0.weatherClient.forecast = { location in
        #expect(location == Self.brooklyn)
        return .mock
      }
    }
    await store.send(.searchResultTapped(Self.brooklyn)) {
      $0.resultForecastRequestInFlight = Self.brooklyn
    }
    await store.receive(\.forecastResponse) {
      $0.resultForecastRequestInFlight = nil
      $0.weather = Self.mockWeather(id: Self.brooklyn.id)
    }
  }

  @Test func failedForecastClearsWeatherAndRequestInFlight() async {
    let store = TestStore(
      initialState: Search.State(
        results: GeocodingSearch.mock.results,
        searchQuery: "S",
        weather: Self.mockWeather(id: Self.losAngeles.id)
      )
    ) {
      Search()
    } withDependencies: {
      $0.weatherClient.forecast = { _ in throw Unavailable() }
    }
    await store.send(.searchResultTapped(Self.brooklyn)) {
      $0.resultForecastRequestInFlight = Self.brooklyn
    }
    await store.receive(\.forecastResponse) {
      $0.resultForecastRequestInFlight = nil
      $0.weather = nil
    }
  }

  @Test func tappingAnotherResultCancelsTheForecastInFlight() async {
    let store = TestStore(
      initialState: Search.State(results: GeocodingSearch.mock.results, searchQuery: "S")
    ) {
      Search()
    } withDependencies: {
      $0.weatherClient.forecast = { location in
        // Brooklyn's forecast never answers unless it is cancelled.
        if location.id == Self.brooklyn.id { try await Task.never() }
        return .mock
      }
    }
    await store.send(.searchResultTapped(Self.brooklyn)) {
      $0.resultForecastRequestInFlight = Self.brooklyn
    }
    await store.send(.searchResultTapped(Self.losAngeles)) {
      $0.resultForecastRequestInFlight = Self.losAngeles
    }
    await store.receive(\.forecastResponse) {
      $0.resultForecastRequestInFlight = nil
      $0.weather = Self.mockWeather(id: Self.losAngeles.id)
    }
  }
}
