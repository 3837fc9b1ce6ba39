import ComposableArchitecture
import CounterFeature
import EpisodesFeature
import Foundation
import SearchFeature
import SettingsFeature

/// The whole app: a list of counters, weather search, settings and episodes.
///
/// Children are composed with `Scope` and the counters with `forEach`, so removing a counter
/// cancels its effects (a running timer stops). The header greets the name Settings publishes,
/// read through `@SharedReader` (``State/header``), so no rule is needed for it. The parent owns
/// the rule that spans features, and asks before removing a counter (an `AlertState` presented
/// through the ``Destination`` enum reducer):
/// - the temperature unit chosen in Settings is the unit Search requests forecasts in, and a
///   forecast on screen is requested again when the unit changes.
@Reducer
public struct AppFeature: Sendable {
  @ObservableState
  public struct State: Equatable, Sendable {
    public var counters: IdentifiedArrayOf<Counter.State>
    /// What is presented over the app: the confirmation of a counter's removal.
    @Presents public var destination: Destination.State?
    public var episodes: Episodes.State
    public var search: Search.State
    public var selectedTab: Tab
    public var settings: Settings.State
    /// The name Settings shares (`Settings.State.publicName`), read-only here.
    @SharedReader public var userName: String

    /// Starts with one counter (its id from the `uuid` dependency) unless `counters` is given.
    public init(
      counters: IdentifiedArrayOf<Counter.State>? = nil,
      episodes: Episodes.State = Episodes.State(),
      search: Search.State = Search.State(),
      selectedTab: Tab = .counters,
      settings: Settings.State = Settings.State()
    ) {
      @Dependency(\.uuid) var uuid
      self.counters = counters ?? [Counter.State(id: uuid())]
      self.episodes = episodes
      self.search = search
      self.selectedTab = selectedTab
      self.settings = settings
      self._userName = SharedReader(settings.$publicName)
      self.search.temperatureUnit = settings.temperatureUnit
    }

    /// What of this state a server keeps to restore the app after a restart (``Snapshot``).
    public var snapshot: Snapshot {
      Snapshot(counters: Array(counters), selectedTab: selectedTab)
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
  public struct Snapshot: Codable, Equatable, Sendable {
    public var counters: [Counter.State]
    public var selectedTab: Tab

    public init(counters: [Counter.State], selectedTab: Tab) {
      self.counters = counters
      self.selectedTab = selectedTab
    }
  }

  /// The screens of the app.
  public enum Tab: String, CaseIterable, Codable, Equatable, Sendable {
    case counters, search, settings, episodes
  }

  /// What can be presented over the app.
  @Reducer
  public enum Destination {
    case confirmRemoval(AlertState<Removal>)
  }

  /// The buttons of the removal confirmation besides Cancel.
  @CasePathable
  public enum Removal: Equatable, Sendable {
    case remove(id: Counter.State.ID)
  }

  public enum Action: Sendable {
    case addCounterButtonTapped
    case counters(IdentifiedActionOf<Counter>)
    case destination(PresentationAction<Destination.Action>)
    case episodes(Episodes.Action)
    case removeCounterButtonTapped(id: Counter.State.ID)
    /// Puts back what a ``Snapshot`` kept: a front end that resumes a saved app sends it first,
    /// then ``task`` (which loads what the clients kept). Requests that were in flight are
    /// forgotten; timers that were running run again.
    case restore(Snapshot)
    case search(Search.Action)
    case settings(Settings.Action)
    case tabSelected(Tab)
    /// Loads what was kept (favorites, settings); the front end sends it once, when the app
    /// starts.
    case task
  }

  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some ReducerOf<Self> {
    // The rules that span features watch the state after every child has run, so they wrap the
    // whole composition.
    CombineReducers {
      Scope(state: \.search, action: \.search) {
        Search()
      }
      Scope(state: \.settings, action: \.settings) {
        Settings()
      }
      Scope(state: \.episodes, action: \.episodes) {
        Episodes()
      }
      Reduce { state, action in
        switch action {
        case .addCounterButtonTapped:
          state.counters.append(Counter.State(id: uuid()))
          return .none

        case .removeCounterButtonTapped(let id):
          guard let index = state.counters.index(id: id) else { return .none }
          state.destination = .confirmRemoval(.removeCounter(id: id, number: index + 1))
          return .none

        case .destination(.presented(.confirmRemoval(.remove(let id)))):
          state.counters.remove(id: id)
          return .none

        case .restore(let snapshot):
          var counters = IdentifiedArrayOf<Counter.State>()
          var timers: [Counter.State.ID] = []
          for var counter in snapshot.counters where counters[id: counter.id] == nil {
            counter.isFactRequestInFlight = false
            counter.isRandomNumberRequestInFlight = false
            if counter.isTimerOn {
              // Off until its own action starts the timer again, which turns it back on.
              counter.isTimerOn = false
              timers.append(counter.id)
            }
            counters.append(counter)
          }
          state.counters = counters
          state.selectedTab = snapshot.selectedTab
          state.destination = nil
          return .merge(
            timers.map { .send(.counters(.element(id: $0, action: .timerButtonTapped))) })

        case .tabSelected(let tab):
          state.selectedTab = tab
          return .none

        case .task:
          return .merge(.send(.episodes(.task)), .send(.settings(.task)))

        case .counters, .destination, .episodes, .search, .settings:
          return .none
        }
      }
      .forEach(\.counters, action: \.counters) {
        Counter()
      }
      .ifLet(\.$destination, action: \.destination)
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

extension AppFeature.Destination.State: Equatable, Sendable {}
extension AppFeature.Destination.Action: Equatable, Sendable {}

extension AppFeature {
  /// What a counter is called where it is shown and in its removal confirmation: "Counter 2" for
  /// the second in the list.
  public static func counterName(number: Int) -> String {
    "Counter \(number)"
  }
}

extension AlertState where Action == AppFeature.Removal {
  /// "Remove Counter 2?" with a destructive Remove and a Cancel; the counter keeps running (a
  /// timer ticks) until it is removed.
  public static func removeCounter(id: UUID, number: Int) -> Self {
    Self {
      TextState("Remove \(AppFeature.counterName(number: number))?")
    } actions: {
      ButtonState(role: .destructive, action: .remove(id: id)) { TextState("Remove") }
      ButtonState(role: .cancel) { TextState("Cancel") }
    } message: {
      TextState("Its count, fact and timer go with it.")
    }
  }
}
