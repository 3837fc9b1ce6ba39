// BEGIN GENERATED imports: `Tools/boundary-check --update` writes these lines
import ComposableArchitecture
import CounterFeature
import EpisodesFeature
import Foundation
import SearchFeature
import SettingsFeature

// END GENERATED imports

/// The whole app: a list of counters, weather search, settings and episodes.
///
/// Every child is composed with `Scope`: the counter list (``CounterList``, which asks before
/// removing a counter), search, settings and episodes — one tab each, in the order of the
/// features table in `Package.swift`. The lines that compose a tab (its property, its case of
/// `Tab` and of `Action`, its `Scope`) are derived from that table and the feature's adapters:
/// `Tools/boundary-check --update` writes them between the `GENERATED` markers, and the boundary
/// check fails while they are not what the table gives. The header greets the name Settings
/// publishes, read through `@SharedReader` (``State/header``), so no rule is needed for it. The
/// parent owns the rule that spans features:
/// - the temperature unit chosen in Settings is the unit Search requests forecasts in, and a
///   forecast on screen is requested again when the unit changes.
@Reducer
public struct AppFeature: Sendable {
  @ObservableState
  public struct State: Equatable, Sendable {
    // One property per tab: its feature's state.
    // BEGIN GENERATED state: `Tools/boundary-check --update` writes these lines
    public var counterList: CounterList.State
    public var search: Search.State
    public var settings: Settings.State
    public var episodes: Episodes.State
    // END GENERATED state
    public var selectedTab: Tab
    /// The name Settings shares (`Settings.State.publicName`), read-only here.
    @SharedReader public var userName: String

    /// Each tab starts with its feature's initial state unless it is given: the counters with
    /// one counter (its id from the `uuid` dependency), the search with Settings' temperature
    /// unit.
    public init(
      // BEGIN GENERATED parameters: `Tools/boundary-check --update` writes these lines
      counterList: CounterList.State = CounterList.State(),
      search: Search.State = Search.State(),
      settings: Settings.State = Settings.State(),
      episodes: Episodes.State = Episodes.State(),
      // END GENERATED parameters
      selectedTab: Tab = .counters
    ) {
      // BEGIN GENERATED assignments: `Tools/boundary-check --update` writes these lines
      self.counterList = counterList
      self.search = search
      self.settings = settings
      self.episodes = episodes
      // END GENERATED assignments
      self.selectedTab = selectedTab
      self._userName = SharedReader(settings.$publicName)
      self.search.temperatureUnit = settings.temperatureUnit
    }

    /// What of this state a server keeps to restore the app after a restart (``KeptState``).
    public var kept: KeptState {
      KeptState(counters: Array(counterList.counters), selectedTab: selectedTab)
    }

    /// The line at the top of every screen.
    public var header: String {
      let name = userName
      return name.isEmpty ? "Composable App" : "Hello, \(name)!"
    }
  }

  /// What of the app survives a restart of the server that runs it: the counters (their counts,
  /// facts and whether their timer runs) and the selected tab. Settings and favorites are not in
  /// it: their clients keep them as they change. Requests in flight are not either: they are
  /// simply gone (``Action/restore(_:)``).
  public struct KeptState: Codable, Equatable, Sendable {
    public var counters: [Counter.State]
    public var selectedTab: Tab

    public init(counters: [Counter.State], selectedTab: Tab) {
      self.counters = counters
      self.selectedTab = selectedTab
    }
  }

  /// The screens of the app.
  public enum Tab: String, CaseIterable, Codable, Equatable, Sendable {
    // BEGIN GENERATED tabs: `Tools/boundary-check --update` writes these lines
    case counters
    case search
    case settings
    case episodes
    // END GENERATED tabs
  }

  public enum Action: Sendable {
    // BEGIN GENERATED actions: `Tools/boundary-check --update` writes these lines
    case counterList(CounterList.Action)
    case search(Search.Action)
    case settings(Settings.Action)
    case episodes(Episodes.Action)
    // END GENERATED actions
    /// Puts back what a ``KeptState`` kept: a front end that resumes a saved app sends it first,
    /// then ``task`` (which loads what the clients kept). Requests that were in flight are
    /// forgotten; timers that were running run again.
    case restore(KeptState)
    case tabSelected(Tab)
    /// Loads what was kept (favorites, settings); the front end sends it once, when the app
    /// starts.
    case task
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    // The rules that span features watch the state after every child has run, so they wrap the
    // whole composition.
    CombineReducers {
      // BEGIN GENERATED scopes: `Tools/boundary-check --update` writes these lines
      Scope(state: \.counterList, action: \.counterList) { CounterList() }
      Scope(state: \.search, action: \.search) { Search() }
      Scope(state: \.settings, action: \.settings) { Settings() }
      Scope(state: \.episodes, action: \.episodes) { Episodes() }
      // END GENERATED scopes
      Reduce { state, action in
        switch action {
        case .restore(let kept):
          let timers = state.counterList.restore(kept.counters)
          state.selectedTab = kept.selectedTab
          return CounterList.restartTimers(timers).map(Action.counterList)

        case .tabSelected(let tab):
          state.selectedTab = tab
          return .none

        case .task:
          return .merge(.send(.episodes(.task)), .send(.settings(.task)))

        // BEGIN GENERATED children: `Tools/boundary-check --update` writes these lines
        case .counterList: return .none
        case .search: return .none
        case .settings: return .none
        case .episodes: return .none
        // END GENERATED children
        }
      }
    }
    .onChange(of: \.settings.temperatureUnit) { _, state in
      state.search.temperatureUnit = state.settings.temperatureUnit
      guard
        let weather = state.search.weather,
        let location = state.search.results.first(where: { $0.id == weather.id })
      else { return .none }
      return .send(.search(.searchResultTapped(location)))
    }
  }
}
