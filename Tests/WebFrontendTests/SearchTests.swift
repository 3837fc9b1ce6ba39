import ComposableArchitecture
import FixtureServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WeatherClient
import WeatherClientLive
import WebFrontend

/// Search through the live weather client against a fixture server on 127.0.0.1.
@MainActor
struct SearchTests {
  static func routes() throws -> [String: FixtureServer.Response] {
    [
      "/v1/search": .json(String(decoding: try fixtureData("geocoding-london"), as: UTF8.self)),
      "/v1/forecast": .json(
        String(decoding: try fixtureData("forecast-equator-7d"), as: UTF8.self)),
    ]
  }

  static func weatherClient(_ baseURL: URL) -> WeatherClient {
    .live(
      configuration: .init(
        geocodingBaseURL: baseURL, forecastBaseURL: baseURL, forecastTimeZone: "Etc/UTC",
        timeout: .seconds(30)))
  }

  @Test func anEstimatedForecastReachesThePageMarkedAsAnEstimate() async throws {
    let place = GeocodingSearch.Result(
      country: "South Korea", latitude: 37.566, longitude: 126.9784, id: 1_835_848, name: "Seoul")
    let estimate = Forecast(
      daily: Forecast.mock.daily, dailyUnits: Forecast.mock.dailyUnits, isEstimate: true)
    let registry = makeRegistry {
      $0.weatherClient.search = { @Sendable _ in GeocodingSearch(results: [place]) }
      $0.weatherClient.forecast = { @Sendable _ in estimate }
    }
    try await makeApplication(registry).test(.router) { client in
      let id = try await client.createSession().id
      try await client.send(.changeSearchQuery("seo"), to: id)
      try await client.send(.submitSearch, to: id)
      try await client.waitForState(of: id) { !$0.search.results.isEmpty }
      try await client.send(.selectSearchResult(id: place.id), to: id)
      let shown = try await client.waitForState(of: id) { $0.search.weather != nil }
      #expect(shown.search.weather?.isEstimate == true)
      #expect(shown.search.weather?.days.count == Forecast.mock.daily.time.count)
    }
  }

  /// A place found by another of its names reaches the page with that name, to show why it is
  /// listed.
  @Test func aPlaceFoundByAnotherNameReachesThePageWithThatName() async throws {
    let places = [
      GeocodingSearch.Result(
        country: "United States", latitude: 40.7, longitude: -74, id: 1, name: "New York City"),
      GeocodingSearch.Result(
        country: "Indonesia", latitude: -6.2, longitude: 106.8, id: 2, name: "Jakarta",
        matchedName: "New York Van Java"),
    ]
    let registry = makeRegistry {
      $0.weatherClient.search = { @Sendable _ in GeocodingSearch(results: places) }
    }
    try await makeApplication(registry).test(.router) { client in
      let id = try await client.createSession().id
      try await client.send(.changeSearchQuery("new york"), to: id)
      try await client.send(.submitSearch, to: id)
      let found = try await client.waitForState(of: id) { !$0.search.results.isEmpty }
      #expect(found.search.results.map(\.matchedName) == [nil, "New York Van Java"])
    }
  }

  @Test func submittingSearchesAndSelectingAResultShowsItsForecast() async throws {
    try await withFixtureServer(routes: try Self.routes()) { server in
      let weather = Self.weatherClient(server.baseURL)
      let registry = makeRegistry { $0.weatherClient = weather }
      try await makeApplication(registry).test(.router) { client in
        let id = try await client.createSession().id
        try await client.send(.changeSearchQuery("London"), to: id)
        let submitted = try await client.send(.submitSearch, to: id)
        #expect(submitted.state.search.isSearchInFlight)
        let found = try await client.waitForState(of: id) { !$0.search.results.isEmpty }
        #expect(found.search.results.map(\.name) == ["London", "London"])
        #expect(found.search.results.map(\.admin1) == ["England", "Ontario"])
        try await client.waitForState(of: id) { !$0.search.isSearchInFlight }

        let selected = try await client.send(.selectSearchResult(id: 2_643_743), to: id)
        #expect(selected.state.search.forecastRequestInFlightID == 2_643_743)
        let shown = try await client.waitForState(of: id) { $0.search.weather != nil }
        let weatherView = try #require(shown.search.weather)
        #expect(weatherView.id == 2_643_743)
        #expect(weatherView.days.count == 7)
        let firstDay = try #require(weatherView.days.first)
        #expect(firstDay.date == "2026-05-24")
        #expect(firstDay.min == 27.5)
        #expect(firstDay.max == 28.1)
        #expect(firstDay.unit == "°C")
        #expect(!weatherView.isEstimate)
        #expect(shown.search.forecastRequestInFlightID == nil)
        #expect(shown.search.errorMessage == nil)
      }
      #expect(server.requests.map(\.path) == ["/v1/search", "/v1/forecast"])
      #expect(server.requests.first?.target == "/v1/search?name=London")
    }
  }

