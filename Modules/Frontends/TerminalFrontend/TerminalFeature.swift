import AppFeature
import ComposableArchitecture
import CounterFeature
import EpisodesFeature
import SearchFeature
import SettingsFeature

/// The terminal app as a reducer: the app's state, plus what the terminal adds — which row of
/// each screen is selected, which text field is being edited, whether the user is quitting — and
/// the key map, screen by screen.
///
/// A key press is ``Action/keyPressed(_:)``; what it means for the app is sent on as an
/// ``Action/app(_:)`` action, so a `TestStore` sees every key's effect on the app:
///
/// ```swift
/// await store.send(.keyPressed(.character("+")))
/// await store.receive(\.app.counters) { $0.app.counters[0].count = 1 }
/// ```
@Reducer
public struct TerminalFeature {
  @ObservableState
  public struct State: Equatable, Sendable {
    public var app: AppFeature.State
    /// Selections and the field being edited.
    public var view: ViewState
    /// Set by a quit key (or a signal): the session ends after this action.
    public var isQuitting = false

    public init(app: AppFeature.State = AppFeature.State(), isOffline: Bool = false) {
      self.app = app
      self.view = ViewState()
      self.view.isOffline = isOffline
    }
  }

  public enum Action: Sendable {
    /// Something happened in the app.
    case app(AppFeature.Action)
    /// A key was pressed.
    case keyPressed(Key)
    /// The terminal went away or the process was asked to stop (SIGTERM, SIGHUP, end of input).
    case quitRequested
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Scope(state: \.app, action: \.app) {
      AppFeature()
    }
    Reduce { state, action in
      switch action {
      case .app(let action):
        switch action {
        case .addCounterButtonTapped:
          state.view.selectedCounter = state.app.counters.count - 1
        case .search(.searchQueryChanged):
          state.view.selectedResult = 0
        default:
          break
        }
        state.view.clamp(to: state.app)
        return .none

      case .keyPressed(let key):
        return keyPressed(key, state: &state)

      case .quitRequested:
        return quit(&state)
      }
    }
  }

  private func keyPressed(_ key: Key, state: inout State) -> Effect<Action> {
    if key == .controlC { return quit(&state) }
    if let field = state.view.editing {
      return edit(field, with: key, state: &state)
    }
    switch key {
    case .character("q"), .controlD:
      return quit(&state)
    case .character(let digit) where ("1"..."4").contains(digit):
      let index = digit.wholeNumberValue! - 1
      return .send(.app(.tabSelected(AppFeature.Tab.allCases[index])))
    case .tab:
      return .send(.app(.tabSelected(state.app.selectedTab.cycled(by: 1))))
    case .backTab:
      return .send(.app(.tabSelected(state.app.selectedTab.cycled(by: -1))))
    default:
      break
    }
    switch state.app.selectedTab {
    case .counters: return counters(key, state: &state)
    case .search: return search(key, state: &state)
    case .settings: return settings(key, state: &state)
    case .episodes: return episodes(key, state: &state)
    }
  }

  /// Ends the session; a search still waiting for its debounce or its answer is dropped first.
  private func quit(_ state: inout State) -> Effect<Action> {
    state.isQuitting = true
    state.view.editing = nil
    return state.app.search.isSearchInFlight
      ? .send(.app(.search(.searchQueryChanged(""))))
      : .none
  }

  // MARK: Screens

