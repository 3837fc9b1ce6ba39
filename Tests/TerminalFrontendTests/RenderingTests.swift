import AppFeature
import AppTerminal
import ComposableArchitecture
import CounterFeature
import EpisodesFeature
import Foundation
import SearchFeature
import SearchTerminal
import SettingsFeature
import SettingsTerminal
import Testing
import WeatherClient

@testable import TerminalFrontend

@MainActor
struct RenderingTests {
  func state(_ update: (inout AppFeature.State) -> Void = { _ in }) -> AppFeature.State {
    var state = AppFeature.State(
      counterList: CounterList.State(counters: [Counter.State(id: UUID(0))]))
    update(&state)
    return state
  }

  @Test func countersScreen() {
    let text = ScreenRenderer.render(
      state {
        $0.counterList.counters[id: UUID(0)]?.count = 7
        $0.counterList.counters[id: UUID(0)]?.isTimerOn = true
        $0.counterList.counters[id: UUID(0)]?.fact = "7 is a number."
        $0.counterList.counters.append(Counter.State(id: UUID(1), isFactRequestInFlight: true))
        $0.counterList.counters.append(
          Counter.State(id: UUID(2), randomNumberError: "Random number: HTTP 503"))
      },
      view: ViewState(), registration: .app, style: .plain)
    // The tab bar shows every tab of the app, the first selected; the app's first four are these.
    let lines = text.components(separatedBy: "\n")
    #expect(lines[1].hasPrefix("[1 Counters]  2 Search   3 Settings   4 Episodes "))
    #expect(
      lines.prefix(1) + lines.dropFirst(2) == [
        "Composable App",
        "────────────────────────────────────────────────────────────",
        "› Counter 1   count: 7   timer: on ⏱",
        "    fact: 7 is a number.",
        "  Counter 2   count: 0   timer: off",
        "    fact: ⟳ loading…",
        "  Counter 3   count: 0   timer: off",
        "    random number failed: Random number: HTTP 503",
        "",
        "↑/↓ select · +/- count · f fact · r random · t timer · a add · x remove · "
          + "1-\(AppFeature.Tab.allCases.count)/Tab screens · q quit",
      ])
  }

  /// Keys the running session handles itself (Ctrl-R when it can record) join the help line.
  @Test func sessionKeysJoinTheHelpLine() {
    let text = ScreenRenderer.render(
      state(), view: ViewState(), registration: .app, style: .plain,
      sessionKeys: "Ctrl-R record")
    #expect(
      text.hasSuffix("1-\(AppFeature.Tab.allCases.count)/Tab screens · Ctrl-R record · q quit"))
    var view = ViewState()
    view.editing = ViewState.Field("searchQuery")
    let editing = ScreenRenderer.render(
      state(), view: view, registration: .app, style: .plain, sessionKeys: "Ctrl-R record")
    #expect(!editing.contains("Ctrl-R"), "typing keeps its own help")
  }

  @Test func searchScreenWithResultsErrorAndForecastChart() {
    let text = ScreenRenderer.render(
      state {
        $0.selectedTab = .search
        $0.search.searchQuery = "Br"
        $0.search.results = GeocodingSearch.mock.results
        $0.search.resultForecastRequestInFlight = GeocodingSearch.mock.results[1]
        $0.search.weather = Search.State.Weather(
          id: 1,
          days: [
            .init(
              date: Date(timeIntervalSince1970: 0), temperatureMax: 20, temperatureMaxUnit: "°C",
              temperatureMin: 10, temperatureMinUnit: "°C"),
            .init(
              date: Date(timeIntervalSince1970: 86_400), temperatureMax: 30,
              temperatureMaxUnit: "°C", temperatureMin: 0, temperatureMinUnit: "°C"),
          ])
      },
      view: ViewState(), registration: .app, style: .plain)
    #expect(text.contains("Search: Br\n"))
    #expect(text.contains("› Brooklyn, United States\n"))
    #expect(text.contains("  Los Angeles, United States  ⟳ loading forecast…\n"))
    #expect(text.contains("Forecast for Brooklyn\n"))
    #expect(text.contains("Weather data by Open-Meteo (https://open-meteo.com)"))
    // 1970-01-01 is "Today" (first day); 1970-01-02 was a Friday. The scale is 0…30 over 24
    // columns: 10 → column 8, 20 → column 15.
    #expect(text.contains("  Today   10.0°C  ········████████········  20.0°C\n"))
    #expect(text.contains("  Fri      0.0°C  ████████████████████████  30.0°C\n"))
  }

  /// A place found by another of its names says which, or the row looks like a wrong answer.
  @Test func aResultFoundByAnotherNameSaysWhich() {
    let text = ScreenRenderer.render(
      state {
        $0.selectedTab = .search
        $0.search.searchQuery = "new york"
        $0.search.results = [
          GeocodingSearch.Result(
            country: "United States", latitude: 40.7, longitude: -74, id: 1,
            name: "New York City", admin1: "New York"),
          GeocodingSearch.Result(
            country: "Indonesia", latitude: -6.2, longitude: 106.8, id: 2, name: "Jakarta",
            matchedName: "New York Van Java"),
        ]
      },
      view: ViewState(), registration: .app, style: .plain)
    #expect(text.contains("› New York City, New York, United States\n"))
    #expect(text.contains("  Jakarta, Indonesia  (“New York Van Java”)\n"))
  }

  /// Columns stay put: counts and a forecast's maxima are right-aligned to the widest.
  @Test func columnsAreAligned() {
    let counters = ScreenRenderer.render(
      state {
        $0.counterList.counters[id: UUID(0)]?.count = 86
        $0.counterList.counters.append(Counter.State(id: UUID(1), count: 7, isTimerOn: true))
      },
      view: ViewState(), registration: .app, style: .plain)
    #expect(counters.contains("› Counter 1   count: 86   timer: off\n"))
    #expect(counters.contains("  Counter 2   count:  7   timer: on ⏱\n"))
    let chart = ForecastChart.render(
      [
        .init(
          date: Date(timeIntervalSince1970: 0), temperatureMax: 9.5, temperatureMaxUnit: "°C",
          temperatureMin: -3, temperatureMinUnit: "°C"),
        .init(
          date: Date(timeIntervalSince1970: 86_400), temperatureMax: 12, temperatureMaxUnit: "°C",
          temperatureMin: 1, temperatureMinUnit: "°C"),
      ], style: .plain)
    #expect(chart.map { String($0.suffix(7)) } == [" 9.5°C", "12.0°C"].map { " " + $0 })
  }

  @Test func offlineTheEstimateIsLabelledAndTheGazetteerCredited() {
    var view = ViewState()
    view.isOffline = true
    let text = ScreenRenderer.render(
      state {
        $0.selectedTab = .search
        $0.search.searchQuery = "seo"
        $0.search.results = GeocodingSearch.mock.results
        $0.search.weather = Search.State.Weather(
          id: 1,
          days: [
            .init(
              date: Date(timeIntervalSince1970: 0), temperatureMax: 20, temperatureMaxUnit: "°C",
              temperatureMin: 10, temperatureMinUnit: "°C")
          ],
          isEstimate: true)
      }, view: view, registration: .app, style: .plain)
    #expect(text.contains("Forecast for Brooklyn  (offline estimate)\n"))
    #expect(text.contains("Offline: places from GeoNames (CC BY 4.0)"))
    #expect(!text.contains("Open-Meteo"))
  }

  @Test func searchScreenWhileEditingAndSearching() {
    var view = ViewState()
    view.editing = .searchQuery
    let text = ScreenRenderer.render(
      state {
        $0.selectedTab = .search
        $0.search.searchQuery = "Seo"
        $0.search.isSearchInFlight = true
        $0.search.errorMessage = "Open-Meteo geocoding: cannot reach geocoding-api.open-meteo.com"
      }, view: view, registration: .app, style: .plain)
    #expect(text.contains("Search: Seo█  ⟳ searching…\n"))
    #expect(
      text.contains("error: Open-Meteo geocoding: cannot reach geocoding-api.open-meteo.com\n"))
    #expect(text.hasSuffix("type to edit · Backspace delete · Enter/Esc done · Ctrl-C quit"))
  }

  @Test func settingsScreen() {
    var view = ViewState()
    view.selectedSetting = SettingsRow.temperatureUnit.rawValue
    let text = ScreenRenderer.render(
      state {
        $0.selectedTab = .settings
        $0.settings.displayName = "Blob"
        $0.settings.$publicName.withLock { $0 = "Blob" }
        $0.settings.enableNotifications = true
        $0.settings.temperatureUnit = .fahrenheit
        $0.settings.displayNameError = "Display names are limited to 32 characters."
      }, view: view, registration: .app, style: .plain)
    #expect(text.hasPrefix("Hello, Blob!\n"))
    #expect(text.contains("  Display name       Blob\n"))
    #expect(text.contains("  Notifications      [x] on\n"))
    #expect(text.contains("    E-mail           [ ] off\n"))
    #expect(text.contains("› Temperature unit   ‹ °F ›\n"))
    // The note on the name's length goes with the editing: shown while the name is edited only.
    #expect(!text.contains("Display names are limited to 32 characters."))
    view.editing = .displayName
    let editing = ScreenRenderer.render(
      state {
        $0.selectedTab = .settings
        $0.settings.displayName = String(repeating: "x", count: 32)
        $0.settings.displayNameError = "Display names are limited to 32 characters."
      }, view: view, registration: .app, style: .plain)
    #expect(editing.contains("Display names are limited to 32 characters.\n"))
  }

  @Test func episodesScreenWithAlert() {
    let text = ScreenRenderer.render(
      state {
        $0.selectedTab = .episodes
        $0.episodes.episodes[id: UUID(1)]?.favorite.isFavorite = true
        $0.episodes.episodes[id: UUID(1)]?.favorite.alert = AlertState {
          TextState("Favoriting failed.")
        }
      }, view: ViewState(), registration: .app, style: .plain)
    #expect(text.contains("› ♡ Functions\n  ♥ Side Effects\n"))
    #expect(text.contains("│ Favoriting failed. (Side Effects) │\n"))
    // What OK does, and a help line of the keys that do something while the alert is up.
    #expect(text.contains("Press Enter to dismiss: the ♥ goes back to what it was."))
    #expect(text.contains("\nEnter/Esc/Space OK (puts the ♥ back) · "))
    #expect(!text.contains("→/o open"))
  }

  @Test func theEpisodesCanShowTheFavoritesOnly() {
    let all = ScreenRenderer.render(
      state {
        $0.selectedTab = .episodes
        $0.episodes.episodes[id: UUID(3)]?.favorite.isFavorite = true
      }, view: ViewState(), registration: .app, style: .plain)
    #expect(all.contains("  ♡ Side Effects\n"))
    #expect(all.contains(" · v favorites only · "))
    let favorites = ScreenRenderer.render(
      state {
        $0.selectedTab = .episodes
        $0.episodes.episodes[id: UUID(3)]?.favorite.isFavorite = true
        $0.episodes.showsFavoritesOnly = true
      }, view: ViewState(), registration: .app, style: .plain)
    #expect(favorites.contains("Favorites only (1 of 6)\n› ♥ DSLs\n"), "\(favorites)")
    #expect(!favorites.contains("Side Effects"))
    #expect(favorites.contains(" · v every episode · "))
    let none = ScreenRenderer.render(
      state {
        $0.selectedTab = .episodes
        $0.episodes.showsFavoritesOnly = true
      }, view: ViewState(), registration: .app, style: .plain)
    #expect(none.contains("Favorites only (0 of 6)\nNo favorites yet: v shows every episode.\n"))
  }

  @Test func aSaveInFlightShowsAndConfirmationsHaveTheirOwnHelp() {
    let saving = ScreenRenderer.render(
      state {
        $0.selectedTab = .episodes
        $0.episodes.episodes[id: UUID(1)]?.favorite.isFavorite = true
        $0.episodes.episodes[id: UUID(1)]?.favorite.saving = true
      }, view: ViewState(), registration: .app, style: .plain)
    #expect(saving.contains("  ♥ Side Effects  ⟳ saving…\n"))
    #expect(saving.contains("\n↑/↓ select · Enter/Space/f favorite · →/o open · "))
    let confirming = ScreenRenderer.render(
      state {
        $0.counterList.destination = .confirmRemoval(.removeCounter(id: UUID(0), number: 1))
      }, view: ViewState(), registration: .app, style: .plain)
    #expect(confirming.contains("\nEnter/y Remove · Esc/n Cancel · "))
    #expect(!confirming.contains("+/- count"))
  }

  @Test func plainStyleHasNoEscapeCodesAndTerminalStyleHas() {
    let state = state { $0.counterList.counters[id: UUID(0)]?.isTimerOn = true }
    #expect(
      !ScreenRenderer.render(state, view: ViewState(), registration: .app, style: .plain).contains(
        "\u{1B}"))
    #expect(
      ScreenRenderer.render(state, view: ViewState(), registration: .app, style: .terminal)
        .contains("\u{1B}["))
  }

  @Test func noColorAndDumbTerminalsGetPlainText() {
    #expect(Style.forTerminal(environment: [:]).usesEscapeCodes)
    #expect(Style.forTerminal(environment: ["TERM": "xterm-256color"]).usesEscapeCodes)
    #expect(!Style.forTerminal(environment: ["NO_COLOR": "1"]).usesEscapeCodes)
    #expect(Style.forTerminal(environment: ["NO_COLOR": ""]).usesEscapeCodes, "empty means unset")
    #expect(!Style.forTerminal(environment: ["TERM": "dumb"]).usesEscapeCodes)
  }
}
