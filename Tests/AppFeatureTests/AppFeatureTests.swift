import AppFeature
import ComposableArchitecture
import CounterFeature
import EpisodesFeature
import FavoriteClient
import Foundation
import SearchFeature
import SettingsClient
import SettingsFeature
import Testing
import WeatherClient

@MainActor
struct AppFeatureTests {
  private func makeStore(
    _ configure: (inout DependencyValues) -> Void = { _ in }
  ) -> TestStoreOf<AppFeature> {
    TestStore(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: {
      $0.uuid = .incrementing
      $0.settingsClient = .inMemory()
      configure(&$0)
    }
  }

  @Test func startsWithOneCounter() {
    let store = makeStore()
    #expect(store.state.counterList.counters.ids == [UUID(0)])
    #expect(store.state.header == "Composable App")
  }

  @Test func childActionsReachTheirChildren() async {
    let store = makeStore {
      $0.continuousClock = TestClock()
      $0.weatherClient.search = { @Sendable _ in .mock }
    }
    await store.send(\.counterList.counters[id: UUID(0)].incrementButtonTapped) {
      $0.counterList.counters[id: UUID(0)]?.count = 1
    }
    await store.send(\.search.searchQueryChanged, "Br") {
      $0.search.searchQuery = "Br"
      $0.search.isSearchInFlight = true
    }
    await store.send(\.search.searchQueryChangeDebounced)
    await store.receive(\.search.searchResponse.success) {
      $0.search.results = GeocodingSearch.mock.results
      $0.search.isSearchInFlight = false
    }
    await store.send(\.settings.binding.protectMyPosts, true) {
      $0.settings.protectMyPosts = true
    }
    await store.send(.tabSelected(.episodes)) { $0.selectedTab = .episodes }
  }

  @Test func theKeptStateHoldsCountersAndTabAndRestoreResumesTimersAndForgetsRequests() async {
    let clock = TestClock()
    let store = makeStore { $0.continuousClock = clock }
    let kept = AppFeature.KeptState(
      counters: [
        Counter.State(
          id: UUID(7), count: 41, fact: "41 is prime.", isFactRequestInFlight: true,
          isTimerOn: true),
        Counter.State(id: UUID(8), count: -2, isRandomNumberRequestInFlight: true),
        Counter.State(id: UUID(7), count: 999),  // a duplicate id: the first one stays
      ],
      selectedTab: .episodes)
    await store.send(.restore(kept)) {
      $0.counterList.counters = [
        Counter.State(id: UUID(7), count: 41, fact: "41 is prime."),
        Counter.State(id: UUID(8), count: -2),
      ]
      $0.selectedTab = .episodes
    }
    await store.receive(\.counterList.counters[id: UUID(7)].timerButtonTapped) {
      $0.counterList.counters[id: UUID(7)]?.isTimerOn = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.counterList.counters[id: UUID(7)].timerTicked) {
      $0.counterList.counters[id: UUID(7)]?.count = 42
    }
    #expect(store.state.kept.counters.map(\.count) == [42, -2])
    #expect(store.state.kept.selectedTab == .episodes)
    await store.send(\.counterList.counters[id: UUID(7)].timerButtonTapped) {
      $0.counterList.counters[id: UUID(7)]?.isTimerOn = false
    }
  }

  @Test func theKeptStateSurvivesJSON() throws {
    let kept = AppFeature.State(
      counterList: CounterList.State(counters: [
        Counter.State(id: UUID(3), count: 5, isTimerOn: true)
      ]),
      selectedTab: .search
    ).kept
    let decoded = try JSONDecoder().decode(
      AppFeature.KeptState.self, from: JSONEncoder().encode(kept))
    #expect(decoded == kept)
  }

  @Test func headerShowsTheDisplayNameFromSettings() async {
    let store = makeStore()
    await store.send(\.settings.binding.displayName, " Blob ") {
      $0.settings.displayName = "Blob "
      $0.settings.$publicName.withLock { $0 = "Blob" }
    }
    #expect(store.state.header == "Hello, Blob!")
    #expect(store.state.userName == "Blob", "read through the shared reference")
    await store.finish()  // the settings save
  }

  @Test func theTaskLoadsWhatWasKeptAndTheRulesFollow() async {
    let store = makeStore {
      $0.favoriteClient = .inMemory([UUID(3)])
      $0.settingsClient = .inMemory(
        StoredSettings(displayName: "Ada", temperatureUnit: "fahrenheit"))
    }
    // The two loads run side by side, so their answers may come in either order: this test
    // checks where they lead (each child's own test checks every step).
    store.exhaustivity = .off(showSkippedAssertions: false)
    await store.send(.task)
    await store.finish()
    await store.skipReceivedActions()
    #expect(store.state.settings.temperatureUnit == .fahrenheit)
    #expect(store.state.header == "Hello, Ada!")
    #expect(store.state.search.temperatureUnit == .fahrenheit, "the rule spanning features ran")
    #expect(store.state.episodes.episodes.filter(\.favoriting.isFavorite).map(\.id) == [UUID(3)])
    #expect(!store.state.settings.isLoading)
  }

  @Test func settingsTemperatureUnitIsUsedBySearch() async {
    let specialResult = GeocodingSearch.Result(
      country: "Special Country", latitude: 0, longitude: 0, id: 42, name: "Special Place")
    let units = LockIsolated<[TemperatureUnit]>([])
    let store = makeStore {
      $0.weatherClient.forecast = { @Sendable _ in
        units.withValue { $0.append(.celsius) }
        return .mock
      }
      $0.weatherClient.forecastInUnit = { @Sendable _, unit in
        units.withValue { $0.append(unit) }
        return .mock
      }
    }
    await store.send(\.search.searchResponse.success, GeocodingSearch(results: [specialResult])) {
      $0.search.results = [specialResult]
    }
    await store.send(\.search.searchResultTapped, specialResult) {
      $0.search.resultForecastRequestInFlight = specialResult
    }
    await store.receive(\.search.forecastResponse) {
      $0.search.resultForecastRequestInFlight = nil
      $0.search.weather = Search.State.Weather(id: 42, days: Self.mockDays)
    }
    // Changing the unit in Settings switches Search and reloads the forecast on screen.
    await store.send(\.settings.binding.temperatureUnit, .fahrenheit) {
      $0.settings.temperatureUnit = .fahrenheit
      $0.search.temperatureUnit = .fahrenheit
    }
    await store.receive(\.search.searchResultTapped) {
      $0.search.resultForecastRequestInFlight = specialResult
    }
    await store.receive(\.search.forecastResponse) {
      $0.search.resultForecastRequestInFlight = nil
    }
    #expect(units.value == [.celsius, .fahrenheit])
    // Reset (once confirmed) goes back to Celsius, through the same rule.
    await store.send(\.settings.resetButtonTapped) {
      $0.settings.destination = .confirmReset(.resetSettings)
    }
    await store.send(\.settings.destination.confirmReset.reset) {
      $0.settings.destination = nil
      $0.settings.temperatureUnit = .celsius
      $0.search.temperatureUnit = .celsius
    }
    await store.receive(\.search.searchResultTapped) {
      $0.search.resultForecastRequestInFlight = specialResult
    }
    await store.receive(\.search.forecastResponse) {
      $0.search.resultForecastRequestInFlight = nil
    }
    #expect(units.value == [.celsius, .fahrenheit, .celsius])
  }

  @Test func episodesAreComposed() async {
    let store = makeStore {
      $0.favoriteClient.favorite = { _, isFavorite in isFavorite }
    }
    await store.send(\.episodes.episodes[id: UUID(1)].favorite.buttonTapped) {
      $0.episodes.episodes[id: UUID(1)]?.favorite.isFavorite = true
      $0.episodes.episodes[id: UUID(1)]?.favorite.saving = true
    }
    await store.receive(\.episodes.episodes[id: UUID(1)].favorite.response.success) {
      $0.episodes.episodes[id: UUID(1)]?.favorite.saving = nil
      $0.episodes.episodes[id: UUID(1)]?.favorite.saved = true
    }
  }

  static let mockDays: [Search.State.Weather.Day] = [
    .init(
      date: Date(timeIntervalSince1970: 0), temperatureMax: 90, temperatureMaxUnit: "°F",
      temperatureMin: 70, temperatureMinUnit: "°F"),
    .init(
      date: Date(timeIntervalSince1970: 86_400), temperatureMax: 70, temperatureMaxUnit: "°F",
      temperatureMin: 50, temperatureMinUnit: "°F"),
    .init(
      date: Date(timeIntervalSince1970: 172_800), temperatureMax: 100, temperatureMaxUnit: "°F",
      temperatureMin: 80, temperatureMinUnit: "°F"),
  ]
}
