import AppFeature
import ComposableArchitecture

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
        for tab in AppFeature.Tab.allCases {
          tab.screen.update(&state.view, after: action, state: state.app)
        }
        return .none

      case .keyPressed(let key):
        return keyPressed(key, state: &state)

      case .quitRequested:
        return quit(&state)
      }
    }
  }

  /// The keys every screen shares (quit, screen switching), else the selected screen's; while a
  /// field is edited, every key but Ctrl-C goes to the screen.
  private func keyPressed(_ key: Key, state: inout State) -> Effect<Action> {
    if key == .controlC { return quit(&state) }
    if state.view.editing == nil {
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
    }
    let screen = state.app.selectedTab.screen
    guard let action = screen.action(for: key, state: state.app, view: &state.view) else {
      return .none
    }
    return .send(.app(action))
  }

  /// Ends the session; a search still waiting for its debounce or its answer is dropped first.
  private func quit(_ state: inout State) -> Effect<Action> {
    state.isQuitting = true
    state.view.editing = nil
    return state.app.search.isSearchInFlight
      ? .send(.app(.search(.searchQueryChanged(""))))
      : .none
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