  private func counters(_ key: Key, state: inout State) -> Effect<Action> {
    if case .confirmRemoval(let alert) = state.app.destination {
      return answerConfirmation(
        key,
        confirm: alert.buttons.first?.action.action.map {
          .app(.destination(.presented(.confirmRemoval($0))))
        },
        cancel: .app(.destination(.dismiss)))
    }
    let counters = state.app.counters
    let id = counters.isEmpty ? nil : counters[state.view.selectedCounter].id
    func send(_ action: Counter.Action) -> Effect<Action> {
      guard let id else { return .none }
      return .send(.app(.counters(.element(id: id, action: action))))
    }
    switch key {
    case .up, .character("k"):
      state.view.selectedCounter = max(0, state.view.selectedCounter - 1)
    case .down, .character("j"):
      state.view.selectedCounter = clamp(state.view.selectedCounter + 1, count: counters.count)
    case .character("+"), .character("="): return send(.incrementButtonTapped)
    case .character("-"), .character("_"): return send(.decrementButtonTapped)
    case .character("f"): return send(.factButtonTapped)
    case .character("r"): return send(.randomNumberButtonTapped)
    case .character("t"): return send(.timerButtonTapped)
    case .character("a"): return .send(.app(.addCounterButtonTapped))
    case .character("x"), .character("d"):
      guard let id else { return .none }
      return .send(.app(.removeCounterButtonTapped(id: id)))
    default: break
    }
    return .none
  }

  private func search(_ key: Key, state: inout State) -> Effect<Action> {
    let results = state.app.search.results
    switch key {
    case .character("/"), .character("i"):
      state.view.editing = .searchQuery
    case .up, .character("k"):
      state.view.selectedResult = max(0, state.view.selectedResult - 1)
    case .down, .character("j"):
      state.view.selectedResult = clamp(state.view.selectedResult + 1, count: results.count)
    case .enter:
      guard !results.isEmpty else { return .none }
      return .send(.app(.search(.searchResultTapped(results[state.view.selectedResult]))))
    case .character("c"), .escape:
      return .send(.app(.search(.searchQueryChanged(""))))
    default: break
    }
    return .none
  }

  /// A confirmation on screen: Enter or y confirms, Esc or n cancels; other keys wait.
  private func answerConfirmation(_ key: Key, confirm: Action?, cancel: Action) -> Effect<Action> {
    switch key {
    case .enter, .character("y"): confirm.map { .send($0) } ?? .none
    case .escape, .character("n"): .send(cancel)
    default: .none
    }
  }

  private func settings(_ key: Key, state: inout State) -> Effect<Action> {
    if case .confirmReset = state.app.settings.destination {
      return answerConfirmation(
        key, confirm: .app(.settings(.destination(.presented(.confirmReset(.reset))))),
        cancel: .app(.settings(.destination(.dismiss))))
    }
    let settings = state.app.settings
    let row = SettingsRow.allCases[state.view.selectedSetting]
    func set<Value: Equatable & Sendable>(
      _ keyPath: WritableKeyPath<Settings.State, Value> & Sendable, _ value: Value
    ) -> Effect<Action> {
      .send(.app(.settings(.binding(.set(keyPath, value)))))
    }
    switch key {
    case .up, .character("k"):
      state.view.selectedSetting = max(0, state.view.selectedSetting - 1)
    case .down, .character("j"):
      state.view.selectedSetting = clamp(
        state.view.selectedSetting + 1, count: SettingsRow.allCases.count)
    case .enter, .character(" "):
      switch row {
      case .displayName:
        state.view.editing = .displayName
      case .digest: return set(\.digest, settings.digest.cycled(by: 1))
      case .enableNotifications: return set(\.enableNotifications, !settings.enableNotifications)
      case .sendEmailNotifications:
        return set(\.sendEmailNotifications, !settings.sendEmailNotifications)
      case .sendMobileNotifications:
        return set(\.sendMobileNotifications, !settings.sendMobileNotifications)
      case .protectMyPosts: return set(\.protectMyPosts, !settings.protectMyPosts)
      case .isHapticFeedbackEnabled:
        return set(\.isHapticFeedbackEnabled, !settings.isHapticFeedbackEnabled)
      case .temperatureUnit:
        return set(\.temperatureUnit, settings.temperatureUnit.cycled(by: 1))
      case .reset: return .send(.app(.settings(.resetButtonTapped)))
      }
    case .left, .right, .character("h"), .character("l"):
      let step = (key == .left || key == .character("h")) ? -1 : 1
      switch row {
      case .digest: return set(\.digest, settings.digest.cycled(by: step))
      case .temperatureUnit:
        return set(\.temperatureUnit, settings.temperatureUnit.cycled(by: step))
      default: break
      }
    default: break
    }
    return .none
  }

