import AppFeature
import AppTerminal
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

@testable import TerminalFrontend

/// Key presses in, the app's actions and the terminal's state out: every key's meaning is the
/// reducer's, checked exhaustively.
@MainActor
struct TerminalFeatureTests {
  /// `Forecast.mock`'s days as the search screen keeps them.
  static let mockDays: [Search.State.Weather.Day] = [
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

  func makeStore(
    app: AppFeature.State? = nil,
    _ dependencies: @escaping (inout DependencyValues) -> Void = { _ in }
  ) -> TestStoreOf<AppTerminalFeature> {
    TestStore(
      initialState: AppTerminalFeature.State(
        app: app
          ?? withDependencies {
            $0.uuid = .incrementing
          } operation: {
            AppFeature.State(
              counterList: CounterList.State(counters: [Counter.State(id: UUID(99))]))
          })
    ) {
      AppTerminalFeature(AppFeature(), registration: .app)
    } withDependencies: {
      $0.uuid = .incrementing
      $0.settingsClient = .inMemory()
      dependencies(&$0)
    }
  }

  @Test func counterKeysChangeTheSelectedCounter() async {
    let store = makeStore()
    await store.send(.keyPressed(.character("+")))
    await store.receive(\.app.counterList.counters) {
      $0.app.counterList.counters[id: UUID(99)]?.count = 1
    }
    await store.send(.keyPressed(.character("=")))
    await store.receive(\.app.counterList.counters) {
      $0.app.counterList.counters[id: UUID(99)]?.count = 2
    }
    await store.send(.keyPressed(.character("a")))
    await store.receive(\.app.counterList.addCounterButtonTapped) {
      $0.app.counterList.counters.append(Counter.State(id: UUID(0)))
      $0.view.selectedCounter = 1
    }
    await store.send(.keyPressed(.character("-")))
    await store.receive(\.app.counterList.counters) {
      $0.app.counterList.counters[id: UUID(0)]?.count = -1
    }
    await store.send(.keyPressed(.up)) { $0.view.selectedCounter = 0 }
    await store.send(.keyPressed(.up))
    await store.send(.keyPressed(.character("j"))) { $0.view.selectedCounter = 1 }
    await store.send(.keyPressed(.down))
  }

  @Test func removingACounterAsksFirst() async {
    let store = makeStore()
    await store.send(.keyPressed(.character("a")))
    await store.receive(\.app.counterList.addCounterButtonTapped) {
      $0.app.counterList.counters.append(Counter.State(id: UUID(0)))
      $0.view.selectedCounter = 1
    }
    await store.send(.keyPressed(.character("x")))
    await store.receive(\.app.counterList.removeCounterButtonTapped) {
      $0.app.counterList.destination = .confirmRemoval(.removeCounter(id: UUID(0), number: 2))
    }
    #expect(
      ScreenRenderer.render(store.state, registration: .app, style: .plain).contains(
        """
        ┌───────────────────────────────────────┐
        │ Remove Counter 2?                     │
        │ Its count, fact and timer go with it. │
        │ Enter/y Remove · Esc/n Cancel         │
        └───────────────────────────────────────┘
        """))
    // While it asks, other keys wait; Esc keeps the counter.
    await store.send(.keyPressed(.character("+")))
    await store.send(.keyPressed(.escape))
    await store.receive(\.app.counterList.destination.dismiss) {
      $0.app.counterList.destination = nil
    }
    // y removes it, and the selection moves to a counter that exists.
    await store.send(.keyPressed(.character("d")))
    await store.receive(\.app.counterList.removeCounterButtonTapped) {
      $0.app.counterList.destination = .confirmRemoval(.removeCounter(id: UUID(0), number: 2))
    }
    await store.send(.keyPressed(.character("y")))
    await store.receive(\.app.counterList.destination.confirmRemoval.remove) {
      $0.app.counterList.destination = nil
      $0.app.counterList.counters.remove(id: UUID(0))
      $0.view.selectedCounter = 0
    }
  }

