import AppFeature
import ComposableArchitecture
import CounterFeature
import EpisodesFeature
import SearchFeature
import SettingsFeature

/// Turns key presses into actions on the app's store, screen by screen.
///
/// It holds only presentation state (``ViewState``: selections and which field is being edited);
/// every user action goes to the store. Each edit of the search field is sent as it happens; the
/// `Search` reducer debounces it and says whether a search is in flight.
@MainActor
public final class TerminalController {
  public let store: StoreOf<AppFeature>
  public private(set) var view = ViewState()

  /// What the caller should do after a key.
  public enum Outcome: Equatable, Sendable {
    case `continue`
    case quit
  }

  public init(store: StoreOf<AppFeature>, isOffline: Bool = false) {
    self.store = store
    self.view.isOffline = isOffline
  }

  /// The screen for the current state.
  public func screen(style: Style) -> String {
    ScreenRenderer.render(store.state, view: clampedView(), style: style)
  }

  /// Handles one key press.
  @discardableResult
  public func handle(_ key: Key) -> Outcome {
    if key == .controlC { return .quit }
    if let field = view.editing {
      edit(field, with: key)
      return .continue
    }
    switch key {
    case .character("q"), .controlD:
      return .quit
    case .character(let digit) where ("1"..."4").contains(digit):
      let index = Int(String(digit))! - 1
      store.send(.tabSelected(AppFeature.Tab.allCases[index]))
      return .continue
    case .tab:
      cycleTab(by: 1)
      return .continue
    case .backTab:
      cycleTab(by: -1)
      return .continue
    default:
      break
    }
    switch store.selectedTab {
    case .counters: counters(key)
    case .search: search(key)
    case .settings: settings(key)
    case .episodes: episodes(key)
    }
    return .continue
  }

  /// Stops the pending search, if any.
  public func shutDown() {
    if store.search.isSearchInFlight {
      store.send(.search(.searchQueryChanged("")))
    }
  }

  // MARK: Screens

  private func counters(_ key: Key) {
    if case .confirmRemoval(let alert) = store.destination {
      answerConfirmation(
        key,
        confirm: {
          if let remove = alert.buttons.first?.action.action {
            store.send(.destination(.presented(.confirmRemoval(remove))))
          }
          view.selectedCounter = clamp(view.selectedCounter, count: store.counters.count)
        },
        cancel: { store.send(.destination(.dismiss)) })
      return
    }
    let counters = store.counters
    view.selectedCounter = clamp(view.selectedCounter, count: counters.count)
    let id = counters.isEmpty ? nil : counters[view.selectedCounter].id
    func send(_ action: Counter.Action) {
      guard let id else { return }
      store.send(.counters(.element(id: id, action: action)))
    }
    switch key {
    case .up, .character("k"): view.selectedCounter = max(0, view.selectedCounter - 1)
    case .down, .character("j"):
      view.selectedCounter = clamp(view.selectedCounter + 1, count: counters.count)
    case .character("+"), .character("="): send(.incrementButtonTapped)
    case .character("-"), .character("_"): send(.decrementButtonTapped)
    case .character("f"): send(.factButtonTapped)
    case .character("r"): send(.randomNumberButtonTapped)
    case .character("t"): send(.timerButtonTapped)
    case .character("a"):
      store.send(.addCounterButtonTapped)
      view.selectedCounter = store.counters.count - 1
    case .character("x"), .character("d"):
      guard let id else { return }
      store.send(.removeCounterButtonTapped(id: id))
    default: break
    }
  }

  private func search(_ key: Key) {
    let results = store.search.results
    switch key {
    case .character("/"), .character("i"):
      view.editing = .searchQuery
    case .up, .character("k"): view.selectedResult = max(0, view.selectedResult - 1)
    case .down, .character("j"):
      view.selectedResult = clamp(view.selectedResult + 1, count: results.count)
    case .enter:
      guard !results.isEmpty else { return }
      let result = results[clamp(view.selectedResult, count: results.count)]
      store.send(.search(.searchResultTapped(result)))
    case .character("c"), .escape:
      queryChanged("")
    default: break
    }
  }

  /// A confirmation on screen: Enter or y confirms, Esc or n cancels; other keys wait.
  private func answerConfirmation(_ key: Key, confirm: () -> Void, cancel: () -> Void) {
    switch key {
    case .enter, .character("y"): confirm()
    case .escape, .character("n"): cancel()
    default: break
    }
  }

