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

@testable import TerminalFrontend

/// Key sequences in, actions and state out — without a process or a terminal.
@MainActor
struct ControllerTests {
  let actions = LockIsolated<[String]>([])

  func makeController(
    clock: TestClock<Duration> = TestClock(),
    _ dependencies: @escaping (inout DependencyValues) -> Void = { _ in }
  ) -> TerminalController {
    let actions = self.actions
    let store = Store(initialState: AppFeature.State(counters: [Counter.State(id: UUID(99))])) {
      Reduce<AppFeature.State, AppFeature.Action> { _, action in
        actions.withValue { $0.append(debugDescription(action)) }
        return .none
      }
      AppFeature()
    } withDependencies: {
      $0.uuid = .incrementing
      $0.continuousClock = clock
      $0.settingsClient = .inMemory()
      dependencies(&$0)
    }
    return TerminalController(store: store)
  }

  func type(_ controller: TerminalController, _ keys: Key...) {
    for key in keys { controller.handle(key) }
  }

  @Test func counterKeys() {
    let controller = makeController()
    type(controller, .character("+"), .character("+"), .character("-"), .character("a"))
    #expect(controller.store.counters.map(\.count) == [1, 0])
    #expect(controller.view.selectedCounter == 1)
    // x asks first: Esc keeps the counter, x then Enter removes it.
    type(controller, .up, .character("x"))
    #expect(
      controller.screen(style: .plain).contains(
        """
        ┌───────────────────────────────────────┐
        │ Remove Counter 1?                     │
        │ Its count, fact and timer go with it. │
        │ Enter/y Remove · Esc/n Cancel         │
        └───────────────────────────────────────┘
        """))
    type(controller, .character("+"), .escape)
    #expect(controller.store.counters.count == 2)
    #expect(controller.store.destination == nil)
    type(controller, .character("x"), .enter)
    #expect(controller.store.counters.ids == [UUID(0)])
    #expect(controller.store.counters[0].count == 0)
    #expect(
      actions.value == [
        "counters(element: incrementButtonTapped)", "counters(element: incrementButtonTapped)",
        "counters(element: decrementButtonTapped)", "addCounterButtonTapped",
        "removeCounterButtonTapped", "destination", "removeCounterButtonTapped", "destination",
      ])
  }

  @Test func counterRequestsAndTimer() {
    let controller = makeController {
      $0.factClient.fetch = { "\($0)" }
      $0.randomNumberClient.fetch = { _, _ in 5 }
    }
    type(controller, .character("f"), .character("r"), .character("t"), .character("t"))
    #expect(
      actions.value == [
        "counters(element: factButtonTapped)", "counters(element: randomNumberButtonTapped)",
        "counters(element: timerButtonTapped)", "counters(element: timerButtonTapped)",
      ])
  }

  @Test func tabKeys() {
    let controller = makeController()
    type(controller, .character("2"))
    #expect(controller.store.selectedTab == .search)
    type(controller, .tab, .tab)
    #expect(controller.store.selectedTab == .episodes)
    type(controller, .tab)
    #expect(controller.store.selectedTab == .counters)
    type(controller, .backTab)
    #expect(controller.store.selectedTab == .episodes)
  }

  @Test func quitKeys() {
    let controller = makeController()
    #expect(controller.handle(.character("q")) == .quit)
    #expect(controller.handle(.controlC) == .quit)
    controller.handle(.character("2"))
    controller.handle(.character("/"))
    // While typing, q is text; Ctrl-C still quits.
    #expect(controller.handle(.character("q")) == .continue)
    #expect(controller.store.search.searchQuery == "q")
    #expect(controller.handle(.controlC) == .quit)
  }

  @Test func typingASearchIsDebouncedAndEnterOpensAForecast() async {
    await withMainSerialExecutor {
      let clock = TestClock()
      let searched = LockIsolated<[String]>([])
      let controller = makeController(clock: clock) {
        $0.weatherClient.search = { @Sendable query in
          searched.withValue { $0.append(query) }
          return .mock
        }
        $0.weatherClient.forecast = { @Sendable _ in .mock }
      }
      type(
        controller, .character("2"), .character("/"), .character("S"), .character("F"),
        .backspace, .character("e"), .enter)
      #expect(controller.store.search.searchQuery == "Se")
      #expect(controller.view.editing == nil)
      #expect(controller.store.search.isSearchInFlight)
      await clock.advance(by: .milliseconds(300))
      await yield(until: {
        controller.store.search.results.count == 3 && !controller.store.search.isSearchInFlight
      })
      #expect(searched.value == ["Se"])
      #expect(controller.store.search.results == GeocodingSearch.mock.results)
      #expect(controller.store.search.isSearchInFlight == false)
      type(controller, .down, .enter)
      await yield(until: { controller.store.search.weather != nil })
      #expect(controller.store.search.weather?.id == GeocodingSearch.mock.results[1].id)
      type(controller, .character("c"))
      #expect(controller.store.search.searchQuery == "")
      #expect(controller.store.search.results == [])
    }
  }

  @Test func settingsKeys() {
    let controller = makeController()
    type(controller, .character("3"), .enter, .character("B"), .character("o"), .enter)
    #expect(controller.store.settings.displayName == "Bo")
    #expect(controller.store.header == "Hello, Bo!")
    type(controller, .down, .right)
    #expect(controller.store.settings.digest == .weekly)
    type(controller, .left, .left)
    #expect(controller.store.settings.digest == .off)
    type(controller, .down, .character(" "), .down, .enter)
    #expect(controller.store.settings.enableNotifications)
    #expect(controller.store.settings.sendEmailNotifications)
    for _ in 0..<4 { controller.handle(.down) }
    type(controller, .right)
    #expect(controller.store.settings.temperatureUnit == .fahrenheit)
    #expect(controller.store.search.temperatureUnit == .fahrenheit)
    // Reset asks first: Esc cancels, Enter confirms.
    type(controller, .down, .enter)
    #expect(controller.store.settings.destination == .confirmReset(.resetSettings))
    #expect(
      controller.screen(style: .plain).contains(
        """
        ┌─────────────────────────────────────────┐
        │ Reset all settings?                     │
        │ Every setting goes back to its default. │
        │ Enter/y Reset · Esc/n Cancel            │
        └─────────────────────────────────────────┘
        """))
    type(controller, .character("x"), .escape)
    #expect(controller.store.settings.destination == nil)
    #expect(controller.store.settings.temperatureUnit == .fahrenheit)
    type(controller, .enter, .enter)
    #expect(controller.store.settings == Settings.State())
  }

  @Test func episodeKeysAndAlertDismissal() async {
    await withMainSerialExecutor {
      let controller = makeController {
        $0.favoriteClient.favorite = { _, _ in throw FavoriteError() }
      }
      type(controller, .character("4"), .down, .enter)
      #expect(controller.store.episodes.episodes[id: UUID(1)]?.isFavorite == true)
      await Task.megaYield()
      #expect(controller.store.episodes.episodes[id: UUID(1)]?.alert != nil)
      #expect(controller.screen(style: .plain).contains("Favoriting failed. (Side Effects)"))
      // While the alert shows, the other keys do nothing; Enter dismisses and rolls back.
      type(controller, .down, .enter)
      #expect(controller.store.episodes.episodes[id: UUID(1)]?.alert == nil)
      #expect(controller.store.episodes.episodes[id: UUID(1)]?.isFavorite == false)
      #expect(controller.view.selectedEpisode == 1)
    }
  }

  @Test func anEpisodeScreenOpensSharesTheFavoriteAndGoesBack() async {
    let controller = makeController {
      $0.favoriteClient = .inMemory()
    }
    type(controller, .character("4"), .down, .down, .character("o"))
    #expect(controller.store.episodes.path.map(\.title) == ["Algebraic Data Types"])
    var screen = controller.screen(style: .plain)
    #expect(screen.contains("Episodes › Algebraic Data Types\n\n  ♡ not a favorite\n"))
    #expect(screen.hasSuffix("Enter/Space favorite · Esc/← back · 1-4/Tab screens · q quit"))
    type(controller, .enter)
    screen = controller.screen(style: .plain)
    #expect(screen.contains("  ♥ favorite\n"))
    #expect(controller.store.episodes.episodes[id: UUID(2)]?.isFavorite == true)
    // Esc closes the screen: the screen dismisses itself, an effect.
    type(controller, .escape)
    await Task.megaYield()
    #expect(controller.store.episodes.path.isEmpty)
    screen = controller.screen(style: .plain)
    #expect(screen.contains("› ♥ Algebraic Data Types\n"), "back on the list, the row shares it")
  }
}

/// Yields until `condition` holds: the effects of a send finish on other tasks, and on a loaded
/// machine one `megaYield` is not always enough. Gives up after many rounds (the expectations
/// that follow then fail with the state as it is).
@MainActor
func yield(until condition: () -> Bool) async {
  for _ in 0..<200 where !condition() {
    await Task.megaYield()
  }
}

/// Case labels of an app action, e.g. `counters(element: incrementButtonTapped)`.
func debugDescription(_ action: AppFeature.Action) -> String {
  switch action {
  case .counters(.element(_, let action)):
    return "counters(element: \(label(action)))"
  default:
    return label(action)
  }
}

private func label(_ value: Any) -> String {
  Mirror(reflecting: value).children.first?.label ?? String(describing: value)
}