  @Test func counterRequestsAndTheTimer() async {
    let clock = TestClock()
    let store = makeStore {
      $0.factClient.fetch = { "\($0) is a number." }
      $0.randomNumberClient.fetch = { _, _ in 5 }
      $0.continuousClock = clock
    }
    await store.send(.keyPressed(.character("f")))
    await store.receive(\.app.counterList.counters) {
      $0.app.counterList.counters[id: UUID(99)]?.isFactRequestInFlight = true
    }
    await store.receive(\.app.counterList.counters) {
      $0.app.counterList.counters[id: UUID(99)]?.isFactRequestInFlight = false
      $0.app.counterList.counters[id: UUID(99)]?.fact = "0 is a number."
    }
    await store.send(.keyPressed(.character("r")))
    await store.receive(\.app.counterList.counters) {
      $0.app.counterList.counters[id: UUID(99)]?.isRandomNumberRequestInFlight = true
    }
    await store.receive(\.app.counterList.counters) {
      $0.app.counterList.counters[id: UUID(99)]?.isRandomNumberRequestInFlight = false
      $0.app.counterList.counters[id: UUID(99)]?.count = 5
    }
    await store.send(.keyPressed(.character("t")))
    await store.receive(\.app.counterList.counters) {
      $0.app.counterList.counters[id: UUID(99)]?.isTimerOn = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.app.counterList.counters) {
      $0.app.counterList.counters[id: UUID(99)]?.count = 6
    }
    await store.send(.keyPressed(.character("t")))
    await store.receive(\.app.counterList.counters) {
      $0.app.counterList.counters[id: UUID(99)]?.isTimerOn = false
    }
  }

  @Test func digitsAndTabSwitchScreens() async {
    let tabs = AppFeature.Tab.allCases
    let store = makeStore()
    await store.send(.keyPressed(.character("2")))
    await store.receive(\.app.tabSelected) { $0.app.selectedTab = tabs[1] }
    // Tab goes through the tabs in their order and wraps to the first; Shift-Tab goes back.
    for tab in tabs[2...] + [tabs[0]] {
      await store.send(.keyPressed(.tab))
      await store.receive(\.app.tabSelected) { $0.app.selectedTab = tab }
    }
    await store.send(.keyPressed(.backTab))
    await store.receive(\.app.tabSelected) { $0.app.selectedTab = tabs[tabs.count - 1] }
    // A digit past the last tab selects nothing.
    await store.send(.keyPressed(.character(Character("\(tabs.count + 1)"))))
  }

  @Test func quitKeysButQIsTextWhileEditing() async {
    var store = makeStore()
    await store.send(.keyPressed(.character("q"))) { $0.isQuitting = true }
    store = makeStore()
    await store.send(.keyPressed(.controlD)) { $0.isQuitting = true }
    store = makeStore()
    await store.send(.quitRequested) { $0.isQuitting = true }

    let clock = TestClock()
    store = makeStore {
      $0.continuousClock = clock
      $0.weatherClient.search = { _ in .mock }
    }
    await store.send(.keyPressed(.character("2")))
    await store.receive(\.app.tabSelected) { $0.app.selectedTab = .search }
    await store.send(.keyPressed(.character("/"))) { $0.view.editing = .searchQuery }
    await store.send(.keyPressed(.character("q")))
    await store.receive(\.app.search.searchQueryChanged) {
      $0.app.search.searchQuery = "q"
      $0.app.search.isSearchInFlight = true
    }
    // Ctrl-C quits even while editing, and drops the search waiting for its debounce.
    await store.send(.keyPressed(.controlC)) {
      $0.isQuitting = true
      $0.view.editing = nil
    }
    await store.receive(\.app.search.searchQueryChanged) {
      $0.app.search.searchQuery = ""
      $0.app.search.isSearchInFlight = false
    }
  }