  private func episodes(_ key: Key, state: inout State) -> Effect<Action> {
    if let screen = state.app.episodes.path.ids.last {
      return episodeScreen(screen, key, state: state)
    }
    let episodes = state.app.episodes.episodes
    let dismisses = key == .enter || key == .escape || key == .character(" ")
    if let alerted = episodes.first(where: { $0.alert != nil }) {
      guard dismisses else { return .none }
      return .send(
        .app(.episodes(.episodes(.element(id: alerted.id, action: .favorite(.alert(.dismiss)))))))
    }
    let selected = episodes.isEmpty ? nil : episodes[state.view.selectedEpisode]
    switch key {
    case .up, .character("k"):
      state.view.selectedEpisode = max(0, state.view.selectedEpisode - 1)
    case .down, .character("j"):
      state.view.selectedEpisode = clamp(state.view.selectedEpisode + 1, count: episodes.count)
    case .enter, .character(" "), .character("f"):
      guard let selected else { return .none }
      return .send(
        .app(.episodes(.episodes(.element(id: selected.id, action: .favorite(.buttonTapped))))))
    case .right, .character("o"):
      guard let selected else { return .none }
      return .send(.app(.episodes(.episodeTapped(selected.id))))
    default: break
    }
    return .none
  }

  /// The episode screen on top of the stack: favorite, its alert, close (the screen dismisses
  /// itself).
  private func episodeScreen(_ id: StackElementID, _ key: Key, state: State) -> Effect<Action> {
    func send(_ action: EpisodeDetail.Action) -> Effect<Action> {
      .send(.app(.episodes(.path(.element(id: id, action: action)))))
    }
    if state.app.episodes.path[id: id]?.alert != nil {
      let dismisses = key == .enter || key == .escape || key == .character(" ")
      return dismisses ? send(.favorite(.alert(.dismiss))) : .none
    }
    switch key {
    case .enter, .character(" "), .character("f"): return send(.favorite(.buttonTapped))
    case .escape, .left, .backspace: return send(.closeButtonTapped)
    default: return .none
    }
  }

  // MARK: Editing

  /// A key while a text field is edited: text goes to the field; Enter, Esc or Tab end editing.
  private func edit(_ field: ViewState.Field, with key: Key, state: inout State) -> Effect<Action> {
    var text = field == .searchQuery ? state.app.search.searchQuery : state.app.settings.displayName
    switch key {
    case .enter, .escape, .tab:
      state.view.editing = nil
      return .none
    case .backspace:
      guard !text.isEmpty else { return .none }
      text.removeLast()
    case .character(let character):
      text.append(character)
    default:
      return .none
    }
    switch field {
    case .searchQuery:
      return .send(.app(.search(.searchQueryChanged(text))))
    case .displayName:
      return .send(.app(.settings(.binding(.set(\.displayName, text)))))
    }
  }
}

func clamp(_ index: Int, count: Int) -> Int {
  count == 0 ? 0 : min(max(index, 0), count - 1)
}

extension ViewState {
  /// Keeps every selection on a row that exists.
  mutating func clamp(to app: AppFeature.State) {
    selectedCounter = TerminalFrontend.clamp(selectedCounter, count: app.counters.count)
    selectedResult = TerminalFrontend.clamp(selectedResult, count: app.search.results.count)
    selectedEpisode = TerminalFrontend.clamp(selectedEpisode, count: app.episodes.episodes.count)
  }
}

extension CaseIterable where Self: Equatable, AllCases.Index == Int {
  /// The case `step` places after this one, wrapping around.
  func cycled(by step: Int) -> Self {
    let all = Self.allCases
    let index = all.firstIndex(of: self)!
    return all[((index + step) % all.count + all.count) % all.count]
  }
}
