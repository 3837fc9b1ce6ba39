import AppFeature

extension AppFeature.Tab {
  /// The terminal screen of each tab: one line per feature. A new tab cannot compile without
  /// its screen.
  public var screen: TerminalScreenPart<AppFeature> {
    switch self {
    case .counters: .screen(CountersScreen.self)
    case .search: .screen(SearchScreen.self)
    case .settings: .screen(SettingsScreen.self)
    case .episodes: .screen(EpisodesScreen.self)
    }
  }
}