  private func settings(_ key: Key) {
    if case .confirmReset = store.settings.destination {
      answerConfirmation(
        key, confirm: { store.send(.settings(.destination(.presented(.confirmReset(.reset))))) },
        cancel: { store.send(.settings(.destination(.dismiss))) })
      return
    }
    let settings = store.settings
    let row = SettingsRow(rawValue: clamp(view.selectedSetting, count: SettingsRow.allCases.count))!
    func set<Value: Equatable & Sendable>(
      _ keyPath: WritableKeyPath<Settings.State, Value> & Sendable, _ value: Value
    ) {
      store.send(.settings(.binding(.set(keyPath, value))))
    }
    switch key {
    case .up, .character("k"): view.selectedSetting = max(0, view.selectedSetting - 1)
    case .down, .character("j"):
      view.selectedSetting = clamp(view.selectedSetting + 1, count: SettingsRow.allCases.count)
    case .enter, .character(" "):
      switch row {
      case .displayName: view.editing = .displayName
      case .digest: set(\.digest, settings.digest.cycled(by: 1))
      case .enableNotifications: set(\.enableNotifications, !settings.enableNotifications)
      case .sendEmailNotifications: set(\.sendEmailNotifications, !settings.sendEmailNotifications)
      case .sendMobileNotifications:
        set(\.sendMobileNotifications, !settings.sendMobileNotifications)
      case .protectMyPosts: set(\.protectMyPosts, !settings.protectMyPosts)
      case .isHapticFeedbackEnabled:
        set(\.isHapticFeedbackEnabled, !settings.isHapticFeedbackEnabled)
      case .temperatureUnit: set(\.temperatureUnit, settings.temperatureUnit.cycled(by: 1))
      case .reset: store.send(.settings(.resetButtonTapped))
      }
    case .left, .right, .character("h"), .character("l"):
      let step = (key == .left || key == .character("h")) ? -1 : 1
      switch row {
      case .digest: set(\.digest, settings.digest.cycled(by: step))
      case .temperatureUnit: set(\.temperatureUnit, settings.temperatureUnit.cycled(by: step))
      default: break
      }
    default: break
    }
  }

  private func episodes(_ key: Key) {
    if let screen = store.episodes.path.ids.last {
      episodeScreen(screen, key)
      return
    }
    let episodes = store.episodes.episodes
    if let alerted = episodes.first(where: { $0.alert != nil }) {
      if key == .enter || key == .escape || key == .character(" ") {
        store.send(
          .episodes(.episodes(.element(id: alerted.id, action: .favorite(.alert(.dismiss))))))
      }
      return
    }
    switch key {
    case .up, .character("k"): view.selectedEpisode = max(0, view.selectedEpisode - 1)
    case .down, .character("j"):
      view.selectedEpisode = clamp(view.selectedEpisode + 1, count: episodes.count)
    case .enter, .character(" "), .character("f"):
      guard !episodes.isEmpty else { return }
      let episode = episodes[clamp(view.selectedEpisode, count: episodes.count)]
      store.send(.episodes(.episodes(.element(id: episode.id, action: .favorite(.buttonTapped)))))
    case .right, .character("o"):
      guard !episodes.isEmpty else { return }
      let episode = episodes[clamp(view.selectedEpisode, count: episodes.count)]
      store.send(.episodes(.episodeTapped(episode.id)))
    default: break
    }
  }

  /// The episode screen on top of the stack: favorite, its alert, close (the screen dismisses
  /// itself).
  private func episodeScreen(_ id: StackElementID, _ key: Key) {
    func send(_ action: EpisodeDetail.Action) {
      store.send(.episodes(.path(.element(id: id, action: action))))
    }
    if store.episodes.path[id: id]?.alert != nil {
      if key == .enter || key == .escape || key == .character(" ") {
        send(.favorite(.alert(.dismiss)))
      }
      return
    }
    switch key {
    case .enter, .character(" "), .character("f"): send(.favorite(.buttonTapped))
    case .escape, .left, .backspace: send(.closeButtonTapped)
    default: break
    }
  }

  // MARK: Editing

  private func edit(_ field: ViewState.Field, with key: Key) {
    let current = field == .searchQuery ? store.search.searchQuery : store.settings.displayName
    var text = current
    switch key {
    case .enter, .escape, .tab:
      view.editing = nil
      return
    case .backspace:
      guard !text.isEmpty else { return }
      text.removeLast()
    case .character(let character):
      text.append(character)
    default:
      return
    }
    switch field {
    case .searchQuery:
      queryChanged(text)
    case .displayName:
      store.send(.settings(.binding(.set(\.displayName, text))))
    }
  }

  private func queryChanged(_ query: String) {
    view.selectedResult = 0
    store.send(.search(.searchQueryChanged(query)))
  }

  // MARK: Helpers

  private func cycleTab(by step: Int) {
    store.send(.tabSelected(store.selectedTab.cycled(by: step)))
  }

  private func clamp(_ index: Int, count: Int) -> Int {
    count == 0 ? 0 : min(max(index, 0), count - 1)
  }

  private func clampedView() -> ViewState {
    var view = self.view
    view.selectedCounter = clamp(view.selectedCounter, count: store.counters.count)
    view.selectedResult = clamp(view.selectedResult, count: store.search.results.count)
    view.selectedEpisode = clamp(view.selectedEpisode, count: store.episodes.episodes.count)
    return view
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