  @Test func typingASearchIsDebouncedAndEnterOpensAForecast() async {
    let clock = TestClock()
    let searched = LockIsolated<[String]>([])
    let store = makeStore {
      $0.continuousClock = clock
      $0.weatherClient.search = { @Sendable query in
        searched.withValue { $0.append(query) }
        return .mock
      }
      $0.weatherClient.forecast = { @Sendable _ in .mock }
    }
    await store.send(.keyPressed(.character("2")))
    await store.receive(\.app.tabSelected) { $0.app.selectedTab = .search }
    await store.send(.keyPressed(.character("i"))) { $0.view.editing = .searchQuery }
    await store.send(.keyPressed(.character("S")))
    await store.receive(\.app.search.searchQueryChanged) {
      $0.app.search.searchQuery = "S"
      $0.app.search.isSearchInFlight = true
    }
    await store.send(.keyPressed(.character("F")))
    await store.receive(\.app.search.searchQueryChanged) { $0.app.search.searchQuery = "SF" }
    await store.send(.keyPressed(.backspace))
    await store.receive(\.app.search.searchQueryChanged) { $0.app.search.searchQuery = "S" }
    await store.send(.keyPressed(.character("e")))
    await store.receive(\.app.search.searchQueryChanged) { $0.app.search.searchQuery = "Se" }
    await store.send(.keyPressed(.enter)) { $0.view.editing = nil }
    await clock.advance(by: Search.debounce)
    await store.receive(\.app.search.searchQueryChangeDebounced)
    await store.receive(\.app.search.searchResponse.success) {
      $0.app.search.results = GeocodingSearch.mock.results
      $0.app.search.isSearchInFlight = false
    }
    #expect(searched.value == ["Se"])
    await store.send(.keyPressed(.down)) { $0.view.selectedResult = 1 }
    let second = GeocodingSearch.mock.results[1]
    await store.send(.keyPressed(.enter))
    await store.receive(\.app.search.searchResultTapped) {
      $0.app.search.resultForecastRequestInFlight = second
    }
    await store.receive(\.app.search.forecastResponse) {
      $0.app.search.resultForecastRequestInFlight = nil
      $0.app.search.weather = Search.State.Weather(id: second.id, days: Self.mockDays)
    }
    // c clears the query and the results; the selection goes back to the first row.
    await store.send(.keyPressed(.character("c")))
    await store.receive(\.app.search.searchQueryChanged) {
      $0.app.search.searchQuery = ""
      $0.app.search.results = []
      $0.app.search.weather = nil
      $0.view.selectedResult = 0
    }
  }