  @Test func typingIsDebouncedOnTheSessionClock() async throws {
    try await withFixtureServer(routes: try Self.routes()) { server in
      let clock = TestClock()
      let weather = Self.weatherClient(server.baseURL)
      let registry = makeRegistry(clock: clock) { $0.weatherClient = weather }
      try await makeApplication(registry).test(.router) { client in
        let id = try await client.createSession().id
        try await client.send(.changeSearchQuery("Lon"), to: id)
        try await waitForSleeper(on: clock)
        await clock.advance(by: .milliseconds(200))
        let typing = try await client.send(.changeSearchQuery("London"), to: id)
        try await waitForSleeper(on: clock)
        #expect(typing.state.search.query == "London")
        #expect(typing.state.search.isSearchInFlight)
        await clock.advance(by: .milliseconds(200))
        #expect(server.requests.isEmpty)
        await clock.advance(by: .milliseconds(100))
        let found = try await client.waitForState(of: id) {
          !$0.search.results.isEmpty && !$0.search.isSearchInFlight
        }
        #expect(found.search.results.count == 2)
      }
      // Only the query that stood still for 300 ms was searched.
      #expect(server.requests.map(\.target) == ["/v1/search?name=London"])
    }
  }

  @Test func clearingTheQueryClearsResultsAndStopsTheSpinner() async throws {
    try await withFixtureServer(routes: try Self.routes()) { server in
      let weather = Self.weatherClient(server.baseURL)
      let registry = makeRegistry { $0.weatherClient = weather }
      try await makeApplication(registry).test(.router) { client in
        let id = try await client.createSession().id
        try await client.send(.changeSearchQuery("London"), to: id)
        try await client.send(.submitSearch, to: id)
        try await client.waitForState(of: id) { !$0.search.results.isEmpty }
        let cleared = try await client.send(.changeSearchQuery(""), to: id).state.search
        #expect(cleared.results.isEmpty)
        #expect(!cleared.isSearchInFlight)
      }
    }
  }

  @Test func anUpstreamErrorShowsInTheStateNotAsA5xx() async throws {
    try await withFixtureServer(routes: ["/v1/search": .status(503)]) { server in
      let weather = Self.weatherClient(server.baseURL)
      let registry = makeRegistry { $0.weatherClient = weather }
      try await makeApplication(registry).test(.router) { client in
        let id = try await client.createSession().id
        try await client.send(.changeSearchQuery("Seoul"), to: id)
        try await client.send(.submitSearch, to: id)
        let failed = try await client.waitForState(of: id) { $0.search.errorMessage != nil }
        #expect(failed.search.errorMessage == "Open-Meteo geocoding: HTTP 503")
        #expect(failed.search.results.isEmpty)
      }
    }
  }

  @Test func anUnreachableServiceShowsInTheState() async throws {
    let closed = try await FixtureServer.closedPortURL()
    let weather = Self.weatherClient(closed)
    let registry = makeRegistry { $0.weatherClient = weather }
    try await makeApplication(registry).test(.router) { client in
      let id = try await client.createSession().id
      try await client.send(.changeSearchQuery("Seoul"), to: id)
      try await client.send(.submitSearch, to: id)
      // The error arrives first; the spinner stops once the search's effect has finished.
      let failed = try await client.waitForState(of: id) {
        $0.search.errorMessage != nil && !$0.search.isSearchInFlight
      }
      #expect(failed.search.errorMessage?.hasPrefix("Open-Meteo geocoding: cannot reach") == true)
    }
  }
}
