import AppFeature
import ComposableArchitecture
import TerminalFrontend

/// The app in the terminal: the terminal front end driving ``AppFeature``.
public typealias AppTerminalFeature = TerminalFeature<AppFeature>

extension TerminalRegistration<AppFeature> {
  /// The app's tabs, one per feature, each the feature's own screen lifted into the app's state
  /// and actions with the key path and case key path its `Scope` uses (`AppFeature.Tab.screen`,
  /// derived from the features table in `AppFeature+Screens.swift`); the header greets the
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
