import AppFeature
import ComposableArchitecture
import CounterTerminal
import EpisodesTerminal
import SearchTerminal
import SettingsTerminal
import TerminalFrontend

/// The app in the terminal: the terminal front end driving ``AppFeature``.
public typealias AppTerminalFeature = TerminalFeature<AppFeature>

extension TerminalRegistration<AppFeature> {
  /// The app's tabs, one per feature, each the feature's own screen lifted into the app's state
  /// and actions with the key path and case key path its `Scope` uses; the header greets the
  /// name Settings publishes; `.task` loads what was kept; quitting drops a search still waiting
  /// for its debounce or its answer.
  public static let app = Self(
    tabs: AppFeature.Tab.allCases.map { tab in
      Tab(title: tab.rawValue.capitalized, screen: tab.screen)
    },
    selectedTab: { AppFeature.Tab.allCases.firstIndex(of: $0.selectedTab) ?? 0 },
    selectTab: { .tabSelected(AppFeature.Tab.allCases[$0]) },
    header: \.header,
    start: .task,
    quit: { $0.search.isSearchInFlight ? .search(.searchQueryChanged("")) : nil })
}

extension AppFeature.Tab {
  /// The terminal screen of each tab: one line per feature. A new tab cannot compile without
  /// its screen.
  var screen: TerminalScreenPart<AppFeature> {
    switch self {
    case .counters: .screen(CounterListScreen.self, state: \.counterList, action: \.counterList)
    case .search: .screen(SearchScreen.self, state: \.search, action: \.search)
    case .settings: .screen(SettingsScreen.self, state: \.settings, action: \.settings)
    case .episodes: .screen(EpisodesScreen.self, state: \.episodes, action: \.episodes)
    }
  }
}