  @Test func settingsKeysEditAndToggleThroughBindings() async {
    let store = makeStore()
    await store.send(.keyPressed(.character("3")))
    await store.receive(\.app.tabSelected) { $0.app.selectedTab = .settings }
    await store.send(.keyPressed(.enter)) { $0.view.editing = .displayName }
    // The name is shared with the header, so its change shows at the key press.
    await store.send(.keyPressed(.character("B"))) {
      $0.app.settings.$publicName.withLock { $0 = "B" }
    }
    await store.receive(\.app.settings.binding) { $0.app.settings.displayName = "B" }
    await store.send(.keyPressed(.character("o"))) {
      $0.app.settings.$publicName.withLock { $0 = "Bo" }
    }
    await store.receive(\.app.settings.binding) { $0.app.settings.displayName = "Bo" }
    await store.send(.keyPressed(.enter)) { $0.view.editing = nil }
    #expect(store.state.app.header == "Hello, Bo!")
    await store.send(.keyPressed(.down)) { $0.view.selectedSetting = 1 }
    await store.send(.keyPressed(.right))
    await store.receive(\.app.settings.binding) { $0.app.settings.digest = .weekly }
    await store.send(.keyPressed(.left))
    await store.receive(\.app.settings.binding) { $0.app.settings.digest = .daily }
    await store.send(.keyPressed(.character("j"))) { $0.view.selectedSetting = 2 }
    await store.send(.keyPressed(.character(" ")))
    await store.receive(\.app.settings.binding) { $0.app.settings.enableNotifications = true }
    for row in 3...7 {
      await store.send(.keyPressed(.down)) { $0.view.selectedSetting = row }
    }
    await store.send(.keyPressed(.character("l")))
    await store.receive(\.app.settings.binding) {
      $0.app.settings.temperatureUnit = .fahrenheit
      $0.app.search.temperatureUnit = .fahrenheit
    }
    // Reset asks first: other keys wait, n cancels, Enter confirms.
    await store.send(.keyPressed(.down)) { $0.view.selectedSetting = 8 }
    await store.send(.keyPressed(.down))
    await store.send(.keyPressed(.enter))
    await store.receive(\.app.settings.resetButtonTapped) {
      $0.app.settings.destination = .confirmReset(.resetSettings)
    }
    #expect(
      ScreenRenderer.render(store.state, registration: .app, style: .plain).contains(
        """
        │ Reset all settings?                     │
        │ Every setting goes back to its default. │
        """))
    await store.send(.keyPressed(.character("x")))
    await store.send(.keyPressed(.character("n")))
    await store.receive(\.app.settings.destination.dismiss) {
      $0.app.settings.destination = nil
    }
    await store.send(.keyPressed(.enter))
    await store.receive(\.app.settings.resetButtonTapped) {
      $0.app.settings.destination = .confirmReset(.resetSettings)
    }
    await store.send(.keyPressed(.enter)) {
      $0.app.settings.$publicName.withLock { $0 = "" }
    }
    await store.receive(\.app.settings.destination.confirmReset.reset) {
      $0.app.settings.destination = nil
      $0.app.settings.displayName = ""
      $0.app.settings.enableNotifications = false
      $0.app.settings.temperatureUnit = .celsius
      $0.app.search.temperatureUnit = .celsius
    }
    #expect(store.state.app.settings.stored == Settings.State().stored)
  }

  @Test func notificationChannelsAreDisabledWhileNotificationsAreOff() async {
    let store = makeStore()
    await store.send(.keyPressed(.character("3")))
    await store.receive(\.app.tabSelected) { $0.app.selectedTab = .settings }
    for row in 1...3 {
      await store.send(.keyPressed(.down)) { $0.view.selectedSetting = row }
    }
    // The e-mail switch, notifications off: the key does nothing and the row says why.
    await store.send(.keyPressed(.enter))
    #expect(
      ScreenRenderer.render(store.state, registration: .app, style: .plain).contains(
        "›   E-mail           [-] off · needs notifications on"))
    await store.send(.keyPressed(.up)) { $0.view.selectedSetting = 2 }
    await store.send(.keyPressed(.enter))
    await store.receive(\.app.settings.binding) { $0.app.settings.enableNotifications = true }
    await store.send(.keyPressed(.down)) { $0.view.selectedSetting = 3 }
    await store.send(.keyPressed(.enter))
    await store.receive(\.app.settings.binding) { $0.app.settings.sendEmailNotifications = true }
    #expect(
      ScreenRenderer.render(store.state, registration: .app, style: .plain).contains(
        "›   E-mail           [x] on"))
  }

  @Test func aFailedFavoriteShowsAnAlertThatEnterDismisses() async {
    let store = makeStore {
      $0.favoriteClient.favorite = { _, _ in throw FavoriteError() }
    }
    await store.send(.keyPressed(.character("4")))
    await store.receive(\.app.tabSelected) { $0.app.selectedTab = .episodes }
    await store.send(.keyPressed(.down)) { $0.view.selectedEpisode = 1 }
    // The key's app action is reduced as it is sent, and the favorite is shared state: its
    // change shows at the key press.
    await store.send(.keyPressed(.enter)) {
      $0.app.episodes.episodes[id: UUID(1)]?.favorite.isFavorite = true
      $0.app.episodes.episodes[id: UUID(1)]?.favorite.saving = true
    }
    await store.receive(\.app.episodes.episodes)
    await store.receive(\.app.episodes.episodes) {
      $0.app.episodes.episodes[id: UUID(1)]?.favorite.saving = nil
      $0.app.episodes.episodes[id: UUID(1)]?.favorite.alert = AlertState {
        TextState("Favoriting failed.")
      }
    }
    #expect(
      ScreenRenderer.render(store.state, registration: .app, style: .plain).contains(
        "Favoriting failed. (Side Effects)"))
    // While the alert shows, other keys do nothing; Enter dismisses it and rolls back.
    await store.send(.keyPressed(.down))
    await store.send(.keyPressed(.enter)) {
      $0.app.episodes.episodes[id: UUID(1)]?.favorite.isFavorite = false
      $0.app.episodes.episodes[id: UUID(1)]?.favorite.alert = nil
    }
    await store.receive(\.app.episodes.episodes)
  }

  @Test func vShowsTheFavoritesOnlyAndTheSelectionStaysOnAShownRow() async {
    let store = makeStore {
      $0.favoriteClient = .inMemory()
    }
    await store.send(.keyPressed(.character("4")))
    await store.receive(\.app.tabSelected) { $0.app.selectedTab = .episodes }
    await store.send(.keyPressed(.down)) { $0.view.selectedEpisode = 1 }
    await store.send(.keyPressed(.down)) { $0.view.selectedEpisode = 2 }
    await store.send(.keyPressed(.character("v")))
    await store.receive(\.app.episodes.favoritesOnlyToggled) {
      $0.app.episodes.showsFavoritesOnly = true
      $0.view.selectedEpisode = 0
    }
    #expect(
      ScreenRenderer.render(store.state, registration: .app, style: .plain).contains(
        "No favorites yet: v shows every episode."))
    await store.send(.keyPressed(.character("v")))
    await store.receive(\.app.episodes.favoritesOnlyToggled) {
      $0.app.episodes.showsFavoritesOnly = false
    }
  }

  @Test func anEpisodeScreenOpensSharesTheFavoriteAndGoesBack() async {
    let store = makeStore {
      $0.favoriteClient = .inMemory()
    }
    await store.send(.keyPressed(.character("4")))
    await store.receive(\.app.tabSelected) { $0.app.selectedTab = .episodes }
    await store.send(.keyPressed(.down)) { $0.view.selectedEpisode = 1 }
    await store.send(.keyPressed(.character("j"))) { $0.view.selectedEpisode = 2 }
    await store.send(.keyPressed(.character("o")))
    await store.receive(\.app.episodes.episodeTapped) {
      $0.app.episodes.path[id: 0] = EpisodeDetail.State(
        episode: $0.app.episodes.episodes[id: UUID(2)]!)
    }
    #expect(store.state.app.episodes.path.map(\.title) == ["Algebraic Data Types"])
    var screen = ScreenRenderer.render(store.state, registration: .app, style: .plain)
    #expect(screen.contains("Episodes › Algebraic Data Types\n\n  ♡ not a favorite\n"))
    #expect(
      screen.hasSuffix(
        "Enter/Space/f favorite · Esc/← back · 1-\(AppFeature.Tab.allCases.count)/Tab screens · q quit"
      ))
    // One shared value: the screen's favorite is the row's.
    await store.send(.keyPressed(.enter)) {
      $0.app.episodes.episodes[id: UUID(2)]?.favorite.isFavorite = true
      $0.app.episodes.episodes[id: UUID(2)]?.favorite.saving = true
    }
    await store.receive(\.app.episodes.path)
    await store.receive(\.app.episodes.episodes) {
      $0.app.episodes.episodes[id: UUID(2)]?.favorite.saving = nil
      $0.app.episodes.episodes[id: UUID(2)]?.favorite.saved = true
    }
    #expect(store.state.app.episodes.path[id: 0]?.favoriting.isFavorite == true)
    screen = ScreenRenderer.render(store.state, registration: .app, style: .plain)
    #expect(screen.contains("  ♥ favorite\n"))
    // Esc closes the screen: the screen dismisses itself.
    await store.send(.keyPressed(.escape))
    await store.receive(\.app.episodes.path)
    await store.receive(\.app.episodes.path.popFrom) { $0.app.episodes.path = StackState() }
    #expect(store.state.app.episodes.path.isEmpty)
    screen = ScreenRenderer.render(store.state, registration: .app, style: .plain)
    #expect(screen.contains("› ♥ Algebraic Data Types\n"), "back on the list, the row shares it")
  }
}
